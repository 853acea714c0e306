/** Helpers for hooks that rewrite chat and messaging events while keeping superjson's Date tags right. Browser-safe. */
import { superjson } from "./superjson-ref.js";
import type { ChatMessage, ChatUpdate } from "../../generated/stagewise-chat.js";
import { updateToWire } from "../../stagewise/adapter/wire-dates.js";
import type { Connection } from "./hooks.js";
import { CHAT_PATH, chatUpdateOf, copyFrame, MESSAGING_PATH, seqOf, STATE_PATH, type Frame, type Json } from "./wire.js";

/** A chat event's envelope for `update` at `seq`, tagged as the adapter tags it. */
export function chatData(seq: number, update: ChatUpdate): Json {
  return superjson().serialize({ id: String(seq), data: updateToWire(update) }) as unknown as Json;
}

/** Replaces the update a chat event carries. */
export function setChatUpdate(frame: Frame, update: ChatUpdate): Frame {
  const out = copyFrame(frame);
  out.json!.result.data = chatData(seqOf(frame) ?? 0, update);
  return out;
}

/** A new chat event of the frame's subscription. */
export function chatEvent(frame: Frame, seq: number, update: ChatUpdate): Frame {
  return { ...frame, json: { id: frame.json!.id, result: { type: "data", id: String(seq), data: chatData(seq, update) } } };
}

type ChatRewrite = (update: ChatUpdate, frame: Frame, conn: Connection) => Frame[] | ChatUpdate | undefined;

/** An outgoing hook for chat events: return a new update, frames, or undefined to keep the frame. */
export function onChat(fn: ChatRewrite): (frame: Frame, conn: Connection) => Frame[] {
  return (frame, conn) => {
    const update = chatUpdateOf(frame);
    if (!update) return [frame];
    const out = fn(structuredClone(update), frame, conn);
    if (out === undefined) return [frame];
    return Array.isArray(out) ? out : [setChatUpdate(frame, out)];
  };
}

/** An outgoing hook for the events of another subscription: the plain value may be changed in place. */
export function onValue(path: typeof MESSAGING_PATH | typeof STATE_PATH, fn: (value: Json, frame: Frame, conn: Connection) => Frame[] | void): (frame: Frame, conn: Connection) => Frame[] {
  return (frame, conn) => {
    if (frame.kind !== "event" || frame.sub?.path !== path) return [frame];
    const copy = copyFrame(frame);
    return fn(copy.json!.result.data.json as Json, copy, conn) ?? [copy];
  };
}

/** Frames of other kinds. */
export function onKind(kind: Frame["kind"], fn: (frame: Frame, conn: Connection) => Frame[]): (frame: Frame, conn: Connection) => Frame[] {
  return (frame, conn) => (frame.kind === kind ? fn(copyFrame(frame), conn) : [frame]);
}

/** Every message a chat update carries, to change in place. */
export function messagesOf(update: ChatUpdate): ChatMessage[] {
  if (update.type === "chat-full-sync" || update.type === "chat-created") return update.chat.messages;
  if (update.type === "message-added") return [update.message];
  return [];
}

export const isChatEvent = (frame: Frame) => frame.kind === "event" && frame.sub?.path === CHAT_PATH;
