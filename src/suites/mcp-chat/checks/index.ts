/** Every server-side check of mcp-chat, in catalogue order (§4). */
import type { CheckDef } from "../../../core/checks/check.js";
import { CHAT_CHECKS } from "./chat.js";
import { CHAT_SYNC_CHECKS } from "./chat-sync.js";
import { CONNECT_CHECKS } from "./connect.js";
import { CORS_CHECKS } from "./cors.js";
import { DISCONNECT_CHECKS } from "./disconnect.js";
import { ERRORS_CHECKS } from "./errors.js";
import { EVENTS_CHECKS } from "./events.js";
import { SERVERS_CHECKS } from "./servers.js";
import { SSE_CHECKS } from "./sse.js";
import { STATE_CHECKS } from "./state.js";
import { STATUS_CHECKS } from "./status.js";
import { TERMINAL_CHECKS } from "./terminal.js";
import { TEXT_CHECKS } from "./text.js";
import { TIMING_CHECKS } from "./timing.js";
import { TOOLS_CHECKS } from "./tools.js";

export const MCP_CHAT_SERVER_CHECKS: CheckDef[] = [
  ...SERVERS_CHECKS,
  ...CONNECT_CHECKS,
  ...STATUS_CHECKS,
  ...STATE_CHECKS,
  ...DISCONNECT_CHECKS,
  ...CORS_CHECKS,
  ...SSE_CHECKS,
  ...EVENTS_CHECKS,
  ...TOOLS_CHECKS,
  ...TEXT_CHECKS,
  ...TERMINAL_CHECKS,
  ...TIMING_CHECKS,
  ...CHAT_CHECKS,
  ...ERRORS_CHECKS,
  ...CHAT_SYNC_CHECKS,
];
