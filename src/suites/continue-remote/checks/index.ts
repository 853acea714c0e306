/** Every server-side check of continue-remote, in catalogue order (§4). */
import type { CheckDef } from "../../../core/check.js";
import { STATE_CHECKS } from "./state.js";
import { WIRE_CHECKS } from "./wire.js";

export const CONTINUE_REMOTE_SERVER_CHECKS: CheckDef[] = [...WIRE_CHECKS, ...STATE_CHECKS];
