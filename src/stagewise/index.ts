/**
 * The stagewise agent adapter ("agentwire/stagewise"): build a stagewise-chat agent from a few hooks and emitters;
 * the adapter keeps the state, the sequence numbers, the snapshots, the working gate and the rejections. Node only.
 */
import { formatSchemaErrors, registry } from "../core/schemas/schema-registry.js";
import type { Validate } from "./adapter/chat-agent.js";
import { startAgentServer } from "./adapter/server.js";
import type { AgentServer, AgentServerOptions } from "./adapter/types.js";

const validate: Validate = (schema, value) => {
  const result = registry.validate("stagewise-chat", schema, value);
  return result.ok ? null : formatSchemaErrors(result.errors);
};

/** Starts an agent: discovery and the tRPC WebSocket on the first free port from 5746 on loopback. */
export function createAgentServer(options: AgentServerOptions = {}): Promise<AgentServer> {
  return startAgentServer(options, validate);
}

export { reject, Rejection, type RejectionReason } from "./adapter/rejection.js";
export { FIRST_PORT, LAST_PORT } from "./adapter/server.js";
export { STOP_GRACE_MS } from "./adapter/chat-agent.js";
export type { AgentRouter } from "./adapter/router.js";
export type * from "./adapter/types.js";
export {
  applyChatUpdate,
  initialChatState,
  reduceChatUpdates,
  sequenceVerdict,
  // Reading a state on every update without building its arrays of chats and messages.
  chatById,
  forEachChangedMessage,
  messageAt,
  messageById,
  messageCount,
  messageIndex,
  type ChatState,
  type ChatSummary,
} from "./chat-state.js";
export { applyMessageUpdate, type MessagingState } from "./messaging-state.js";
export { compareChatStates } from "./snapshot-compare.js";
export type * as StagewiseChat from "../generated/stagewise-chat.js";
