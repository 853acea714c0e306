/**
 * The client side of stagewise-chat: checks that judge a toolbar from the WebSocket traffic the mock recorded. The
 * ProtocolDef lists STAGEWISE_CHAT_CLIENT_CHECKS after the server suite's.
 */
export * from "./checks.js";
export { AgentView, CLIENT_PROBE, TOOLBAR, toolCalls, type Frame } from "./traffic.js";
export { PROCEDURES } from "./vocabulary.js";
