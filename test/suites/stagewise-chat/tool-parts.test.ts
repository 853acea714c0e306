/**
 * The tool rules' index of tool parts answers as a look through the whole chat would, through tool calls, results and
 * approvals added, results replaced, messages deleted and added again under the same ids, and full syncs that
 * replace the chat; also when asked about a state older than the last one it read.
 */
import { describe, expect, it } from "vitest";
import type { ChatMessage, ChatUpdate } from "../../../src/generated/stagewise-chat.js";
import { ToolParts } from "../../../src/suites/stagewise-chat/checks/tool-parts.js";
import { applyChatUpdate, initialChatState, type ChatState } from "../../../src/stagewise/chat-state.js";
import { describeViolation } from "../../../src/stagewise/reduced.js";

const DATE = "2025-08-08T10:00:00.000Z";
const TYPES = ["tool-call", "tool-result", "tool-approval"] as const;

function random(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

/** The parts of `type` for `id`, in the chat's order, as the rules once found them. */
const scan = (s: ChatState, type: string, id: string) =>
  s.messages.flatMap((message, i) =>
    (message.content as { type: string; toolCallId?: string }[]).flatMap((part, j) => (part.type === type && part.toolCallId === id ? [{ part, message, at: [i, j] }] : [])),
  );

describe("ToolParts", () => {
  it.each([21, 22, 23])("random chats, seed %i: the same parts, in the same order, as a look through the chat", (seed) => {
    const rnd = random(seed);
    let seq = 0;
    let s = initialChatState();
    const apply = (u: unknown) => {
      const r = applyChatUpdate(s, u as ChatUpdate, seq++);
      if (!r.ok) throw new Error(describeViolation(r.violation));
      s = r.state;
    };
    const call = (k: number) => ({ type: "tool-call", toolCallId: `t${k}`, toolName: "x", input: {}, runtime: "backend", requiresApproval: false });
    const result = (k: number) => ({ type: "tool-result", toolCallId: `t${k}`, toolName: "x", output: k });
    const message = (id: string): ChatMessage =>
      rnd(3) === 0
        ? ({ id, role: "user", createdAt: DATE, content: [{ type: "tool-approval", toolCallId: `t${rnd(12)}`, approved: true }], metadata: {} } as unknown as ChatMessage)
        : ({ id, role: "assistant", createdAt: DATE, content: rnd(2) ? [call(rnd(12))] : [] } as unknown as ChatMessage);
    apply({ type: "chat-list", chats: [{ id: "c1", title: "t", createdAt: DATE, isActive: true, messageCount: 0 }] });
    apply({ type: "chat-full-sync", chat: { id: "c1", title: "t", createdAt: DATE, isActive: true, messages: [] } });
    const tools = new ToolParts();
    const states: ChatState[] = [];
    for (let step = 0; step < 1_500; step++) {
      const ids = s.messages.map((m) => m.id);
      const assistants = s.messages.filter((m) => m.role === "assistant");
      const op = rnd(10);
      if (op < 4 || !assistants.length) {
        // Ids from a small pool: a deleted message's id comes back.
        const id = `m${rnd(60)}`;
        if (!ids.includes(id)) apply({ type: "message-added", chatId: "c1", message: message(id) });
      } else if (op < 7) {
        const m = assistants[rnd(assistants.length)]!;
        apply({ type: "message-updated", chatId: "c1", update: { messageId: m.id, partIndex: m.content.length, updateType: "create", content: rnd(2) ? result(rnd(12)) : call(rnd(12)) } });
      } else if (op < 8) {
        const m = assistants[rnd(assistants.length)]!;
        const at = m.content.findIndex((p) => p.type === "tool-result");
        if (at >= 0) apply({ type: "message-updated", chatId: "c1", update: { messageId: m.id, partIndex: at, updateType: "replace", content: rnd(2) ? result(rnd(12)) : { type: "text", text: "gone" } } });
      } else if (op < 9 && ids.length) {
        const from = rnd(ids.length);
        apply({ type: "messages-deleted", chatId: "c1", fromMessageId: ids[from], deletedCount: ids.length - from });
      } else if (rnd(4) === 0) {
        apply({ type: "chat-full-sync", chat: { id: "c1", title: "t", createdAt: DATE, isActive: true, messages: [message("f1"), message("f2")] } });
      }
      states.push(s);
      // Mostly the newest state, now and then an older one.
      const asked = rnd(8) === 0 ? states[rnd(states.length)]! : s;
      for (const type of TYPES) {
        for (let k = 0; k < 12; k++) expect(tools.find(asked, type, `t${k}`)).toEqual(scan(asked, type, `t${k}`));
      }
    }
  });
});
