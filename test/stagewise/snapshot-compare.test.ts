/**
 * r8: the state reduced from a snapshot plus deltas equals a fresh snapshot's, by the fields r8 lists; each field
 * that differs is reported with its path. The property test drives a model agent through random valid changes and
 * compares at every step.
 */
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/generated/stagewise-chat.js";
import { applyChatUpdate, reduceChatUpdates, sequenceVerdict, type ChatState } from "../../src/stagewise/chat-state.js";
import { firstJsonDifference } from "../../src/stagewise/json-diff.js";
import { describeViolation } from "../../src/stagewise/reduced.js";
import { compareChatStates } from "../../src/stagewise/snapshot-compare.js";
import { ModelAgent, random, type Event } from "./model-agent.js";

const T0 = "2025-08-08T10:00:00.000Z";

function state(overrides: Partial<ChatState> = {}): ChatState {
  const messages: ChatMessage[] = [
    { id: "a1", role: "assistant", createdAt: T0, content: [{ type: "text", text: "Hello" }] },
    { id: "x1", role: "tool", createdAt: T0, content: [{ type: "tool-result", toolCallId: "t1", toolName: "getStyles", output: { color: "red" } }] },
  ];
  return {
    chats: [
      { id: "c1", title: "First", createdAt: T0, isActive: true, messageCount: 2 },
      { id: "c/2", title: "Second", createdAt: T0, isActive: false, messageCount: 0 },
    ],
    activeChatId: "c1",
    messages,
    isWorking: false,
    lastSeq: 5,
    pendingFullSync: null,
    ...overrides,
  };
}

const withChat = (id: string, patch: object): Partial<ChatState> => ({ chats: state().chats.map((c) => (c.id === id ? { ...c, ...patch } : c)) });

describe("compareChatStates", () => {
  it("equal states have no difference, whatever the chat order, seq or description", () => {
    expect(compareChatStates(state(), state())).toBeNull();
    expect(compareChatStates(state({ chats: [...state().chats].reverse(), lastSeq: 9, workingDescription: "x" }), state())).toBeNull();
  });

  it("createdAt compares in milliseconds", () => {
    expect(compareChatStates(state(withChat("c1", { createdAt: "2025-08-08T10:00:00Z" })), state())).toBeNull();
  });

  it.each([
    ["title", withChat("c1", { title: "Other" }), "/chats/c1/title"],
    ["createdAt", withChat("c1", { createdAt: "2025-08-08T10:00:00.001Z" }), "/chats/c1/createdAt"],
    ["isActive", withChat("c/2", { isActive: true }), "/chats/c~12/isActive"],
    ["messageCount", withChat("c1", { messageCount: 3 }), "/chats/c1/messageCount"],
    ["a missing chat", { chats: state().chats.slice(0, 1) }, "/chats/c~12"],
    ["an extra chat", { chats: [...state().chats, { id: "c3", title: "x", createdAt: T0, isActive: false, messageCount: 0 }] }, "/chats/c3"],
    ["the active id", { activeChatId: null }, "/activeChatId"],
    ["a message's text", { messages: [{ ...state().messages[0]!, content: [{ type: "text", text: "Hell" }] }, state().messages[1]!] }, "/messages/0/content/0/text"],
    ["a tool output deep inside", { messages: [state().messages[0]!, { ...state().messages[1]!, content: [{ type: "tool-result", toolCallId: "t1", toolName: "getStyles", output: { color: "blue" } }] }] as ChatMessage[] }, "/messages/1/content/0/output/color"],
    ["message order", { messages: [...state().messages].reverse() }, "/messages/0/id"],
    ["a missing message", { messages: state().messages.slice(0, 1) }, "/messages/1"],
    ["isWorking", { isWorking: true }, "/isWorking"],
  ] as const)("%s differs → %s", (_name, overrides, path) => {
    const diff = compareChatStates(state(overrides as Partial<ChatState>), state());
    expect(diff?.path).toBe(path);
    expect(diff?.message.startsWith(path)).toBe(true);
    // The comparison is symmetric in what it finds.
    expect(compareChatStates(state(), state(overrides as Partial<ChatState>))?.path).toBe(path);
  });
});

describe("firstJsonDifference", () => {
  it("treats a key holding undefined as absent and ignores key order", () => {
    expect(firstJsonDifference({ a: 1, b: undefined }, { a: 1 })).toBeUndefined();
    expect(firstJsonDifference({ a: 1, b: 2 }, { b: 2, a: 1 })).toBeUndefined();
  });

  it("reports arrays against objects and extra keys at their path", () => {
    expect(firstJsonDifference({ a: [] }, { a: {} })?.path).toBe("/a");
    expect(firstJsonDifference({ a: 1, "x~y": 2 }, { a: 1 })).toEqual({ path: "/x~0y", actual: 2, expected: undefined });
  });
});

/** Reduces one subscription's frames from scratch: what a freshly loaded toolbar holds. */
function reduceAll(events: Event[], from?: ChatState): ChatState {
  const result = reduceChatUpdates(events, from);
  if (!result.ok) throw new Error(`seq ${result.seq}: ${describeViolation(result.violation)}`);
  return result.state;
}

type Apply = typeof applyChatUpdate;

/** Runs one seed: the first violation or r8 difference, as text, or undefined when the reduced view kept up. */
function runProperty(seed: number, apply: Apply = applyChatUpdate): string | undefined {
  const agent = new ModelAgent(seed);
  const rnd = random(seed * 7919);
  // A random history before the toolbar subscribes.
  const warmup = Math.floor(rnd() * 30);
  for (let i = 0; i < warmup; i++) agent.step();
  let reduced = reduceAll(agent.snapshot());
  let last = reduced.lastSeq;
  for (let step = 0; step < 80; step++) {
    for (const event of agent.step()) {
      const verdict = sequenceVerdict(last, String(event.seq));
      if (verdict !== "next") return `seq ${event.seq}: ${verdict}`;
      const result = apply(reduced, event.update, event.seq);
      if (!result.ok) return `seq ${event.seq}: ${describeViolation(result.violation)}`;
      reduced = result.state;
      last = event.seq;
    }
    // Between changes (never inside a switch + full sync) the reduced view must equal a fresh subscriber's.
    const fresh = reduceAll(agent.snapshot());
    const diff = compareChatStates(reduced, fresh);
    if (diff) return `after seq ${agent.seq}: ${diff.message}`;
    if (fresh.lastSeq !== reduced.lastSeq) return `snapshot head ${fresh.lastSeq}, reduced ${reduced.lastSeq}`;
  }
  return undefined;
}

const SEEDS = Array.from({ length: 40 }, (_, i) => i + 1);

describe("r8 property: snapshot + random valid deltas = a fresh snapshot", () => {
  it.each(SEEDS)("seed %i", (seed) => {
    expect(runProperty(seed)).toBeUndefined();
  });

  // The property has teeth: reducers that get one clause subtly wrong fail it.
  const unchanged = (state: ChatState, seq: number) => ({ ok: true as const, state: { ...state, lastSeq: seq } });
  it.each<[string, Apply]>([
    ["append treated as replace", (s, u, seq) => applyChatUpdate(s, u.type === "message-updated" && u.update.updateType === "append" ? { ...u, update: { ...u.update, updateType: "replace" } } : u, seq)],
    ["messages in other chats not counted", (s, u, seq) => (u.type === "message-added" && u.chatId !== s.activeChatId ? unchanged(s, seq) : applyChatUpdate(s, u, seq))],
    ["agent-state ignored", (s, u, seq) => (u.type === "agent-state" ? unchanged(s, seq) : applyChatUpdate(s, u, seq))],
    ["messages-deleted ignored", (s, u, seq) => (u.type === "messages-deleted" ? unchanged(s, seq) : applyChatUpdate(s, u, seq))],
  ])("a reducer with %s fails it", (_name, faulty) => {
    expect(SEEDS.some((seed) => runProperty(seed, faulty) !== undefined)).toBe(true);
  });
});
