/**
 * Profiles of mcp-chat (§5). budget-master relaxes what its backend does differently from the
 * seed; schema overlays live in schemas/mcp-chat/profiles/budget-master/ and the registry applies
 * them by the profile's name. Framing, tool matching and terminal rules are never relaxed.
 */
import type { ProfileDef } from "../../core/checks/check.js";

export const BUDGET_MASTER: ProfileDef = {
  name: "budget-master",
  description:
    "liamhowell4/budget-master (7aa810d…71a6a55): null tool descriptions, FastAPI 422 detail arrays, no path in /servers, conversation_id and error events, /disconnect that keeps the connection, token-by-token text, chat limited to 30/min.",
  levels: {
    // HEAD keeps the connection unless an admin key is sent; the disconnected probe then becomes not-exercised.
    "mcp-chat/disconnect/clears-state": "INFO",
    // HEAD streams text token by token, including before tools.
    "mcp-chat/text/final-answer-only": "INFO",
  },
  params: {
    allowedEventTypes: ["conversation_id", "error"],
    // {type:"error", content} then [DONE] is an LLM failure: the stream counts as ending in error.
    errorEventTypes: ["error"],
    // 30 chat requests per minute: one chat probe every 2 s stays well inside.
    chatIntervalMs: 2000,
  },
};

export const MCP_CHAT_PROFILES: ProfileDef[] = [BUDGET_MASTER];
