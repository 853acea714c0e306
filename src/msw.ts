/**
 * msw entry ("agentwire/msw"): request handlers driven by the same engines as the node mocks.
 * Browser-safe: nothing here or below imports node modules. msw is a peer dependency.
 */
export { mcpChatHandlers } from "./mocks/mcp-chat/msw.js";
export { piWebHandlers } from "./mocks/pi-web/msw.js";
export { openaiChatHandlers } from "./mocks/openai-chat/msw.js";
export { continueRemoteHandlers, type ContinueRemoteHandlerOptions } from "./mocks/continue-remote/msw.js";
export { stagewiseChatHandlers, type StagewiseChatHandlerOptions } from "./mocks/stagewise-chat/msw.js";
