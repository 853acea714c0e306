/**
 * Client checks judging a toolbar's request by what the mock had told it, on hand-built traffic with set times: a
 * request arriving within the crossing grace (250 ms) of an update that changes its verdict may have been sent before
 * the toolbar read it, so it is neither failed nor passed; past the grace, or once the toolbar showed it read the
 * update (a PONG to a later PING, a resume naming the update's id, an id only the update brought), it is judged.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import type { NewEvent, TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { activeChatOnlyCheck, pendingApprovalsOnlyCheck, respectsWorkingCheck } from "../../../src/suites/stagewise-chat/client/checks.js";
import { assistant, chat, item } from "../../helpers/stagewise-synthetic.js";

const VOID = { json: null, meta: { values: ["undefined"] } };
const METADATA = { currentUrl: null, currentTitle: null, currentZoomLevel: 1, viewportResolution: { width: 1, height: 1 }, devicePixelRatio: 1, userAgent: "", locale: "en", selectedElements: [] };

/** A toolbar's session as the mock records it, each frame at a given time (ms); `in` is the toolbar's. */
class Session {
  readonly events: TranscriptEvent[] = [];
  private seq = 0;
  private event = 0;

  constructor() {
    this.open(0, "a");
  }

  open(t: number, connection: string): this {
    return this.add({ kind: "ws-open", probe: "client", connection, url: "ws://127.0.0.1/stagewise/ws", label: "toolbar" }, t);
  }

  private add(e: NewEvent, t: number): this {
    this.events.push({ ...e, seq: this.seq++, t } as TranscriptEvent);
    return this;
  }

  frame(t: number, direction: "in" | "out", value: unknown, connection = "a"): this {
    return this.add({ kind: "ws-frame", probe: "client", connection, direction, binary: false, data: typeof value === "string" ? value : JSON.stringify(value) }, t);
  }

  subscribe(t: number, lastEventId?: string, connection = "a"): this {
    return this.frame(t, "in", { id: 1, method: "subscription", params: { path: "chat.getChatUpdates", input: VOID, ...(lastEventId ? { lastEventId } : {}) } }, connection);
  }

  /** One chat event at `t`, with the next id (or `id`). */
  update(t: number, data: unknown, id = String(this.event++), connection = "a"): this {
    return this.frame(t, "out", { id: 1, result: { type: "data", id, data: { json: { id, data } } } }, connection);
  }

  /** Chats c1 (active) and c2, idle (or working). */
  snapshot(t: number, isWorking = false, messages: unknown[] = []): this {
    const id = String(this.event++);
    this.update(t, { type: "chat-list", chats: [item("c1", true, messages.length), item("c2", false)] }, id);
    this.update(t, { type: "chat-full-sync", chat: chat("c1", true, messages) }, id);
    return this.update(t, { type: "agent-state", isWorking }, id);
  }

  working(t: number, isWorking: boolean): this {
    return this.update(t, { type: "agent-state", isWorking });
  }

  mutation(t: number, id: number, path: string, input: unknown, connection = "a"): this {
    return this.frame(t, "in", { id, method: "mutation", params: { path, input: { json: input } } }, connection);
  }

  judge(check = respectsWorkingCheck, params: Record<string, unknown> = {}) {
    const evaluation = new Evaluation([check], { protocol: "stagewise-chat", profile: DEFAULT_PROFILE, params, validate: (m, v) => registry.validate("stagewise-chat", m, v) });
    for (const e of this.events) evaluation.observe(e);
    return evaluation.finish()[0]!;
  }
}

/** Subscribed at 0, idle snapshot at 5, the agent starts working at 1000. */
const busyAt1000 = () => new Session().subscribe(0).snapshot(5).working(1000, true);
const createChat = (s: Session, t: number) => s.mutation(t, 9, "chat.createChat", { title: "Next" });

describe("stagewise-chat/chat/client-respects-working across the wire", () => {
  it("a gated call arriving 10 ms after isWorking:true may have crossed it: not failed, not passed", () => {
    const r = createChat(busyAt1000(), 1010).judge();
    expect([r.outcome, r.message]).toEqual(["incomplete", expect.stringMatching(/chat\.createChat arrived within 250 ms of an update from the mock/)]);
  });

  it("300 ms after it, the toolbar had read it: the call fails (SHOULD: warn)", () => {
    const r = createChat(busyAt1000(), 1300).judge();
    expect([r.outcome, r.actual]).toEqual(["fail", "chat.createChat while the agent was working"]);
  });

  it("the grace is the run's crossingGraceMs", () => {
    expect(createChat(busyAt1000(), 1010).judge(respectsWorkingCheck, { crossingGraceMs: 5 }).outcome).toBe("fail");
    expect(createChat(busyAt1000(), 1300).judge(respectsWorkingCheck, { crossingGraceMs: 500 }).outcome).toBe("incomplete");
  });

  it("a PONG to a PING the mock sent after the update shows the toolbar read it: held to it at once", () => {
    const s = busyAt1000().frame(1002, "out", "PING").frame(1004, "in", "PONG");
    expect(createChat(s, 1010).judge().outcome).toBe("fail");
    // A PONG to a PING sent before the update shows nothing about it.
    const early = busyAt1000().frame(998, "out", "PING").frame(1004, "in", "PONG");
    expect(createChat(early, 1010).judge().outcome).toBe("incomplete");
  });

  it("just after isWorking:false the call is not failed; past the grace it passes", () => {
    const idleAt1500 = () => busyAt1000().working(1500, false);
    expect(createChat(idleAt1500(), 1510).judge().outcome).toBe("incomplete");
    expect(createChat(idleAt1500(), 1800).judge().outcome).toBe("pass");
  });

  it("a resume naming the isWorking:false event shows the toolbar read it", () => {
    // Event 2 is isWorking:false at 1500; the toolbar resumes after it on a new socket and creates a chat at once.
    const s = busyAt1000().working(1500, false).open(1504, "b").subscribe(1505, "2", "b");
    s.update(1506, { type: "chat-list", chats: [item("c1", true), item("c2", false)] }, "2", "b");
    s.update(1506, { type: "chat-full-sync", chat: chat("c1", true) }, "2", "b");
    s.update(1506, { type: "agent-state", isWorking: false }, "2", "b");
    expect(s.mutation(1510, 9, "chat.createChat", { title: "Next" }, "b").judge().outcome).toBe("pass");
    // Resumed after an earlier event, it may not have read isWorking:false yet.
    const before = busyAt1000().working(1500, false).open(1504, "b").subscribe(1505, "1", "b");
    before.update(1506, { type: "agent-state", isWorking: false }, "2", "b");
    expect(before.mutation(1510, 9, "chat.createChat", { title: "Next" }, "b").judge().outcome).toBe("incomplete");
  });
});

describe("stagewise-chat/chat/client-active-chat-only across the wire", () => {
  const send = (s: Session, t: number, chatId: string) => s.mutation(t, 9, "chat.sendMessage", { chatId, content: [{ type: "text", text: "Hi" }], metadata: METADATA });
  /** c1 active, then the agent switches to c2 at 1000 (and syncs it). */
  const switched = () => {
    const s = new Session().subscribe(0).snapshot(5);
    s.update(1000, { type: "chat-switched", chatId: "c2" });
    return s.update(1000, { type: "chat-full-sync", chat: chat("c2", true) });
  };

  it("a message to the chat active until 10 ms before is not failed; 300 ms after, it is", () => {
    expect(send(switched(), 1010, "c1").judge(activeChatOnlyCheck).outcome).toBe("incomplete");
    expect(send(switched(), 1300, "c1").judge(activeChatOnlyCheck).outcome).toBe("fail");
  });

  it("a message to a chat that was never active fails even at once; naming a chat shows the list holding it was read", () => {
    const s = new Session().subscribe(0).snapshot(5);
    const r = send(s, 8, "c2").judge(activeChatOnlyCheck);
    expect([r.outcome, r.expected]).toEqual(["fail", 'chatId "c1" (the active chat)']);
    expect(send(new Session().subscribe(0).snapshot(5), 8, "c1").judge(activeChatOnlyCheck).outcome).toBe("pass");
  });
});

describe("stagewise-chat/tools/client-pending-approvals-only across the wire", () => {
  const call = { type: "tool-call", toolCallId: "call-1", toolName: "writeFile", runtime: "backend", requiresApproval: true, input: {} };
  const approve = (s: Session, t: number) => s.mutation(t, 9, "chat.approveToolCall", { chatId: "c1", toolCallId: "call-1", approved: true, metadata: METADATA });
  /** The tool call arrives at 1000; the agent records a rejection of it (another toolbar's) at 2000. */
  const session = () => {
    const s = new Session().subscribe(0).snapshot(5, true);
    s.update(1000, { type: "message-added", chatId: "c1", message: assistant("m1", [call]) });
    return s.update(2000, { type: "message-added", chatId: "c1", message: { id: "m2", role: "user", createdAt: "2025-08-08T10:00:00.000Z", content: [{ type: "tool-approval", toolCallId: "call-1", approved: false }] } });
  };

  it("an approval right after the call arrived passes: naming it shows the toolbar had it", () => {
    const s = new Session().subscribe(0).snapshot(5, true).update(1000, { type: "message-added", chatId: "c1", message: assistant("m1", [call]) });
    expect(approve(s, 1005).judge(pendingApprovalsOnlyCheck).outcome).toBe("pass");
  });

  it("an approval arriving 10 ms after the call was settled elsewhere is not failed; 300 ms after, it is", () => {
    expect(approve(session(), 2010).judge(pendingApprovalsOnlyCheck).outcome).toBe("incomplete");
    const r = approve(session(), 2300).judge(pendingApprovalsOnlyCheck);
    expect([r.outcome, r.actual]).toEqual(["fail", 'chat.approveToolCall: tool call "call-1" was already rejected']);
  });
});
