/** Every server-side check of continue-remote, in catalogue order (§4). */
import type { CheckDef } from "../../../core/checks/check.js";
import { BAD_INPUT_CHECKS } from "./bad-input.js";
import { DIFF_CHECKS, EXIT_CHECKS } from "./diff-exit.js";
import { PAUSE_CHECKS } from "./pause.js";
import { PERMISSION_CHECKS } from "./permission.js";
import { POLL_CHECKS } from "./poll.js";
import { PROCESSING_CHECKS } from "./processing.js";
import { MESSAGE_CHECKS } from "./queue.js";
import { SECURITY_CHECKS } from "./security.js";
import { SESSION_CHECKS } from "./session.js";
import { STATE_CHECKS } from "./state.js";
import { STREAM_CHECKS } from "./stream.js";
import { TIMING_CHECKS } from "./timing.js";
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
  ...BAD_INPUT_CHECKS,
  ...PERMISSION_CHECKS,
  ...DIFF_CHECKS,
  ...EXIT_CHECKS,
  ...SECURITY_CHECKS,
  ...TIMING_CHECKS,
  ...SESSION_CHECKS,
  ...PAUSE_CHECKS,
];
