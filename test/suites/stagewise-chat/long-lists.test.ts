/**
 * A snapshot, a chat list or a mutation's window can hold thousands of frames or chats: the messages name the first
 * few and count the rest.
 */
import { describe, expect, it } from "vitest";
import { STAGEWISE_SERVER_CHECKS } from "../../../src/suites/stagewise-chat/checks/index.js";
import { chat, item, SwScript } from "../../helpers/stagewise-synthetic.js";
import { byShortId, judge } from "../../helpers/synthetic-transcript.js";

const judged = (s: SwScript) => byShortId(judge(STAGEWISE_SERVER_CHECKS, s.events));
const N = 10_000;

/** A subscription whose snapshot is the list, `n` full syncs of the active chat, then the working flag (all at S=3 unless `ids`). */
function longSnapshot(n: number, ids: (i: number) => number = () => 3) {
  const s = new SwScript().open("w1", "main").subscribe("w1", "sub:chat:A", 1);
  s.tracked("w1", 1, 3, { type: "chat-list", chats: [item("c1", true)] });
  for (let i = 0; i < n; i++) s.tracked("w1", 1, ids(i), { type: "chat-full-sync", chat: chat("c1", true) });
  return s.tracked("w1", 1, 3, { type: "agent-state", isWorking: false });
}

describe("stagewise-chat messages over long snapshots and windows", () => {
  it("chat/snapshot-order names the first five frames of a long snapshot", () => {
    const r = judged(longSnapshot(N)).get("chat/snapshot-order")!;
    expect(r.verdict).toBe("fail");
    expect(r.message).toMatch(/^chat-list, chat-full-sync, chat-full-sync, chat-full-sync, chat-full-sync, … and 9997 more on /);
    expect(r.message.length).toBeLessThan(500);
  });

  it("chat/seq-snapshot-head names the first five frames and ids of a snapshot whose ids differ", () => {
    const r = judged(longSnapshot(N, (i) => 4 + i)).get("chat/seq-snapshot-head")!;
    expect(r.verdict).toBe("fail");
    expect(r.message).toMatch(/^chat-list, chat-full-sync, chat-full-sync, chat-full-sync, chat-full-sync, … and 9997 more with ids "3", "4", "5", "6", "7", … and 9997 more on /);
    expect(r.message.length).toBeLessThan(500);
  });

  it("chat/snapshot-coherent names the first five active chats", () => {
    const s = new SwScript().open("w1", "main").subscribe("w1", "sub:chat:A", 1);
    s.tracked("w1", 1, 3, { type: "chat-list", chats: Array.from({ length: N }, (_, i) => item(`c${i}`, true)) }).tracked("w1", 1, 3, { type: "agent-state", isWorking: false });
    const r = judged(s).get("chat/snapshot-coherent")!;
    expect(r.verdict).toBe("fail");
    expect(r.message).toMatch(/^10000 active chats \(c0, c1, c2, c3, c4, … and 9995 more\) on /);
  });

  it("chat/create-chat names the first six updates of a window without the chat-created", () => {
    const s = new SwScript().open("w1", "main").subscribe("w1", "sub:chat:A", 1).snapshot("w1", 1, 3, [chat("c1", true)]);
    s.mutation("w1", "ok:create", 9, "chat.createChat", { title: "Next" }).answer("w1", 9, "c2");
    for (let i = 0; i < 1_500; i++) s.tracked("w1", 1, 4 + i, { type: "agent-state", isWorking: i % 2 === 0 });
    const r = judged(s).get("chat/create-chat")!;
    expect(r.verdict).toBe("fail");
    expect(r.message).toBe("0 (updates: agent-state, agent-state, agent-state, agent-state, agent-state, agent-state, … and 1494 more)");
  });

  it("chat/reject-no-side-effects names the first five updates after a rejection", () => {
    const s = new SwScript().open("w1", "main").subscribe("w1", "sub:chat:A", 1).snapshot("w1", 1, 3, [chat("c1", true)]);
    s.mutation("w1", "reject:chat-not-found:switch", 10, "chat.switchChat", { chatId: "nope" }).reject("w1", 10, "chat-not-found");
    for (let i = 0; i < 200; i++) s.tracked("w1", 1, 4 + i, { type: "chat-title-updated", chatId: "c1", title: `t${i}` });
    const r = judged(s.wait(1_000)).get("chat/reject-no-side-effects")!;
    expect(r.verdict).toBe("fail");
    expect(r.message).toMatch(/^chat-title-updated, chat-title-updated, chat-title-updated, chat-title-updated, chat-title-updated, … and 195 more at /);
  });

  it("a message with many content parts is judged in time linear in its parts, with the schema errors all counted", () => {
    const parts = (n: number) => [
      { type: "tool-approval", toolCallId: "t1", approved: true },
      ...Array.from({ length: n }, (_, i) => ({ type: "text", text: `part ${i}` })),
    ];
    // A user message without its metadata fields: invalid, so every error of every branch of the union is gathered.
    const run = (n: number) => {
      const s = new SwScript().open("w1", "main").subscribe("w1", "sub:chat:A", 1).snapshot("w1", 1, 3, [chat("c1", true)]);
      s.tracked("w1", 1, 4, { type: "message-added", chatId: "c1", message: { id: "u1", role: "user", createdAt: "2025-08-08T10:00:00.000Z", content: parts(n), metadata: {} } });
      const before = process.cpuUsage();
      const r = judged(s);
      const spent = process.cpuUsage(before);
      return { ms: (spent.user + spent.system) / 1000, shape: r.get("chat/update-shape")! };
    };
    run(500);
    const few = run(2_000);
    const many = run(16_000);
    // Each part's errors were once joined to a copy of all gathered before them.
    expect(many.ms, `16,000 parts: ${Math.round(many.ms)} ms, 2,000 parts: ${Math.round(few.ms)} ms`).toBeLessThan(16 * Math.max(few.ms, 20) + 500);
    expect(many.shape.verdict).toBe("fail");
    expect(many.shape.message).toMatch(/… and 8\d{4} more at main/);
  });
});
