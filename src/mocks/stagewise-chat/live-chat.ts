/**
 * The snapshot and live updates of a chat subscription written by the mock rather than iterated by tRPC: each update
 * becomes the frame tRPC's connection handler would have sent (its `started` frame gives the id part, superjson's
 * envelope is plain JSON, with its Date annotations, when nothing else in the update needs a tag), the snapshot right
 * after `started`, each later update at the moment the agent emits it. A snapshot the mock cannot write is tRPC's, and
 * updates that come while tRPC still sends it wait for it; an update the mock cannot write goes back to tRPC with all
 * after it. Browser-safe.
 */
import type { Chat, ChatUpdate } from "../../generated/stagewise-chat.js";
import type { SeqEvent } from "../../stagewise/adapter/chat-store.js";
import type { LiveChat } from "../../stagewise/adapter/router.js";
import { DATED_UPDATES, updateToWire } from "../../stagewise/adapter/wire-dates.js";
import { superjson } from "./superjson-ref.js";
import type { Sub } from "./wire.js";

const STARTED = '{"type":"started"}}';

/** What the writer needs of its connection. */
export interface LiveSocket {
  writeLive(sub: Sub, text: string, key: string): void;
}

/** The part of tRPC's frames before `result`'s value (`{"id":…,"jsonrpc":…,"result":`), from its `started` frame. */
export function framePrefix(startedText: string): string | undefined {
  return startedText.endsWith(STARTED) ? startedText.slice(0, -STARTED.length) : undefined;
}

/**
 * A value superjson would send as it is, with no `meta`: strings, booleans, null, finite numbers other than -0,
 * arrays without holes and plain objects, no object twice (superjson would note the equality), none of the keys
 * superjson refuses.
 */
export function plainJson(value: unknown, seen = new Set<object>(), depth = 0): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object": {
      if (value === null) return true;
      // Deep nesting is superjson's to walk (or refuse), as before.
      if (seen.has(value) || depth > 256) return false;
      seen.add(value);
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!(i in value) || !plainJson(value[i], seen, depth + 1)) return false;
        return true;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      for (const key of Object.keys(value)) {
        if (key === "__proto__" || key === "constructor" || key === "prototype") return false;
        if (!plainJson((value as Record<string, unknown>)[key], seen, depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/**
 * The frame tRPC sends for a tracked chat update: `result` is `{type, data, id}` in that order, `data` superjson's
 * envelope of `{id, data}` with the update in wire form.
 */
export function liveFrame(prefix: string, event: SeqEvent, texts = new TextDeltas()): string {
  const id = String(event.seq);
  const update = event.update;
  // A text delta, the bulk of a turn, in one piece.
  const delta = texts.json(update);
  if (delta !== undefined) return `${prefix}{"type":"data","data":{"json":{"id":"${id}","data":${delta}}},"id":"${id}"}}`;
  const envelope = plainEnvelope(id, update) ?? JSON.stringify(superjson().serialize({ id, data: updateToWire(update) }));
  return `${prefix}{"type":"data","data":${envelope},"id":"${id}"}}`;
}

/**
 * superjson's envelope of `{id, data}` for an update it would send as plain JSON but for its dates, written without
 * superjson: the JSON as it is, and a Date annotation per date field in the order superjson walks them. Undefined when
 * superjson must write it (anything not plain, a date field missing or written otherwise than `toISOString` writes it).
 */
function plainEnvelope(id: string, update: ChatUpdate): string | undefined {
  if (!plainJson(update)) return undefined;
  const json = `{"json":{"id":"${id}","data":${JSON.stringify(update)}}`;
  if (!DATED_UPDATES.has(update.type)) return `${json}}`;
  const dates = datePaths(update);
  if (dates === undefined) return undefined;
  return dates.length === 0 ? `${json}}` : `${json},"meta":{"values":{${dates.map((path) => `"${path}":["Date"]`).join(",")}},"v":1}}`;
}

/** What a date string is to superjson's Date: "iso" when `toISOString` writes it back as it is. */
type DateForm = "iso" | "other" | "none";

/** Forms already worked out: every snapshot carries the dates of the whole chat again. Bounded. */
const dateForms = new Map<string, DateForm>();

function dateForm(value: string): DateForm {
  let form = dateForms.get(value);
  if (form === undefined) {
    const time = Date.parse(value);
    form = Number.isNaN(time) ? "none" : new Date(time).toISOString() === value ? "iso" : "other";
    if (dateForms.size >= 4096) dateForms.clear();
    dateForms.set(value, form);
  }
  return form;
}

/**
 * The paths superjson annotates as dates in a dated update's envelope (updateToWire makes Dates of these fields), in
 * its walk order; undefined when a field is missing or is a date string `toISOString` would write otherwise (the JSON
 * would then change too). A field that is no date stays a string, unannotated, as updateToWire leaves it.
 */
function datePaths(update: ChatUpdate): string[] | undefined {
  const paths: string[] = [];
  const date = (value: unknown, path: string): boolean => {
    if (typeof value !== "string") return false;
    const form = dateForm(value);
    if (form === "iso") paths.push(path);
    return form !== "other";
  };
  const chat = (c: Chat, path: string): boolean => {
    // The chat's own date and its messages' in the chat's key order.
    for (const key in c) {
      if (key === "createdAt" && !date(c.createdAt, `${path}.createdAt`)) return false;
      if (key === "messages" && !c.messages.every((m, i) => date(m.createdAt, `${path}.messages.${i}.createdAt`))) return false;
    }
    return "createdAt" in c && Array.isArray(c.messages);
  };
  switch (update.type) {
    case "chat-list":
      return update.chats.every((c, i) => date(c.createdAt, `data.chats.${i}.createdAt`)) ? paths : undefined;
    case "chat-created":
    case "chat-full-sync":
      return chat(update.chat, "data.chat") ? paths : undefined;
    case "message-added":
      return date(update.message.createdAt, "data.message.createdAt") ? paths : undefined;
    default:
      return undefined;
  }
}

/** The own keys of `value`, in order, are exactly `keys`. */
function keysAre(value: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in value) if (!Object.hasOwn(value, key) || key !== keys[i++]) return false;
  return i === keys.length && Object.getPrototypeOf(value) === Object.prototype;
}

const UPDATE_KEYS = ["type", "chatId", "update"];
const PART_UPDATE_KEYS = ["messageId", "partIndex", "updateType", "content"];
const TEXT_KEYS = ["type", "text"];

/**
 * The JSON of a text or reasoning delta (`message-updated` with `{type, text}` content), the bulk of a streamed turn:
 * everything before the text is written once per part, not walked and written again for each delta.
 */
export class TextDeltas {
  private key: unknown[] = [];
  private head = "";

  json(update: SeqEvent["update"]): string | undefined {
    if (update.type !== "message-updated" || !keysAre(update, UPDATE_KEYS)) return undefined;
    const part = update.update;
    if (typeof part !== "object" || part === null || !keysAre(part, PART_UPDATE_KEYS)) return undefined;
    const content = part.content as { type: unknown; text: unknown } | null;
    if (typeof content !== "object" || content === null || !keysAre(content, TEXT_KEYS) || typeof content.text !== "string") return undefined;
    const { chatId } = update;
    const { messageId, partIndex, updateType } = part;
    const type = content.type;
    // superjson leaves these as they are; anything else (-0, a non-string id) is left to the general path.
    if (typeof chatId !== "string" || typeof messageId !== "string" || typeof updateType !== "string" || typeof type !== "string") return undefined;
    if (!Number.isSafeInteger(partIndex) || Object.is(partIndex, -0)) return undefined;
    const key = this.key;
    if (key[0] !== chatId || key[1] !== messageId || key[2] !== partIndex || key[3] !== updateType || key[4] !== type) {
      this.key = [chatId, messageId, partIndex, updateType, type];
      const s = JSON.stringify;
      this.head = `{"type":"message-updated","chatId":${s(chatId)},"update":{"messageId":${s(messageId)},"partIndex":${partIndex},"updateType":${s(updateType)},"content":{"type":${s(type)},"text":`;
    }
    return `${this.head}${JSON.stringify(content.text)}}}}`;
  }
}

export class LiveChatWriter implements LiveChat {
  /** Updates that came before the snapshot was out; null once it is. */
  private held: SeqEvent[] | null = [];
  private closed = false;
  /** Every update goes through tRPC from now on. */
  private handedBack = false;
  private readonly texts = new TextDeltas();
  private readonly key: string;

  constructor(
    private readonly socket: LiveSocket,
    readonly sub: Sub,
    private readonly prefix: string,
    private readonly viaTrpc: (event: SeqEvent) => void,
    private readonly onClose?: () => void,
  ) {
    this.key = String(sub.id);
  }

  write(event: SeqEvent): void {
    if (this.closed) return;
    if (this.handedBack) this.viaTrpc(event);
    else if (this.held) this.held.push(event);
    else this.send(event);
  }

  /**
   * Writes the snapshot as tRPC would have, at once (tRPC has just sent `started`); false, writing nothing, when one of
   * its updates is not the mock's to write (tRPC sends the snapshot then, and the writer waits for it as before).
   */
  snapshot(events: readonly SeqEvent[]): boolean {
    if (this.closed || this.handedBack || this.held === null) return false;
    let texts: string[];
    try {
      texts = events.map((event) => liveFrame(this.prefix, event, this.texts));
    } catch {
      return false;
    }
    for (const text of texts) this.socket.writeLive(this.sub, text, this.key);
    // As tRPC's classified agent-state frame would (a frame written straight out is not classified).
    if (events.at(-1)?.update.type === "agent-state") this.sub.snapshotOver = true;
    this.snapshotSent();
    return true;
  }

  /** tRPC sent the snapshot's last frame: what came meanwhile follows it. */
  snapshotSent(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const event of held) {
      if (this.closed) return;
      if (this.handedBack) this.viaTrpc(event);
      else this.send(event);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.held = null;
    this.onClose?.();
  }

  private send(event: SeqEvent): void {
    let text: string;
    try {
      text = liveFrame(this.prefix, event, this.texts);
    } catch {
      // superjson refused it: tRPC does whatever it does with that, and keeps the order from here on.
      this.handedBack = true;
      this.viaTrpc(event);
      return;
    }
    this.socket.writeLive(this.sub, text, this.key);
  }
}
