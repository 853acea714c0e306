/**
 * Streamed text goes into the store's and the messaging mirror's state in place (chat-store.ts, side-channels.ts).
 * Whatever reads the state, and whenever: it equals what the normative reducers give for every update sent so far,
 * and a state once handed out never changes afterwards.
 */
import { describe, expect, it } from "vitest";
import { formatSchemaErrors, registry } from "../../src/core/schemas/schema-registry.js";
import type { AgentMessageUpdate, ChatMessage, ChatUpdate } from "../../src/generated/stagewise-chat.js";
import { ChatAgent, type Validate } from "../../src/stagewise/adapter/chat-agent.js";
import type { SeqEvent } from "../../src/stagewise/adapter/chat-store.js";
import { MessagingMirror } from "../../src/stagewise/adapter/side-channels.js";
import { reduceChatUpdates, type ChatState } from "../../src/stagewise/chat-state.js";
import { applyMessageUpdate, type MessagingState } from "../../src/stagewise/messaging-state.js";
import { describeViolation } from "../../src/stagewise/reduced.js";
import { METADATA } from "./adapter-client.js";

const validate: Validate = (schema, value) => {
  const r = registry.validate("stagewise-chat", schema, value);
  return r.ok ? null : formatSchemaErrors(r.errors);
};

const T0 = "2025-08-08T10:00:00.000Z";

function setup() {
  let n = 0;
  const agent = new ChatAgent({
    defaultChatTitle: "New chat",
    coalesceMs: 0,
    idGenerator: (kind) => `${kind}-${++n}`,
    initialChats: [
      { id: "c1", title: "One", createdAt: T0, isActive: true, messages: [{ id: "u0", role: "user", createdAt: T0, content: [{ type: "text", text: "hi" }], metadata: METADATA }] },
      { id: "c2", title: "Two", createdAt: T0, isActive: false, messages: [] },
    ],
    hooks: {},
    validate,
  });
  const start = structuredClone(agent.state());
  const events: SeqEvent[] = [];
  agent.store.subscribe((e) => events.push(structuredClone(e)));
  const mirror = new MessagingMirror(agent.store, () => `mm-${++n}`);
  const mirrored: AgentMessageUpdate[] = [mirror.snapshot()];
  mirror.subscribe((u) => mirrored.push(structuredClone(u)));
  // One nobody follows: it makes its updates only when asked for the last one.
  const quiet = new MessagingMirror(agent.store, () => `mq-${++n}`);
  /** The reducer's state after every update sent so far. */
  const reduced = (): ChatState => {
    const r = reduceChatUpdates(events, start);
    if (!r.ok) throw new Error(describeViolation(r.violation));
    return r.state;
  };
  /** The messaging reducer's message after every update sent so far. */
  const followed = (): MessagingState => {
    let state: MessagingState = null;
    for (const u of mirrored) {
      const r = applyMessageUpdate(state, u);
      if (!r.ok) throw new Error(describeViolation(r.violation));
      state = r.state;
    }
    return state;
  };
  return { agent, mirror, quiet, mirrored, reduced, followed };
}

/** The state a toolbar holds after taking a snapshot. */
function fromSnapshot(events: SeqEvent[]): ChatState {
  const r = reduceChatUpdates(events);
  if (!r.ok) throw new Error(describeViolation(r.violation));
  return r.state;
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("text appends applied in place", () => {
  it("a snapshot mid-stream, and the state read after, equal the reducer's; a state read earlier stays as it was", () => {
    const { agent, reduced } = setup();
    const m = agent.addMessage({ role: "assistant", content: [] });
    agent.streamPart(m, 0, "Hel");
    const before = agent.state();
    const kept = structuredClone(before);
    for (const d of ["lo", ", ", "wor"]) agent.streamPart(m, 0, d);
    // A snapshot leaves the run open: it copies what it sends.
    const snapshot = agent.store.snapshot();
    expect(fromSnapshot(snapshot).messages).toEqual(reduced().messages);
    expect(snapshot.at(-1)!.seq).toBe(reduced().lastSeq);
    agent.streamPart(m, 0, "ld");
    expect(fromSnapshot(snapshot).messages.at(-1)!.content).toEqual([{ type: "text", text: "Hello, wor" }]);
    const after = agent.state();
    expect(after).toEqual(reduced());
    expect(after.messages.at(-1)!.content).toEqual([{ type: "text", text: "Hello, world" }]);
    expect(before).toEqual(kept);
    // After a read the next append makes new objects again: the state read is not changed by it.
    const read = structuredClone(after);
    agent.streamPart(m, 0, "!");
    expect(after).toEqual(read);
    expect(agent.state()).toEqual(reduced());
  });

  it("an append the reducer refuses still throws and changes nothing, also in the middle of a run", () => {
    const { agent, reduced } = setup();
    const m = agent.addMessage({ role: "assistant", content: [{ type: "text", text: "a" }] });
    agent.streamPart(m, 0, "b");
    const seq = agent.seq;
    // A reasoning delta onto the text part: the store's own reducer check refuses it (the agent's check is bypassed).
    expect(() => agent.store.emit({ type: "message-updated", chatId: "c1", update: { messageId: m, partIndex: 0, updateType: "append", content: { type: "reasoning", text: "x" } } })).toThrow(
      /append-same-text-type/,
    );
    expect(() => agent.store.emit({ type: "message-updated", chatId: "c1", update: { messageId: m, partIndex: 1, updateType: "append", content: { type: "text", text: "x" } } })).toThrow(
      /index-in-range/,
    );
    expect(agent.seq).toBe(seq);
    agent.streamPart(m, 0, "c");
    expect(agent.state()).toEqual(reduced());
    expect(agent.messages().at(-1)!.content).toEqual([{ type: "text", text: "abc" }]);
  });

  it("an update the caller keeps is copied: changing it afterwards changes neither the state nor what was sent", () => {
    const { agent, reduced } = setup();
    const m = agent.addMessage({ role: "assistant", content: [{ type: "text", text: "a" }] });
    agent.streamPart(m, 0, "b");
    const update = { type: "message-updated", chatId: "c1", update: { messageId: m, partIndex: 0, updateType: "append", content: { type: "text", text: "c" } } } as ChatUpdate;
    const heard: SeqEvent[] = [];
    const stop = agent.store.subscribe((e) => heard.push(e));
    agent.emit(update);
    stop();
    (update as { update: { content: { text: string } } }).update.content.text = "changed";
    agent.streamPart(m, 0, "d");
    expect(heard[0]!.update).not.toBe(update);
    expect(heard[0]!.update).toMatchObject({ update: { content: { text: "c" } } });
    expect(agent.state()).toEqual(reduced());
    expect(agent.messages().at(-1)!.content).toEqual([{ type: "text", text: "abcd" }]);
  });

  it("any mix of updates, reads and snapshots: the store and the messaging mirror agree with their reducers throughout", () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const next = random(seed);
      const { agent, mirror, quiet, mirrored, reduced, followed } = setup();
      const handedOut: [ChatState, ChatState][] = [];
      const mirrorCopies: [MessagingState, MessagingState][] = [];
      const readMessages: [readonly ChatMessage[], readonly ChatMessage[]][] = [];
      let message = agent.addMessage({ role: "assistant", content: [] });
      let parts: ("text" | "reasoning" | "tool-call")[] = [];
      let calls = 0;
      // A message of the inactive chat, streamed into between the active chat's deltas.
      const elsewhere = agent.addMessage({ role: "assistant", content: [{ type: "text", text: "x" }] }, { chatId: "c2" });
      for (let step = 0; step < 400; step++) {
        const r = next();
        const streamable = parts.flatMap((t, i) => (t === "tool-call" ? [] : [i]));
        if (r < 0.55 && streamable.length > 0) {
          const index = streamable[Math.floor(next() * streamable.length)]!;
          agent.streamPart(message, index, { type: parts[index] as "text" | "reasoning", text: `d${step}` });
        } else if (r < 0.63) {
          const type = next() < 0.7 ? "text" : "reasoning";
          agent.streamPart(message, parts.length, { type, text: `p${step}` });
          parts.push(type);
        } else if (r < 0.66) {
          agent.addToolCall(message, { toolCallId: `call-x${++calls}`, toolName: "readFile", input: { path: "a" }, runtime: "backend" });
          parts.push("tool-call");
        } else if (r < 0.69 && streamable.length > 0) {
          const index = streamable[0]!;
          agent.setPart(message, index, { type: parts[index] as "text" | "reasoning", text: `r${step}` });
        } else if (r < 0.72) {
          message = agent.addMessage({ role: "assistant", content: [] });
          parts = [];
        } else if (r < 0.735) {
          agent.updateChatTitle("c1", `T${step}`);
        } else if (r < 0.75) {
          agent.streamPart(elsewhere, 0, `e${step}`);
        } else if (r < 0.78) {
          agent.setWorking(!agent.isWorking);
        } else if (r < 0.84) {
          const s = agent.state();
          handedOut.push([s, structuredClone(s)]);
          expect(s).toEqual(reduced());
        } else if (r < 0.86) {
          const messages = agent.messages("c1");
          readMessages.push([messages, structuredClone(messages)]);
          expect(messages).toEqual(reduced().messages);
        } else if (r < 0.88) {
          const found = agent.store.findMessage(message)!.message;
          readMessages.push([[found], [structuredClone(found)]]);
          expect(found).toEqual(reduced().messages.at(-1));
        } else if (r < 0.94) {
          // Uncopied, for a writer that serializes it at once: the same values.
          expect(agent.store.snapshot(false)).toEqual(agent.store.snapshot());
          const snapshot = fromSnapshot(agent.store.snapshot());
          const want = reduced();
          expect(snapshot.messages).toEqual(want.messages);
          expect(snapshot.isWorking).toBe(want.isWorking);
        } else {
          const got = mirror.get();
          mirrorCopies.push([got, structuredClone(got)]);
          expect(got).toEqual(followed());
          expect(quiet.get()).toEqual(got);
          const last = mirrored.filter((u) => !u.resync).at(-1) ?? null;
          expect(mirror.lastDelta).toEqual(last);
          expect(quiet.lastDelta).toEqual(last);
          expect(mirror.snapshot().updateParts.map((p) => p.part)).toEqual(followed()!.parts);
        }
      }
      expect(agent.state()).toEqual(reduced());
      expect(agent.messages("c2")[0]!.content[0]).toMatchObject({ type: "text", text: expect.stringMatching(/^xe/) });
      expect(mirror.get()).toEqual(followed());
      for (const [state, copy] of handedOut) expect(state).toEqual(copy);
      for (const [state, copy] of mirrorCopies) expect(state).toEqual(copy);
      for (const [messages, copy] of readMessages) expect(messages).toEqual(copy);
    }
  });
});

describe("a new subscriber mid-stream", () => {
  it("its snapshot continues exactly as the updates sent after it", () => {
    const { agent } = setup();
    const m = agent.addMessage({ role: "assistant", content: [] });
    agent.streamPart(m, 0, "one ");
    agent.streamPart(m, 0, "two ");
    const snapshot = agent.store.snapshot();
    const later: SeqEvent[] = [];
    agent.store.subscribe((e) => later.push(e));
    agent.streamPart(m, 0, "three");
    const r = reduceChatUpdates(later, fromSnapshot(snapshot));
    if (!r.ok) throw new Error(describeViolation(r.violation));
    expect(r.state).toEqual(agent.state());
    expect(r.state.messages.at(-1)!.content).toEqual([{ type: "text", text: "one two three" }]);
  });
});
