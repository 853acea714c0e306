/**
 * Dates across superjson (§1): the adapter keeps them as ISO strings (what the schemas and the reducer read) and
 * sends them as `Date`s, so superjson tags them; what arrives is turned back into ISO strings before validation.
 */
import type { AgentMessageUpdate, Chat, ChatMessage, ChatUpdate } from "../../generated/stagewise-chat.js";
import { copyOf } from "./plain-copy.js";

/** The updates with Date fields; the wire copy of any other is equal to the update. */
export const DATED_UPDATES: ReadonlySet<ChatUpdate["type"]> = new Set(["chat-list", "chat-created", "chat-full-sync", "message-added"]);

/** A copy of `update` with every Date field (§2) as a Date object, ready for superjson. */
export function updateToWire(update: ChatUpdate): unknown {
  const copy = copyOf(update) as unknown as Record<string, unknown>;
  switch (update.type) {
    case "chat-list":
      for (const item of copy.chats as { createdAt: unknown }[]) item.createdAt = asDate(item.createdAt);
      break;
    case "chat-created":
    case "chat-full-sync":
      chatToWire(copy.chat as Chat);
      break;
    case "message-added":
      messageToWire(copy.message as ChatMessage);
      break;
    default:
      break;
  }
  return copy;
}

export function messagingUpdateToWire(update: AgentMessageUpdate): unknown {
  return { ...structuredClone(update), createdAt: asDate(update.createdAt) };
}

function chatToWire(chat: Chat): void {
  (chat as { createdAt: unknown }).createdAt = asDate(chat.createdAt);
  for (const message of chat.messages) messageToWire(message);
}

function messageToWire(message: ChatMessage): void {
  (message as { createdAt: unknown }).createdAt = asDate(message.createdAt);
}

function asDate(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date;
}

/** Deserialized input with Dates as ISO strings (an invalid Date becomes a string no schema accepts). */
export function fromWire(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  if (Array.isArray(value)) return value.map(fromWire);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = fromWire(inner);
    return out;
  }
  return value;
}
