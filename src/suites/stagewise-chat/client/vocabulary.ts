/**
 * What a toolbar may ask (§1 Kinds, §2): each procedure with its kind and input schema, the calls the working gate
 * refuses (r11), and a stand-in metadata for judging an input's other fields. Message readers are the server suite's.
 */
export { callOf, isObject, readEnvelope, resultOf, type Json } from "../checks/support.js";

export const CHAT_PATH_NAME = "chat.getChatUpdates";

/** Every procedure of the agent: its kind and the schema of its (deserialized) input. */
export const PROCEDURES: Record<string, { kind: "subscription" | "mutation"; schema: string }> = {
  "availability.getAvailability": { kind: "subscription", schema: "void-input" },
  "state.getState": { kind: "subscription", schema: "void-input" },
  "messaging.getMessage": { kind: "subscription", schema: "void-input" },
  "messaging.sendUserMessage": { kind: "mutation", schema: "messaging-user-message" },
  "chat.getChatUpdates": { kind: "subscription", schema: "get-chat-updates-input" },
  "chat.sendMessage": { kind: "mutation", schema: "send-message-input" },
  "chat.createChat": { kind: "mutation", schema: "create-chat-input" },
  "chat.deleteChat": { kind: "mutation", schema: "chat-id-input" },
  "chat.switchChat": { kind: "mutation", schema: "chat-id-input" },
  "chat.updateChatTitle": { kind: "mutation", schema: "update-chat-title-input" },
  "chat.deleteMessageAndSubsequent": { kind: "mutation", schema: "delete-message-input" },
  "chat.approveToolCall": { kind: "mutation", schema: "approve-tool-call-input" },
  "chat.reportToolResult": { kind: "mutation", schema: "report-tool-result-input" },
  "chat.stop": { kind: "mutation", schema: "void-input" },
};

/** Chat calls that carry the user's metadata (its owner is chat/client-metadata). */
export const WITH_METADATA = new Set(["chat.sendMessage", "chat.approveToolCall"]);

/** Calls refused with chat-not-active outside the active chat (r12). */
export const ACTIVE_CHAT_ONLY = new Set(["chat.sendMessage", "chat.approveToolCall", "chat.reportToolResult"]);

/** Calls the working gate refuses (r11); switchChat only to another chat. */
export const GATED = new Set(["chat.createChat", "chat.deleteChat", "chat.switchChat", "chat.deleteMessageAndSubsequent"]);

/** A valid UserMessageMetadata, put in place of the real one when another rule judges the rest of an input. */
export const STAND_IN_METADATA = {
  currentUrl: null,
  currentTitle: null,
  currentZoomLevel: 1,
  viewportResolution: { width: 0, height: 0 },
  devicePixelRatio: 1,
  userAgent: "",
  locale: "en",
  selectedElements: [],
};

/** A toolbar answers PING with PONG within this time (§1). */
export const PONG_MS = 5_000;
