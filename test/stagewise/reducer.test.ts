/**
 * The stagewise-chat chat reducer (§3 r7): each clause with an update that follows it and one that breaks it (the
 * violation names the clause and where), the r6 sequence verdicts, copy-on-write states, and input that is not a
 * ChatUpdate at all.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ChatMessage, ChatUpdate } from "../../src/generated/stagewise-chat.js";
import {
  applyChatUpdate,
  initialChatState,
  parseEventId,
  reduceChatUpdates,
  sequenceVerdict,
  type ChatState,
} from "../../src/stagewise/chat-state.js";
import { describeViolation } from "../../src/stagewise/reduced.js";
import { METADATA } from "./model-agent.js";

const T0 = "2025-08-08T10:00:00.000Z";

const user = (id: string): ChatMessage => ({ id, role: "user", createdAt: T0, content: [{ type: "text", text: "Make it blue" }], metadata: structuredClone(METADATA) });
const assistant = (id: string, content: Extract<ChatMessage, { role: "assistant" }>["content"] = []): ChatMessage => ({ id, role: "assistant", createdAt: T0, content });
const tool = (id: string): ChatMessage => ({ id, role: "tool", createdAt: T0, content: [{ type: "tool-result", toolCallId: "t9", toolName: "getStyles", output: "red" }] });

/** c1 active with m1 (user), a1 (assistant: text, reasoning, tool-call, file), x1 (tool); c2 inactive with 3 messages. */
function base(): ChatState {
  const messages = [
    user("m1"),
    assistant("a1", [
      { type: "text", text: "Hel" },
      { type: "reasoning", text: "Think" },
      { type: "tool-call", toolCallId: "t1", toolName: "writeFile", input: { path: "b.css" }, runtime: "backend", requiresApproval: true },
      { type: "file", data: "data:text/plain;base64,SGk=", mimeType: "text/plain" },
    ]),
    tool("x1"),
  ];
  const result = reduceChatUpdates([
    {
      seq: 10,
      update: {
        type: "chat-list",
        chats: [
          { id: "c1", title: "First", createdAt: T0, isActive: true, messageCount: 3 },
          { id: "c2", title: "Second", createdAt: T0, isActive: false, messageCount: 3 },
        ],
      },
    },
    { seq: 10, update: { type: "chat-full-sync", chat: { id: "c1", title: "First", createdAt: T0, isActive: true, messages } } },
    { seq: 10, update: { type: "agent-state", isWorking: false } },
  ]);
  if (!result.ok) throw new Error(describeViolation(result.violation));
  return deepFreeze(result.state);
}

/** Frozen inputs prove the reducer copies instead of writing: a write would throw in strict mode. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function apply(update: unknown, state = base(), seq = (state.lastSeq ?? 0) + 1): ChatState {
  const result = applyChatUpdate(state, update as ChatUpdate, seq);
  if (!result.ok) throw new Error(`unexpected violation: ${describeViolation(result.violation)}`);
  expect(result.state.lastSeq).toBe(seq);
  return result.state;
}

function broken(update: unknown, state = base(), seq = (state.lastSeq ?? 0) + 1) {
  const result = applyChatUpdate(state, update as ChatUpdate, seq);
  if (result.ok) throw new Error(`expected a violation for ${JSON.stringify(update)}`);
  return result.violation;
}

const chat = (s: ChatState, id: string) => s.chats.find((c) => c.id === id);
const ids = (s: ChatState) => s.messages.map((m) => m.id);

describe("chat-list", () => {
  it("replaces the list; the active chat is the item with isActive", () => {
    const s = apply({ type: "chat-list", chats: [{ id: "c3", title: "Third", createdAt: T0, isActive: true, messageCount: 0 }] });
    expect(s.chats).toEqual([{ id: "c3", title: "Third", createdAt: T0, isActive: true, messageCount: 0 }]);
    expect(s.activeChatId).toBe("c3");
    expect(s.messages).toEqual([]);
  });

  it("an empty list leaves no chat active", () => {
    const s = apply({ type: "chat-list", chats: [] });
    expect([s.chats, s.activeChatId, s.messages]).toEqual([[], null, []]);
  });

  it("two active items break r4's at most one active", () => {
    const v = broken({
      type: "chat-list",
      chats: [
        { id: "c1", title: "A", createdAt: T0, isActive: true, messageCount: 0 },
        { id: "c2", title: "B", createdAt: T0, isActive: true, messageCount: 0 },
      ],
    });
    expect(v).toMatchObject({ rule: "r7", clause: "chat-list.at-most-one-active", path: "/chats/1/isActive" });
  });

  it("a chat listed twice is a violation", () => {
    const item = { id: "c1", title: "A", createdAt: T0, isActive: false, messageCount: 0 };
    expect(broken({ type: "chat-list", chats: [item, item] })).toMatchObject({ clause: "chat-list.unique-ids", path: "/chats/1/id" });
  });
});

describe("chat-created", () => {
  const newChat = (isActive: boolean, messages: ChatMessage[] = []) => ({ type: "chat-created", chat: { id: "c3", title: "New chat", createdAt: T0, isActive, messages } });

  it("an inactive new chat is appended; the active chat stays", () => {
    const s = apply(newChat(false, [user("m1")]));
    expect(s.chats.map((c) => c.id)).toEqual(["c1", "c2", "c3"]);
    expect(chat(s, "c3")).toEqual({ id: "c3", title: "New chat", createdAt: T0, isActive: false, messageCount: 1 });
    expect(s.activeChatId).toBe("c1");
    expect(ids(s)).toEqual(["m1", "a1", "x1"]);
  });

  it("an active new chat becomes the active one with its messages, without chat-switched", () => {
    const s = apply(newChat(true, [user("m7")]));
    expect(s.activeChatId).toBe("c3");
    expect(s.chats.map((c) => c.isActive)).toEqual([false, false, true]);
    expect(ids(s)).toEqual(["m7"]);
    expect(s.pendingFullSync).toBeNull();
    // The next update may be anything: no full-sync is owed.
    expect(apply({ type: "agent-state", isWorking: true }, s).isWorking).toBe(true);
  });

  it("an existing id is a violation", () => {
    const v = broken({ ...newChat(true), chat: { ...newChat(true).chat, id: "c2" } });
    expect(v).toMatchObject({ rule: "r7", clause: "chat-created.new-id", path: "/chat/id" });
  });
});

describe("chat-deleted", () => {
  it("removes an inactive chat; the active one stays", () => {
    const s = apply({ type: "chat-deleted", chatId: "c2" });
    expect(s.chats.map((c) => c.id)).toEqual(["c1"]);
    expect([s.activeChatId, s.messages.length]).toEqual(["c1", 3]);
  });

  it("removing the active chat leaves none active", () => {
    const s = apply({ type: "chat-deleted", chatId: "c1" });
    expect([s.activeChatId, s.messages]).toEqual([null, []]);
  });

  it("an unknown chat is a violation", () => {
    expect(broken({ type: "chat-deleted", chatId: "nope" })).toMatchObject({ rule: "r7", clause: "chat-deleted.known-chat", path: "/chatId" });
  });
});

describe("chat-switched and the chat-full-sync that must follow", () => {
  const c2 = (messages: ChatMessage[] = [user("m5"), assistant("a5")], title = "Second") => ({
    type: "chat-full-sync",
    chat: { id: "c2", title, createdAt: T0, isActive: true, messages },
  });

  it("flips the flags, then the next seq's full sync brings the messages", () => {
    const switched = apply({ type: "chat-switched", chatId: "c2" }, base(), 11);
    expect(switched.chats.map((c) => c.isActive)).toEqual([false, true]);
    expect(switched.activeChatId).toBe("c2");
    expect(switched.pendingFullSync).toEqual({ chatId: "c2", afterSeq: 11 });
    const synced = apply(c2(), switched, 12);
    expect(ids(synced)).toEqual(["m5", "a5"]);
    expect(chat(synced, "c2")?.messageCount).toBe(2);
    expect(synced.pendingFullSync).toBeNull();
  });

  it("an unknown chat is a violation", () => {
    expect(broken({ type: "chat-switched", chatId: "nope" })).toMatchObject({ clause: "chat-switched.known-chat", path: "/chatId" });
  });

  it("any other update at the next seq is a violation", () => {
    const switched = apply({ type: "chat-switched", chatId: "c2" }, base(), 11);
    expect(broken({ type: "agent-state", isWorking: true }, switched, 12)).toMatchObject({ rule: "r7", clause: "chat-switched.full-sync-next", path: "/type" });
  });

  it("the full sync of another chat is a violation", () => {
    const switched = apply({ type: "chat-switched", chatId: "c2" }, base(), 11);
    const other = { type: "chat-full-sync", chat: { id: "c1", title: "First", createdAt: T0, isActive: true, messages: [] } };
    expect(broken(other, switched, 12)).toMatchObject({ clause: "chat-switched.full-sync-next", path: "/chat/id" });
  });

  it("the full sync at a later seq is a violation", () => {
    const switched = apply({ type: "chat-switched", chatId: "c2" }, base(), 11);
    expect(broken(c2(), switched, 13)).toMatchObject({ clause: "chat-switched.full-sync-next" });
  });
});

describe("chat-full-sync", () => {
  it("replaces the active chat's messages, title and count", () => {
    const s = apply({ type: "chat-full-sync", chat: { id: "c1", title: "Renamed", createdAt: T0, isActive: true, messages: [user("m1")] } });
    expect(ids(s)).toEqual(["m1"]);
    expect(chat(s, "c1")).toMatchObject({ title: "Renamed", messageCount: 1 });
  });

  it("a chat that is not the active one is a violation", () => {
    const v = broken({ type: "chat-full-sync", chat: { id: "c2", title: "Second", createdAt: T0, isActive: true, messages: [] } });
    expect(v).toMatchObject({ rule: "r7", clause: "chat-full-sync.active-only", path: "/chat/id" });
  });

  it("a full sync that calls the active chat inactive is a violation", () => {
    const v = broken({ type: "chat-full-sync", chat: { id: "c1", title: "First", createdAt: T0, isActive: false, messages: [] } });
    expect(v).toMatchObject({ clause: "chat-full-sync.active-only", path: "/chat/isActive" });
  });

  it("duplicate message ids are a violation (r10: ids unique per chat)", () => {
    const v = broken({ type: "chat-full-sync", chat: { id: "c1", title: "First", createdAt: T0, isActive: true, messages: [user("m1"), user("m1")] } });
    expect(v).toMatchObject({ rule: "r10", clause: "unique-message-ids", path: "/chat/messages/1/id" });
  });
});

describe("chat-title-updated and agent-state", () => {
  it("chat-title-updated sets the title of any chat", () => {
    expect(chat(apply({ type: "chat-title-updated", chatId: "c2", title: "Blue" }), "c2")?.title).toBe("Blue");
  });

  it("chat-title-updated of an unknown chat is a violation", () => {
    expect(broken({ type: "chat-title-updated", chatId: "nope", title: "x" })).toMatchObject({ clause: "chat-title-updated.known-chat" });
  });

  it("agent-state sets isWorking and its description", () => {
    const working = apply({ type: "agent-state", isWorking: true, description: "Editing" });
    expect([working.isWorking, working.workingDescription]).toEqual([true, "Editing"]);
    const idle = apply({ type: "agent-state", isWorking: false }, working);
    expect(idle.isWorking).toBe(false);
    expect("workingDescription" in idle).toBe(false);
  });

  it("agent-state without a boolean isWorking is a violation", () => {
    expect(broken({ type: "agent-state", isWorking: "yes" })).toMatchObject({ clause: "agent-state.is-working", path: "/isWorking" });
  });
});

describe("message-added", () => {
  it("in the active chat: count + 1 and appended", () => {
    const s = apply({ type: "message-added", chatId: "c1", message: assistant("a2") });
    expect(ids(s)).toEqual(["m1", "a1", "x1", "a2"]);
    expect(chat(s, "c1")?.messageCount).toBe(4);
  });

  it("in another chat: only the count", () => {
    const s = apply({ type: "message-added", chatId: "c2", message: user("m1") });
    expect(chat(s, "c2")?.messageCount).toBe(4);
    expect(ids(s)).toEqual(["m1", "a1", "x1"]);
  });

  it("an id the active chat already has is a violation", () => {
    expect(broken({ type: "message-added", chatId: "c1", message: user("a1") })).toMatchObject({ rule: "r7", clause: "message-added.new-id", path: "/message/id" });
  });

  it("an unknown chat is a violation", () => {
    expect(broken({ type: "message-added", chatId: "nope", message: user("m9") })).toMatchObject({ clause: "message-added.known-chat", path: "/chatId" });
  });
});

describe("message-updated", () => {
  const upd = (messageId: string, partIndex: number, updateType: string, content: unknown, chatId = "c1") => ({
    type: "message-updated",
    chatId,
    update: { messageId, partIndex, updateType, content },
  });
  const partsOf = (s: ChatState, id: string) => s.messages.find((m) => m.id === id)?.content;

  it("create at partIndex == length adds a part", () => {
    const s = apply(upd("a1", 4, "create", { type: "text", text: "Done." }));
    expect(partsOf(s, "a1")?.[4]).toEqual({ type: "text", text: "Done." });
  });

  it("create may add a tool-call", () => {
    const call = { type: "tool-call", toolCallId: "t2", toolName: "readFile", input: {}, runtime: "cli", requiresApproval: false };
    expect(partsOf(apply(upd("a1", 4, "create", call)), "a1")?.[4]).toEqual(call);
  });

  it("create below or beyond the length is a violation", () => {
    expect(broken(upd("a1", 3, "create", { type: "text", text: "x" }))).toMatchObject({ rule: "r7", clause: "message-updated.create-at-end", path: "/update/partIndex" });
    expect(broken(upd("a1", 5, "create", { type: "text", text: "x" }))).toMatchObject({ clause: "message-updated.create-at-end" });
  });

  it("append concatenates text onto text and reasoning onto reasoning", () => {
    const s = apply(upd("a1", 1, "append", { type: "reasoning", text: " more" }), apply(upd("a1", 0, "append", { type: "text", text: "lo" })));
    expect(partsOf(s, "a1")?.slice(0, 2)).toEqual([
      { type: "text", text: "Hello" },
      { type: "reasoning", text: "Think more" },
    ]);
  });

  it("append of another type, or onto a non-text part, is a violation", () => {
    expect(broken(upd("a1", 0, "append", { type: "reasoning", text: "x" }))).toMatchObject({ clause: "message-updated.append-same-text-type", path: "/update/content/type" });
    expect(broken(upd("a1", 3, "append", { type: "file", data: "data:,x", mimeType: "text/plain" }))).toMatchObject({ clause: "message-updated.append-same-text-type" });
  });

  it("replace touches exactly one index", () => {
    const s = apply(upd("a1", 3, "replace", { type: "text", text: "swapped" }));
    const before = partsOf(base(), "a1")!;
    expect(partsOf(s, "a1")).toEqual([...before.slice(0, 3), { type: "text", text: "swapped" }]);
  });

  it("replace or append at or beyond the length is a violation", () => {
    expect(broken(upd("a1", 4, "replace", { type: "text", text: "x" }))).toMatchObject({ clause: "message-updated.index-in-range", path: "/update/partIndex" });
    expect(broken(upd("a1", 4, "append", { type: "text", text: "x" }))).toMatchObject({ clause: "message-updated.index-in-range" });
  });

  it("tool-call parts are never replaced or appended, nor put in by replace", () => {
    expect(broken(upd("a1", 2, "replace", { type: "text", text: "x" }))).toMatchObject({ clause: "message-updated.tool-call-immutable", path: "/update/partIndex" });
    expect(broken(upd("a1", 2, "append", { type: "text", text: "x" }))).toMatchObject({ clause: "message-updated.tool-call-immutable" });
    const call = { type: "tool-call", toolCallId: "t2", toolName: "readFile", input: {}, runtime: "cli", requiresApproval: false };
    expect(broken(upd("a1", 0, "replace", call))).toMatchObject({ clause: "message-updated.tool-call-immutable", path: "/update/content/type" });
  });

  it("a tool message takes tool-result parts only", () => {
    const result = { type: "tool-result", toolCallId: "t9", toolName: "getStyles", output: "blue" };
    expect(partsOf(apply(upd("x1", 0, "replace", result)), "x1")).toEqual([result]);
    expect(broken(upd("x1", 1, "create", { type: "text", text: "x" }))).toMatchObject({ clause: "message-updated.part-for-role", path: "/update/content/type" });
  });

  it("a user message is immutable", () => {
    expect(broken(upd("m1", 1, "create", { type: "text", text: "x" }))).toMatchObject({ clause: "message-updated.assistant-or-tool", path: "/update/messageId" });
  });

  it("an unknown message is a violation", () => {
    expect(broken(upd("zz", 0, "create", { type: "text", text: "x" }))).toMatchObject({ clause: "message-updated.known-message", path: "/update/messageId" });
  });

  it("an edit in another chat is ignored; an unknown chat is a violation", () => {
    const s = apply(upd("whatever", 99, "append", { type: "text", text: "x" }, "c2"));
    expect(s.messages).toEqual(base().messages);
    expect(broken(upd("a1", 0, "append", { type: "text", text: "x" }, "nope"))).toMatchObject({ clause: "message-updated.known-chat", path: "/chatId" });
  });

  it("an unknown updateType is a violation", () => {
    expect(broken(upd("a1", 0, "delete", { type: "text", text: "x" }))).toMatchObject({ clause: "message-updated.update-type", path: "/update/updateType" });
  });
});

describe("messages-deleted", () => {
  it("removes fromMessageId and every later message in the active chat", () => {
    const s = apply({ type: "messages-deleted", chatId: "c1", fromMessageId: "a1", deletedCount: 2 });
    expect(ids(s)).toEqual(["m1"]);
    expect(chat(s, "c1")?.messageCount).toBe(1);
  });

  it("a deletedCount other than the number removed is a violation", () => {
    expect(broken({ type: "messages-deleted", chatId: "c1", fromMessageId: "a1", deletedCount: 3 })).toMatchObject({ rule: "r7", clause: "messages-deleted.deleted-count", path: "/deletedCount" });
  });

  it("an unknown message in the active chat is a violation", () => {
    expect(broken({ type: "messages-deleted", chatId: "c1", fromMessageId: "zz", deletedCount: 1 })).toMatchObject({ clause: "messages-deleted.known-message", path: "/fromMessageId" });
  });

  it("in another chat only the count drops, and never below zero", () => {
    expect(chat(apply({ type: "messages-deleted", chatId: "c2", fromMessageId: "q", deletedCount: 3 }), "c2")?.messageCount).toBe(0);
    expect(broken({ type: "messages-deleted", chatId: "c2", fromMessageId: "q", deletedCount: 4 })).toMatchObject({ clause: "messages-deleted.deleted-count" });
    expect(broken({ type: "messages-deleted", chatId: "nope", fromMessageId: "q", deletedCount: 1 })).toMatchObject({ clause: "messages-deleted.known-chat" });
  });
});

describe("anything else is an error, never a throw", () => {
  it.each([
    ["null", null],
    ["a number", 42],
    ["an array", []],
    ["no type", { chats: [] }],
    ["an unknown type", { type: "chat-updated", chatId: "c1" }],
    ["chat-list without chats", { type: "chat-list" }],
    ["chat-created without chat", { type: "chat-created" }],
    ["chat-full-sync with messages not an array", { type: "chat-full-sync", chat: { id: "c1", title: "t", createdAt: T0, isActive: true, messages: 3 } }],
    ["message-added without message", { type: "message-added", chatId: "c1" }],
    ["message-updated without update", { type: "message-updated", chatId: "c1" }],
    ["message-updated with a string content", { type: "message-updated", chatId: "c1", update: { messageId: "a1", partIndex: 0, updateType: "append", content: "x" } }],
    ["message-updated with partIndex -1", { type: "message-updated", chatId: "c1", update: { messageId: "a1", partIndex: -1, updateType: "replace", content: { type: "text", text: "x" } } }],
    ["append without text", { type: "message-updated", chatId: "c1", update: { messageId: "a1", partIndex: 0, updateType: "append", content: { type: "text" } } }],
    ["messages-deleted with deletedCount 0", { type: "messages-deleted", chatId: "c1", fromMessageId: "a1", deletedCount: 0 }],
  ])("%s", (_name, update) => {
    const v = broken(update);
    expect(v.rule).toMatch(/^r\d+$/);
    expect(v.clause).not.toBe("");
    expect(describeViolation(v)).toContain(v.clause);
  });

  it("the unknown type names r7's catch-all", () => {
    expect(broken({ type: "chat-updated" })).toMatchObject({ rule: "r7", clause: "unknown-type", path: "/type" });
  });

  it("a seq that is not a non-negative integer is an r6 violation", () => {
    expect(broken({ type: "agent-state", isWorking: true }, base(), -1)).toMatchObject({ rule: "r6", clause: "seq" });
  });
});

describe("copy-on-write", () => {
  it("the previous state is untouched and shares nothing writable with the update", () => {
    const before = base(); // deep-frozen: any write by the reducer would surface as a violation
    const json = JSON.stringify(before);
    const added = assistant("a2", [{ type: "text", text: "Hi" }]);
    const update = { type: "message-added", chatId: "c1", message: added };
    const after = apply(update, before);
    expect(JSON.stringify(before)).toBe(json);
    (added.content[0] as { text: string }).text = "mutated later";
    expect(after.messages.at(-1)?.content[0]).toEqual({ type: "text", text: "Hi" });
    for (const u of [
      { type: "message-updated", chatId: "c1", update: { messageId: "a1", partIndex: 0, updateType: "append", content: { type: "text", text: "lo" } } },
      { type: "messages-deleted", chatId: "c1", fromMessageId: "a1", deletedCount: 2 },
      { type: "chat-switched", chatId: "c2" },
      { type: "chat-deleted", chatId: "c1" },
      { type: "chat-title-updated", chatId: "c1", title: "x" },
    ]) {
      apply(u, before);
      expect(JSON.stringify(before)).toBe(json);
    }
  });
});

describe("r6 sequence verdicts", () => {
  it.each([
    [null, "0", "first"],
    [null, "42", "first"],
    [41, "42", "next"],
    [42, "42", "duplicate"],
    [42, "44", "gap"],
    [42, "3", "restart"],
    [42, "0", "restart"],
    [42, 43, "next"],
    [42, "07", "invalid"],
    [42, "x", "invalid"],
    [42, "-1", "invalid"],
    [42, "", "invalid"],
    [42, 1.5, "invalid"],
    [42, "99999999999999999999", "invalid"],
  ] as const)("last %s, id %j → %s", (last, id, verdict) => {
    expect(sequenceVerdict(last, id)).toBe(verdict);
  });

  it("parseEventId reads decimal ids without leading zeros", () => {
    expect([parseEventId("0"), parseEventId("120"), parseEventId("012"), parseEventId(null)]).toEqual([0, 120, null, null]);
  });

  it("reduceChatUpdates names the seq of the first violation", () => {
    const result = reduceChatUpdates(
      [
        { seq: 11, update: { type: "agent-state", isWorking: true } },
        { seq: 12, update: { type: "chat-deleted", chatId: "nope" } },
      ],
      base(),
    );
    expect(result).toMatchObject({ ok: false, seq: 12, violation: { clause: "chat-deleted.known-chat" } });
  });
});

describe("the valid ChatUpdate fixtures apply cleanly", () => {
  const dir = (name: string) => fileURLToPath(new URL(`../../fixtures/stagewise-chat/valid/${name}/`, import.meta.url));
  const read = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));
  /** c1 active and empty, no c2: for a new chat c2 and a first message m1. */
  const empty = (): ChatState => apply({ type: "chat-list", chats: [{ id: "c1", title: "New chat", createdAt: T0, isActive: true, messageCount: 0 }] }, initialChatState(), 0);
  /** c1 active with m1 and a1 (text first), c2 inactive. */
  const history = (): ChatState =>
    apply({ type: "chat-full-sync", chat: { id: "c1", title: "New chat", createdAt: T0, isActive: true, messages: [user("m1"), assistant("a1", [{ type: "text", text: "Hel" }])] } }, base(), 10);
  const onEmpty = new Set(["chat-created.json", "message-added-user.json"]);

  it.each(readdirSync(dir("chat-update")).sort())("chat-update/%s", (file) => {
    const state = onEmpty.has(file) ? empty() : history();
    apply(read(dir("chat-update") + file), state);
  });

  it.each(readdirSync(dir("chat-tracked-event")).sort())("chat-tracked-event/%s (data at its id)", (file) => {
    const event = read(dir("chat-tracked-event") + file) as { id: string; data: ChatUpdate };
    const seq = parseEventId(event.id)!;
    expect(sequenceVerdict(null, event.id)).toBe("first");
    apply(event.data, initialChatState(), seq);
  });

  it("the seed append extends a1's text", () => {
    const s = apply(read(dir("chat-update") + "seed-message-updated-append.json"), history());
    expect(s.messages[1]?.content[0]).toEqual({ type: "text", text: "Hello" });
  });
});
