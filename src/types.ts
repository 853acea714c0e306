/** Types generated from the schemas ("agentwire/types"), one namespace per protocol. */
export * as ContinueRemote from "./generated/continue-remote.js";
export * as McpChat from "./generated/mcp-chat.js";
export * as OpenaiChat from "./generated/openai-chat.js";
export * as PiWeb from "./generated/pi-web.js";
export * as StagewiseChat from "./generated/stagewise-chat.js";
