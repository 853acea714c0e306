/** Every server-side check of continue-remote, in catalogue order (§4). */
import type { CheckDef } from "../../../core/check.js";
import { POLL_CHECKS } from "./poll.js";
import { PROCESSING_CHECKS } from "./processing.js";
import { MESSAGE_CHECKS } from "./queue.js";
import { STATE_CHECKS } from "./state.js";
import { STREAM_CHECKS } from "./stream.js";
import { TOOLS_CHECKS } from "./tools.js";
import { WIRE_CHECKS } from "./wire.js";

export const CONTINUE_REMOTE_SERVER_CHECKS: CheckDef[] = [
  ...WIRE_CHECKS,
  ...STATE_CHECKS,
  ...TOOLS_CHECKS,
  ...STREAM_CHECKS,
  ...POLL_CHECKS,
  ...PROCESSING_CHECKS,
  ...MESSAGE_CHECKS,
];
