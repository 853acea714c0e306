/** The "agentwire/types" entry: types generated from each protocol's schemas, one namespace per protocol. */
export * as McpChat from "./generated/mcp-chat.js";
