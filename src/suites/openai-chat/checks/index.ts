/** Every server-side check of openai-chat, in catalogue order (§4). */
import type { CheckDef } from "../../../core/checks/check.js";
import { AUTH_CHECKS } from "./auth.js";
import { CHUNK_CHECKS } from "./chunk.js";
import { DELTA_CHECKS } from "./delta.js";
import { DONE_CHECKS } from "./done.js";
import { ENVELOPE_CHECKS } from "./envelope.js";
import { ERRORS_CHECKS } from "./errors.js";
import { FINISH_CHECKS } from "./finish.js";
import { MODELS_CHECKS } from "./models.js";
import { REQUEST_CHECKS } from "./request.js";
import { SSE_CHECKS } from "./sse.js";
import { STREAM_CHECKS } from "./stream.js";
import { SYNC_CHECKS } from "./sync.js";
import { TIMING_CHECKS } from "./timing.js";
import { TOOL_CALL_CHECKS } from "./tool-call.js";
import { TURN_CHECKS } from "./turn.js";
import { USAGE_CHECKS } from "./usage.js";

export const OPENAI_CHAT_SERVER_CHECKS: CheckDef[] = [
  ...AUTH_CHECKS,
  ...MODELS_CHECKS,
  ...SSE_CHECKS,
  ...DONE_CHECKS,
  ...ENVELOPE_CHECKS,
  ...CHUNK_CHECKS,
  ...DELTA_CHECKS,
  ...TOOL_CALL_CHECKS,
  ...FINISH_CHECKS,
  ...USAGE_CHECKS,
  ...ERRORS_CHECKS,
  ...SYNC_CHECKS,
  ...TURN_CHECKS,
  ...REQUEST_CHECKS,
  ...TIMING_CHECKS,
  ...STREAM_CHECKS,
];
