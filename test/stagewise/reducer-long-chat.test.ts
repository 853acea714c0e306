/**
 * A long chat through the chat reducer: an update costs the same at the end of a long chat as at its start (the time
 * grows with the number of updates, not with its square), and every state a caller keeps on the way stays as it was.
 */
import { describe, expect, it } from "vitest";
import type { ChatUpdate } from "../../src/generated/stagewise-chat.js";
import { applyChatUpdate, forEachChangedMessage, initialChatState, messageById, messageCount, type ChatState } from "../../src/stagewise/chat-state.js";
import { describeViolation } from "../../src/stagewise/reduced.js";

const T0 = "2025-08-08T10:00:00.000Z";

function apply(state: ChatState, update: ChatUpdate, seq: number): ChatState {
  const r = applyChatUpdate(state, update, seq);
  if (!r.ok) throw new Error(`seq ${seq}: ${describeViolation(r.violation)}`);
  return r.state;
}

/** A chat of `updates` updates: for each reply, its message-added, then a message-updated that creates its text. */
function longChat(updates: number, keep: (state: ChatState, seq: number) => void = () => {}): { ms: number; state: ChatState } {
  let s = apply(initialChatState(), { type: "chat-list", chats: [{ id: "c1", title: "Long", createdAt: T0, isActive: true, messageCount: 0 }] }, 0);
  s = apply(s, { type: "chat-full-sync", chat: { id: "c1", title: "Long", createdAt: T0, isActive: true, messages: [] } }, 0);
  const started = performance.now();
  for (let seq = 1; seq <= updates; seq++) {
    const id = `a${(seq - 1) >> 1}`;
    s =
      seq % 2 === 1
        ? apply(s, { type: "message-added", chatId: "c1", message: { id, role: "assistant", createdAt: T0, content: [] } }, seq)
        : apply(s, { type: "message-updated", chatId: "c1", update: { messageId: id, partIndex: 0, updateType: "create", content: { type: "text", text: `reply ${id}` } } }, seq);
    keep(s, seq);
  }
  return { ms: performance.now() - started, state: s };
}

describe("the chat reducer on a long chat", () => {
  it("100,000 message-added and message-updated take time in proportion to their number", () => {
    longChat(5_000); // warm-up: the JIT, then two runs measured in the same test
    const small = longChat(10_000);
    const big = longChat(100_000);
    expect(messageCount(big.state)).toBe(50_000);
    expect(messageById(big.state, "a49999")?.content).toEqual([{ type: "text", text: "reply a49999" }]);
    // Ten times the updates: about ten times the time when an update costs the same whatever the chat's length; a
    // copy of the chat per update makes it about a hundred.
    expect(big.ms / small.ms, `10,000 updates: ${small.ms.toFixed(0)} ms, 100,000: ${big.ms.toFixed(0)} ms`).toBeLessThan(30);
  });

  it("every state kept on the way holds the chat as it was then", () => {
    const kept: { seq: number; state: ChatState }[] = [];
    const { state: last } = longChat(20_000, (state, seq) => {
      if (seq % 997 === 0) kept.push({ seq, state });
    });
    for (const { seq, state } of kept) {
      const replies = (seq + 1) >> 1;
      expect(messageCount(state)).toBe(replies);
      expect(state.messages.length).toBe(replies);
      // The last reply is created at the even seq after its message-added.
      const lastReply = state.messages[replies - 1]!;
      expect(lastReply.content.length).toBe(seq % 2 === 0 ? 1 : 0);
      // What changed since: the messages the later updates added and the one they completed, in order.
      const changed: number[] = [];
      forEachChangedMessage(state, last, (_m, i) => changed.push(i));
      expect(changed).toEqual(Array.from({ length: 10_000 - replies + (seq % 2) }, (_, k) => replies - (seq % 2) + k));
    }
  });
});
