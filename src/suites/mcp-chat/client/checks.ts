/** Every client-side check of mcp-chat (contract §4): traffic checks first, then parse checks. */
import type { CheckDef } from "../../../core/checks/check.js";
import { PARSE_CHECKS } from "./parse-checks.js";
import { TRAFFIC_CHECKS } from "./traffic-checks.js";

export const MCP_CHAT_CLIENT_CHECKS: CheckDef[] = [...TRAFFIC_CHECKS, ...PARSE_CHECKS];
