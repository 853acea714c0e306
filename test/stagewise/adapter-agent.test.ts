/** The adapter's agent core without sockets: stop's grace period, coalescing order, rejections leave no trace. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatSchemaErrors, registry } from "../../src/core/schemas/schema-registry.js";
import { ChatAgent, STOP_GRACE_MS, type Validate } from "../../src/stagewise/adapter/chat-agent.js";
import * as procedures from "../../src/stagewise/adapter/chat-procedures.js";
import type { SeqEvent } from "../../src/stagewise/adapter/chat-store.js";
import { Rejection } from "../../src/stagewise/adapter/rejection.js";
import { MessagingMirror } from "../../src/stagewise/adapter/side-channels.js";
import { applyMessageUpdate, type MessagingState } from "../../src/stagewise/messaging-state.js";
import type { AgentMessageUpdate, Chat } from "../../src/generated/stagewise-chat.js";
import type { AgentHooks } from "../../src/stagewise/adapter/types.js";
import { METADATA } from "./adapter-client.js";

const validate: Validate = (schema, value) => {
  const r = registry.validate("stagewise-chat", schema, value);
  return r.ok ? null : formatSchemaErrors(r.errors);
};

function makeAgent(hooks: AgentHooks = {}, coalesceMs = 0) {
  let n = 0;
  const agent = new ChatAgent({
    defaultChatTitle: "New chat",
    coalesceMs,
    idGenerator: (kind) => `${kind}-${++n}`,
    initialChats: [{ id: "c1", title: "One", createdAt: "2025-08-08T10:00:00.000Z", isActive: true, messages: [] }],
    hooks,
    validate,
  });
  const events: SeqEvent[] = [];
  agent.store.subscribe((e) => events.push(e));
  return { agent, events };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("stagewise adapter core", () => {
  it("initial chats: the given ones are validated; the default chat is not (so the chat schema waits for first use)", () => {
    const asked: string[] = [];
    const counting: Validate = (schema, value) => {
      asked.push(schema);
      return validate(schema, value);
    };
    const agent = new ChatAgent({ defaultChatTitle: "Fresh", coalesceMs: 0, idGenerator: (kind) => `${kind}-1`, hooks: {}, validate: counting });
    expect(asked).toEqual([]);
    expect(agent.store.state.chats).toMatchObject([{ id: "chat-1", title: "Fresh", isActive: true, messageCount: 0 }]);
    const bad = { id: "c1", title: 5, createdAt: "2025-08-08T10:00:00.000Z", isActive: true, messages: [] } as unknown as Chat;
    expect(() => new ChatAgent({ defaultChatTitle: "x", coalesceMs: 0, idGenerator: (k) => k, initialChats: [bad], hooks: {}, validate: counting })).toThrow(
      /initialChats\[0\] is not a chat/,
    );
    expect(asked).toEqual(["chat"]);
  });

  it("stop: a turn that ignores its signal is declared idle after the grace period", async () => {
    vi.useFakeTimers();
    let stopped = 0;
    const { agent } = makeAgent({ onUserMessage: () => new Promise<void>(() => {}), onStop: () => void stopped++ });
    procedures.sendMessage(agent, { chatId: "c1", content: [{ type: "text", text: "hi" }], metadata: METADATA });
    await vi.advanceTimersByTimeAsync(10);
    expect(agent.isWorking).toBe(true);
    procedures.stop(agent);
    expect(stopped).toBe(1);
    await vi.advanceTimersByTimeAsync(STOP_GRACE_MS - 100);
    expect(agent.isWorking).toBe(true);
    await vi.advanceTimersByTimeAsync(200);
    expect(agent.isWorking).toBe(false);
  });

  it("coalesced text is sent before any other change, and only once", () => {
    vi.useFakeTimers();
    const { agent, events } = makeAgent({}, 1_000);
    const m = agent.addMessage({ role: "assistant", content: [{ type: "text", text: "a" }] });
    agent.streamPart(m, 0, "b");
    agent.streamPart(m, 0, "c");
    expect(events).toHaveLength(1);
    agent.updateChatTitle("c1", "Two");
    expect(events.map((e) => e.update.type)).toEqual(["message-added", "message-updated", "chat-title-updated"]);
    expect(events[1]!.update).toMatchObject({ update: { updateType: "append", content: { text: "bc" } } });
    agent.streamPart(m, 0, "d");
    vi.advanceTimersByTime(1_000);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(agent.messages()[0]!.content).toEqual([{ type: "text", text: "abcd" }]);
  });

  it("a snapshot taken while text is held includes it (subscribers flush first)", () => {
    const { agent } = makeAgent({}, 60_000);
    const m = agent.addMessage({ role: "assistant", content: [{ type: "text", text: "a" }] });
    agent.streamPart(m, 0, "b");
    agent.flush();
    const snapshot = agent.store.snapshot();
    expect(snapshot[1]!.update).toMatchObject({ chat: { messages: [{ content: [{ text: "ab" }] }] } });
    expect(snapshot.every((e) => e.seq === 2)).toBe(true);
  });

  it("a hook that refuses leaves no update; other chats' messages are kept through a switch", async () => {
    const { agent, events } = makeAgent({ onSwitchChat: () => false });
    const m = agent.addMessage({ role: "assistant", content: [{ type: "text", text: "kept" }] });
    const other = agent.createChat({ title: "Other" });
    const before = events.length;
    await expect(procedures.switchChat(agent, { chatId: "c1" })).rejects.toEqual(new Rejection("rejected-by-agent", "rejected by the agent"));
    expect(events.length).toBe(before);
    agent.switchChat("c1");
    expect(events.slice(before).map((e) => e.update.type)).toEqual(["chat-switched", "chat-full-sync"]);
    expect(agent.messages().map((x) => x.id)).toEqual([m]);
    expect(agent.messages(other)).toEqual([]);
  });
});

describe("stagewise adapter messaging mirror", () => {
  it("mirrors the latest assistant reply's text parts; a follower equals the current message", () => {
    const { agent } = makeAgent();
    let n = 0;
    const mirror = new MessagingMirror(agent.store, () => `m-${++n}`);
    const updates: AgentMessageUpdate[] = [mirror.snapshot()];
    mirror.subscribe((u) => updates.push(u));
    const m = agent.addMessage({ role: "assistant", content: [{ type: "reasoning", text: "hmm" }] });
    agent.streamPart(m, 1, "Hel");
    agent.streamPart(m, 1, "lo");
    agent.setPart(m, 1, { type: "text", text: "Bye" });
    agent.streamPart(m, 2, "!");
    let followed: MessagingState = null;
    for (const u of updates) {
      const r = applyMessageUpdate(followed, u);
      if (!r.ok) throw new Error(JSON.stringify(r.violation));
      followed = r.state;
    }
    expect(followed).toEqual(mirror.get());
    expect(mirror.get()).toMatchObject({ messageId: m, parts: [{ type: "text", text: "Bye" }, { type: "text", text: "!" }] });
    // The replace went out as a whole message (text cannot be replaced incrementally).
    expect(updates.filter((u) => u.resync).map((u) => u.updateParts.length)).toEqual([0, 0, 1]);
  });
});
