/**
 * The logic-heavy rules on hand-written frame sequences: each rule passes on a correct sequence and
 * fails on the one broken thing (a gap, a snapshot that differs from the reduced state, an update
 * the reducer refuses, a rejection with a side effect, a subscription the server ended, a second
 * answer to a mutation).
 */
import { describe, expect, it } from "vitest";
import type { TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { STAGEWISE_SERVER_CHECKS } from "../../../src/suites/stagewise-chat/checks/index.js";
import { assistant, chat, item, SwScript } from "../../helpers/stagewise-synthetic.js";
import { byShortId, judge, type JudgeOptions } from "../../helpers/synthetic-transcript.js";

const evaluateStagewise = (events: TranscriptEvent[], o: JudgeOptions = {}) => byShortId(judge(STAGEWISE_SERVER_CHECKS, events, o));

const A = 1;
const B = 2;
const text = (t: string) => ({ type: "text", text: t });

/** A at S=3 with one empty active chat, then a reply streamed as deltas 4.., then B's snapshot. */
function conversation(o: { ids?: number[]; bSnapshotText?: string; updates?: unknown[] } = {}) {
  const s = new SwScript()
    .open("w1", "main")
    .subscribe("w1", "sub:chat:A", A)
    .snapshot("w1", A, 3, [chat("c1", true)]);
  const updates = o.updates ?? [
    { type: "agent-state", isWorking: true },
    { type: "message-added", chatId: "c1", message: assistant("a1") },
    { type: "message-updated", chatId: "c1", update: { messageId: "a1", partIndex: 0, updateType: "create", content: text("Hel") } },
    { type: "message-updated", chatId: "c1", update: { messageId: "a1", partIndex: 0, updateType: "append", content: text("lo") } },
    { type: "agent-state", isWorking: false },
  ];
  const ids = o.ids ?? updates.map((_, i) => 4 + i);
  updates.forEach((u, i) => s.tracked("w1", A, ids[i]!, u));
  const head = ids[ids.length - 1]!;
  s.open("w2", "fresh")
    .subscribe("w2", "sub:chat:B:after-turn", B)
    .snapshot("w2", B, head, [chat("c1", true, [assistant("a1", [text(o.bSnapshotText ?? "Hello")])])]);
  return s;
}

describe("chat sequence numbers and the reducer invariant", () => {
  it("pass on a correct conversation", () => {
    const r = evaluateStagewise(conversation().events);
    for (const id of [
      "chat/seq-gap-free",
      "chat/seq-tracked",
      "chat/seq-snapshot-head",
      "chat/update-applicable",
      "chat/snapshot-equals-reduced",
      "chat/snapshot-order",
      "chat/snapshot-coherent",
    ]) {
      expect(r.get(id)!.verdict, `${id}: ${r.get(id)!.message}`).toBe("pass");
    }
  });

  it("chat/update-applicable: a delta refused for what a snapshot without its full sync left out is chat/snapshot-order's, however late it comes", () => {
    const upd = (text: string) => ({ type: "message-updated", chatId: "c1", update: { messageId: "a1", partIndex: 0, updateType: "append", content: { type: "text", text } } });
    const s = new SwScript()
      .open("w1", "main")
      .subscribe("w1", "sub:chat:A", A)
      .tracked("w1", A, 3, { type: "chat-list", chats: [item("c1", true, 1)] })
      // Applies (a new message): what the snapshot left out shows only in a later delta that touches it.
      .tracked("w1", A, 4, { type: "message-added", chatId: "c1", message: assistant("a2") })
      .tracked("w1", A, 5, upd("a"));
    const r = evaluateStagewise(s.events);
    expect(r.get("chat/snapshot-order")!.verdict).toBe("fail");
    expect(r.get("chat/update-applicable")!.verdict, r.get("chat/update-applicable")!.message).not.toBe("fail");
  });

  it("chat/seq-gap-free fails on a skipped id", () => {
    const r = evaluateStagewise(conversation({ ids: [4, 5, 7, 8, 9] }).events);
    expect(r.get("chat/seq-gap-free")!.verdict).toBe("fail");
    expect(r.get("chat/seq-gap-free")!.message).toMatch(/id 7 \(gap\)/);
    expect(r.get("chat/update-applicable")!.verdict).toBe("pass");
  });

  it("chat/seq-snapshot-head fails when the first delta is not S+1", () => {
    const r = evaluateStagewise(conversation({ ids: [5, 6, 7, 8, 9] }).events);
    expect(r.get("chat/seq-snapshot-head")!.verdict).toBe("fail");
  });

  it("chat/snapshot-equals-reduced fails when a fresh snapshot differs from what A reduced", () => {
    const r = evaluateStagewise(conversation({ bSnapshotText: "Hello world" }).events);
    const c = r.get("chat/snapshot-equals-reduced")!;
    expect(c.verdict).toBe("fail");
    expect(c.message).toContain("/messages/0/content/0/text");
    expect(c.expected).toMatch(/A's state at 8/);
  });

  it("chat/snapshot-equals-reduced: where one id names different updates on two subscriptions, a difference is chat/seq-global's", () => {
    // B numbers its own events: its snapshot at 5 is a state A never had at its 5, and its 6 is another update than A's 6.
    const s = new SwScript()
      .open("w1", "main")
      .subscribe("w1", "sub:chat:A", A)
      .snapshot("w1", A, 3, [chat("c1", true)]);
    [
      { type: "agent-state", isWorking: true },
      { type: "message-added", chatId: "c1", message: assistant("a1") },
      { type: "message-updated", chatId: "c1", update: { messageId: "a1", partIndex: 0, updateType: "create", content: text("Hel") } },
    ].forEach((u, i) => s.tracked("w1", A, 4 + i, u));
    s.open("w2", "fresh")
      .subscribe("w2", "sub:chat:B:after-turn", B)
      .snapshot("w2", B, 5, [chat("c1", true, [assistant("a1", [text("Hello!")])])], true)
      .tracked("w2", B, 6, { type: "agent-state", isWorking: false });
    const r = evaluateStagewise(s.events);
    expect(r.get("chat/seq-global")!.verdict).toBe("fail");
    const c = r.get("chat/snapshot-equals-reduced")!;
    expect([c.verdict, c.message]).toEqual(["skip", expect.stringMatching(/not judged: stagewise-chat\/chat\/seq-global failed/)]);
  });

  it("chat/update-applicable fails on an append onto a tool-call, and the invariant is then not judged", () => {
    const call = { type: "tool-call", toolCallId: "t1", toolName: "writeFile", input: {}, runtime: "backend", requiresApproval: false };
    const r = evaluateStagewise(
      conversation({
        updates: [
          { type: "message-added", chatId: "c1", message: assistant("a1", [call]) },
          { type: "message-updated", chatId: "c1", update: { messageId: "a1", partIndex: 0, updateType: "append", content: text("x") } },
        ],
      }).events,
    );
    expect(r.get("chat/update-applicable")!.verdict).toBe("fail");
    expect(r.get("chat/update-applicable")!.message).toMatch(/tool-call-immutable/);
    expect(r.get("chat/snapshot-equals-reduced")!.verdict).toBe("skip");
    expect(r.get("chat/snapshot-equals-reduced")!.message).toMatch(/not judged: stagewise-chat\/chat\/update-applicable failed/);
  });
});

describe("rejections", () => {
  const rejected = (sideEffect: boolean) => {
    const s = new SwScript()
      .open("w1", "main")
      .subscribe("w1", "sub:chat:A", A)
      .snapshot("w1", A, 3, [chat("c1", true), chat("c2", false)]);
    s.mutation("w1", "reject:chat-not-found:switch", 10, "chat.switchChat", { chatId: "nope" }).reject("w1", 10, "chat-not-found");
    if (sideEffect) s.tracked("w1", A, 4, { type: "chat-switched", chatId: "c2" }).tracked("w1", A, 5, { type: "chat-full-sync", chat: chat("c2", true) });
    return evaluateStagewise(s.wait(1_000).events);
  };

  it("chat/reject-no-side-effects passes when a rejection changes nothing", () => {
    const r = rejected(false);
    expect(r.get("chat/reject-no-side-effects")!.verdict).toBe("pass");
    expect(r.get("chat/reject-unknown-ids")!.verdict).toBe("pass");
    expect(r.get("chat/reject-error-shape")!.verdict).toBe("pass");
  });

  it("chat/reject-no-side-effects fails when a rejected switch still switched", () => {
    const r = rejected(true);
    expect(r.get("chat/reject-no-side-effects")!.verdict).toBe("fail");
    expect(r.get("chat/reject-no-side-effects")!.message).toMatch(/chat-switched, chat-full-sync/);
  });

  /** An over-long title accepted at 10, then (after `later` ms) a fresh snapshot, or a delta, that carries it. */
  const acceptedLongTitle = (later: number, how: "snapshot" | "delta") => {
    const long = "x".repeat(300);
    const s = new SwScript()
      .open("w1", "main")
      .subscribe("w1", "sub:chat:A", A)
      .snapshot("w1", A, 3, [chat("c1", true)]);
    s.mutation("w1", "reject:invalid-input:title-too-long", 10, "chat.updateChatTitle", { chatId: "c1", title: long }).answer("w1", 10, null);
    s.wait(later);
    if (how === "delta") s.tracked("w1", A, 4, { type: "chat-title-updated", chatId: "c1", title: long });
    else s.open("w2", "fresh").subscribe("w2", "sub:chat:B:later", B).snapshot("w2", B, 3, [chat("c1", true, [], long)]);
    return evaluateStagewise(s.wait(1_000).events);
  };

  it("chat/update-shape: what an accepted invalid input left in the chats is chat/reject-invalid-input's, in any later snapshot", () => {
    for (const later of [100, 5_000]) {
      const r = acceptedLongTitle(later, "snapshot");
      expect(r.get("chat/reject-invalid-input")!.verdict, `${later} ms`).toBe("fail");
      expect(r.get("chat/update-shape")!.verdict, `${later} ms: ${r.get("chat/update-shape")!.message}`).not.toBe("fail");
    }
  });

  it("chat/update-shape: a bad delta long after an accepted invalid input is its own failure", () => {
    expect(acceptedLongTitle(100, "delta").get("chat/update-shape")!.verdict).not.toBe("fail");
    expect(acceptedLongTitle(5_000, "delta").get("chat/update-shape")!.verdict).toBe("fail");
  });

  it("chat/reject-error-shape fails on a reason with the wrong code", () => {
    const s = new SwScript().open("w1", "main");
    s.mutation("w1", "reject:chat-not-found:switch", 10, "chat.switchChat", { chatId: "nope" }).reject(
      "w1",
      10,
      "chat-not-found",
      "INTERNAL_SERVER_ERROR",
      -32603,
      500,
    );
    expect(evaluateStagewise(s.events).get("chat/reject-error-shape")!.verdict).toBe("fail");
  });
});

describe("subscriptions and answers", () => {
  it("trpc/subscription-stays-open fails when the server stops a subscription on its own", () => {
    const s = new SwScript()
      .open("w1", "main")
      .subscribe("w1", "sub:chat:A", A)
      .snapshot("w1", A, 0, [chat("c1", true)])
      .recv("w1", { id: A, result: { type: "stopped" } });
    const c = evaluateStagewise(s.events).get("trpc/subscription-stays-open")!;
    expect(c.verdict).toBe("fail");
    expect(c.message).toMatch(/ended by the server: stopped/);
  });

  it("trpc/subscription-stays-open accepts a stopped frame after the kit stopped the subscription", () => {
    const s = new SwScript()
      .open("w1", "main")
      .subscribe("w1", "sub:chat:A", A)
      .snapshot("w1", A, 0, [chat("c1", true)]);
    s.send("w1", "stop:A", { id: A, method: "subscription.stop" }).recv("w1", { id: A, result: { type: "stopped" } });
    expect(evaluateStagewise(s.events).get("trpc/subscription-stays-open")!.verdict).toBe("pass");
  });

  it("trpc/mutation-answered fails on a second answer to one mutation", () => {
    const s = new SwScript().open("w1", "main").mutation("w1", "ok:title", 7, "chat.updateChatTitle", { chatId: "c1", title: "x" });
    s.answer("w1", 7, null);
    expect(evaluateStagewise(s.events).get("trpc/mutation-answered")!.verdict).toBe("pass");
    s.answer("w1", 7, null);
    const c = evaluateStagewise(s.events).get("trpc/mutation-answered")!;
    expect(c.verdict).toBe("fail");
    expect(c.message).toMatch(/a second answer to mutation chat.updateChatTitle \[ok:title\]/);
  });

  it("chat/snapshot-every-subscribe fails when a resubscription gets deltas only", () => {
    const s = new SwScript()
      .open("w1", "main")
      .subscribe("w1", "sub:chat:A", A)
      .snapshot("w1", A, 3, [chat("c1", true)]);
    s.open("w2", "resume").subscribe("w2", "sub:chat:resume:known", B).tracked("w2", B, 4, { type: "agent-state", isWorking: true });
    expect(evaluateStagewise(s.events).get("chat/snapshot-every-subscribe")!.verdict).toBe("fail");
  });
});

describe("profiles (§5)", () => {
  it("stagewise-published reports the chat rules, stagewise-internal-2025-08 makes the sequence rules SHOULD", async () => {
    const { STAGEWISE_INTERNAL, STAGEWISE_PUBLISHED } = await import("../../../src/suites/stagewise-chat/profiles.js");
    const gap = conversation({ ids: [4, 5, 7, 8, 9] }).events;
    expect(evaluateStagewise(gap).get("chat/seq-gap-free")!.verdict).toBe("fail");
    expect(evaluateStagewise(gap, { profile: STAGEWISE_PUBLISHED }).get("chat/seq-gap-free")!.verdict).toBe("info");
    expect(evaluateStagewise(gap, { profile: STAGEWISE_INTERNAL }).get("chat/seq-gap-free")!.verdict).toBe("warn");
    // The messaging quirks are SHOULD for the published package; wire rules keep their level.
    expect(STAGEWISE_PUBLISHED.levels!["stagewise-chat/messaging/no-replay"]).toBe("SHOULD");
    expect(STAGEWISE_PUBLISHED.levels!["stagewise-chat/wire/info-shape"]).toBeUndefined();
    expect(STAGEWISE_INTERNAL.params).toEqual({ chatPrefix: "", chatIdAsString: true });
  });
});

describe("mutations, turns and tools on hand-written sequences", () => {
  const base = () =>
    new SwScript()
      .open("w1", "main")
      .subscribe("w1", "sub:chat:A", A)
      .snapshot("w1", A, 3, [chat("c1", true)]);
  const call = (id: string, requiresApproval: boolean) => ({
    type: "tool-call",
    toolCallId: id,
    toolName: "writeFile",
    input: {},
    runtime: "backend",
    requiresApproval,
  });
  const result = (id: string, isError = false) => ({
    type: "tool-result",
    toolCallId: id,
    toolName: "writeFile",
    output: "ok",
    ...(isError ? { isError } : {}),
  });
  const approval = (id: string, approved: boolean) => ({
    id: `u-${id}`,
    role: "user",
    createdAt: "2025-08-08T10:00:00.000Z",
    content: [{ type: "tool-approval", toolCallId: id, approved }],
    metadata: {},
  });

  it("chat/create-chat fails when the new chat is never announced, passes when it is", () => {
    const silent = base().mutation("w1", "ok:create", 10, "chat.createChat", { title: "T" }).answer("w1", 10, "c2").wait(2_500);
    expect(evaluateStagewise(silent.events).get("chat/create-chat")!.verdict).toBe("fail");
    const told = base()
      .mutation("w1", "ok:create", 10, "chat.createChat", { title: "T" })
      .answer("w1", 10, "c2")
      .tracked("w1", A, 4, { type: "chat-created", chat: chat("c2", true, [], "T") });
    expect(evaluateStagewise(told.events).get("chat/create-chat")!.verdict).toBe("pass");
  });

  it("chat/send-message: refused as working after A saw a reply stream while idle is chat/working-brackets-turn's finding", () => {
    const refused = (s: SwScript) =>
      evaluateStagewise(
        s
          .mutation("w1", "ok:send", 10, "chat.sendMessage", { chatId: "c1", content: [text("again")], metadata: {} })
          .reject("w1", 10, "agent-working", "CONFLICT", -32009, 409)
          .wait(2_500).events,
      ).get("chat/send-message")!;
    // The reply came while A's state said idle: the probes could not know a turn was running.
    const idle = refused(base().tracked("w1", A, 4, { type: "message-added", chatId: "c1", message: assistant("a1") }));
    expect(idle.verdict).toBe("skip");
    expect(idle.message).toMatch(/^not judged: stagewise-chat\/chat\/working-brackets-turn failed on main ← \(transcript seq 6,/);
    // Told it was working, then idle again with no idle content since: the refusal is the agent's own.
    const told = refused(
      base()
        .tracked("w1", A, 4, { type: "agent-state", isWorking: true })
        .tracked("w1", A, 5, { type: "message-added", chatId: "c1", message: assistant("a1") })
        .tracked("w1", A, 6, { type: "agent-state", isWorking: false }),
    );
    expect(told.verdict).toBe("fail");
  });

  it("chat/working-brackets-turn fails when a reply streams while isWorking is false", () => {
    const s = base();
    s.tracked("w1", A, 4, {
      type: "message-added",
      chatId: "c1",
      message: { id: "m1", role: "user", createdAt: "2025-08-08T10:00:00.000Z", content: [text("hi")], metadata: {} },
    });
    s.tracked("w1", A, 5, { type: "message-added", chatId: "c1", message: assistant("a1") });
    expect(evaluateStagewise(s.events).get("chat/working-brackets-turn")!.verdict).toBe("fail");
  });

  it("tools/result-linked fails on a result for a call that does not exist", () => {
    const s = base().tracked("w1", A, 4, { type: "message-added", chatId: "c1", message: assistant("a1", [result("ghost")]) });
    const c = evaluateStagewise(s.events).get("tools/result-linked")!;
    expect(c.verdict).toBe("fail");
    expect(c.message).toMatch(/no such call/);
  });

  it("tools/approval-recorded shows the start of a long recorded content, cut, not the whole of it", () => {
    const recorded = approval("t1", true);
    const content = [...recorded.content, ...Array.from({ length: 300 }, (_, i) => text(`part ${i}`))];
    const s = base()
      .tracked("w1", A, 4, { type: "message-added", chatId: "c1", message: assistant("a1", [call("t1", true)]) })
      .mutation("w1", "ok:approve", 10, "chat.approveToolCall", { chatId: "c1", toolCallId: "t1", approved: true, metadata: {} })
      .answer("w1", 10, null)
      .tracked("w1", A, 5, { type: "message-added", chatId: "c1", message: { ...recorded, content } });
    const c = evaluateStagewise(s.events).get("tools/approval-recorded")!;
    expect(c.verdict).toBe("fail");
    expect(c.actual).toBe(`${JSON.stringify(content.slice(0, 10)).slice(0, 160)}…`);
  });

  it("tools/approval-respected fails on a successful result after a refusal, passes on an error result", () => {
    const run = (isError: boolean) =>
      base()
        .tracked("w1", A, 4, { type: "message-added", chatId: "c1", message: assistant("a1", [call("t1", true)]) })
        .tracked("w1", A, 5, { type: "message-added", chatId: "c1", message: approval("t1", false) })
        .tracked("w1", A, 6, {
          type: "message-updated",
          chatId: "c1",
          update: { messageId: "a1", partIndex: 1, updateType: "create", content: result("t1", isError) },
        });
    expect(evaluateStagewise(run(false).events).get("tools/approval-respected")!.verdict).toBe("fail");
    expect(evaluateStagewise(run(true).events).get("tools/approval-respected")!.verdict).toBe("pass");
    expect(evaluateStagewise(run(true).events).get("tools/result-linked")!.verdict).toBe("pass");
  });

  it("chat/stream-append warns when text grows by replacing the whole part", () => {
    const s = base()
      .tracked("w1", A, 4, { type: "message-added", chatId: "c1", message: assistant("a1", [text("Hel")]) })
      .tracked("w1", A, 5, { type: "message-updated", chatId: "c1", update: { messageId: "a1", partIndex: 0, updateType: "replace", content: text("Hello") } });
    const c = evaluateStagewise(s.events).get("chat/stream-append")!;
    expect(c.verdict).toBe("warn");
    expect(c.message).toMatch(/replace extends 3 characters to 5/);
  });

  it("messaging/initial-resync fails when a subscription starts with a delta", () => {
    const s = new SwScript()
      .open("w1", "main")
      .send("w1", "sub:messaging", { id: 3, method: "subscription", params: { path: "messaging.getMessage", input: { json: null } } });
    s.recv("w1", { id: 3, result: { type: "started" } }).recv("w1", {
      id: 3,
      result: { type: "data", data: { json: { messageId: "m", updateParts: [], createdAt: "2025-08-08T10:00:00.000Z", resync: false } } },
    });
    expect(evaluateStagewise(s.events).get("messaging/initial-resync")!.verdict).toBe("fail");
  });

  describe("messaging/reduced-equals-fresh", () => {
    const AT = "2025-08-08T10:00:00.000Z";
    const msg = (messageId: string, text: string, resync: boolean) => ({ messageId, updateParts: [{ contentIndex: 0, part: { type: "text", text } }], createdAt: AT, resync });
    const data = (id: number, value: unknown) => ({ id, result: { type: "data", data: { json: value } } });
    /** The first subscriber follows m1; a fresh one joins and gets `freshText`; `later` reaches only the first before the kit leaves. */
    function run(freshText: string, later?: unknown) {
      const s = new SwScript()
        .open("w1", "main")
        .open("w2", "fresh")
        .send("w1", "sub:messaging", { id: 3, method: "subscription", params: { path: "messaging.getMessage", input: { json: null } } })
        .recv("w1", { id: 3, result: { type: "started" } })
        .recv("w1", data(3, msg("m1", "Hi", true)))
        .send("w2", "sub:messaging:B:after-turn", { id: 1, method: "subscription", params: { path: "messaging.getMessage", input: { json: null } } })
        .recv("w2", { id: 1, result: { type: "started" } })
        .recv("w2", data(1, msg("m1", freshText, true)));
      if (later) s.recv("w1", data(3, later));
      s.send("w2", "stop:messaging", { id: 1, method: "subscription.stop" });
      return evaluateStagewise(s.events).get("messaging/reduced-equals-fresh")!;
    }

    it("passes at rest when both hold the same message, and fails when the fresh resync differs", () => {
      expect(run("Hi").verdict).toBe("pass");
      expect(run("Ho").verdict).toBe("fail");
    });

    it("a new message reaching the first subscriber before the fresh one is not a difference: incomplete, not at rest", () => {
      const r = run("Hi", msg("m2", "Next", true));
      expect(r.verdict).toBe("incomplete");
      expect(r.message).toMatch(/not at rest/);
    });
  });
});

describe("chat/reject-while-working judges by what the agent's own log shows", () => {
  const WORKING = { type: "agent-state", isWorking: true };
  const IDLE = { type: "agent-state", isWorking: false };
  const switched = [
    { type: "chat-switched", chatId: "c2" },
    { type: "chat-full-sync", chat: chat("c2", true) },
  ];
  /** A sees the turn start (seq 4), then the kit sends switchChat to the other chat as a gated call. */
  const gated = () =>
    new SwScript()
      .open("w1", "main")
      .subscribe("w1", "sub:chat:A", A)
      .snapshot("w1", A, 3, [chat("c1", true), chat("c2", false)])
      .tracked("w1", A, 4, WORKING)
      .mutation("w1", "reject:agent-working:switch", 10, "chat.switchChat", { chatId: "c2" });
  const verdictOf = (s: SwScript) => evaluateStagewise(s.wait(2_500).events).get("chat/reject-while-working")!;

  it("passes on the agent-working rejection", () => {
    const c = verdictOf(gated().reject("w1", 10, "agent-working", "CONFLICT", -32009, 409).tracked("w1", A, 5, IDLE));
    expect(c.verdict, c.message).toBe("pass");
  });

  it("fails when the switch took effect before the turn's end in the agent's own log", () => {
    const s = gated().answer("w1", 10, null).tracked("w1", A, 5, switched[0]).tracked("w1", A, 6, switched[1]).tracked("w1", A, 7, IDLE);
    const c = verdictOf(s);
    expect(c.verdict, c.message).toBe("fail");
    expect(c.message).toMatch(/chat-switched/);
  });

  it("fails on the switch's update that follows the next gated call", () => {
    // The answer comes first (r2): the probes send the next gated call before the switch shows in A's log.
    const s = gated()
      .answer("w1", 10, null)
      .mutation("w1", "reject:agent-working:delete", 11, "chat.deleteChat", { chatId: "c2" })
      .reject("w1", 11, "agent-working", "CONFLICT", -32009, 409)
      .tracked("w1", A, 5, switched[0])
      .tracked("w1", A, 6, switched[1])
      .tracked("w1", A, 7, IDLE);
    expect(verdictOf(s).verdict).toBe("fail");
  });

  it("is not judged when the turn had ended before the switch took effect (A's view was stale): not a failure", () => {
    // The agent went idle (seq 5) before the call reached it; A heard of it only after the call was sent.
    const idleFirst = gated().tracked("w1", A, 5, IDLE).answer("w1", 10, null).tracked("w1", A, 6, switched[0]).tracked("w1", A, 7, switched[1]);
    const c = verdictOf(idleFirst);
    expect(c.verdict, c.message).toBe("incomplete");
    expect(c.message).toMatch(/ended|idle/);
    // The same when the answer overtakes the idle update on the wire: the log order decides, not the arrival order.
    const overtaken = gated().answer("w1", 10, null).tracked("w1", A, 5, IDLE).tracked("w1", A, 6, switched[0]).tracked("w1", A, 7, switched[1]);
    expect(verdictOf(overtaken).verdict).toBe("incomplete");
  });

  it("orders an accepted createChat by the chat-created of the id it returned", () => {
    const created = { type: "chat-created", chat: chat("c3", true) };
    const create = () =>
      new SwScript()
        .open("w1", "main")
        .subscribe("w1", "sub:chat:A", A)
        .snapshot("w1", A, 3, [chat("c1", true)])
        .tracked("w1", A, 4, WORKING)
        .mutation("w1", "reject:agent-working:create", 10, "chat.createChat", undefined)
        .answer("w1", 10, "c3");
    expect(verdictOf(create().tracked("w1", A, 5, created).tracked("w1", A, 6, IDLE)).verdict).toBe("fail");
    expect(verdictOf(create().tracked("w1", A, 5, IDLE).tracked("w1", A, 6, created)).verdict).toBe("incomplete");
    // Another chat's creation says nothing about this call.
    const other = { type: "chat-created", chat: chat("c4", true) };
    expect(verdictOf(create().tracked("w1", A, 5, other).tracked("w1", A, 6, IDLE)).verdict).toBe("incomplete");
  });

  it("is not judged when an accepted call left nothing to order against the turn's end", () => {
    const c = verdictOf(gated().answer("w1", 10, null).tracked("w1", A, 5, IDLE));
    expect(c.verdict, c.message).toBe("incomplete");
    const wrongReason = verdictOf(gated().reject("w1", 10, "rejected-by-agent", "FORBIDDEN", -32003, 403).tracked("w1", A, 5, IDLE));
    expect(wrongReason.verdict, wrongReason.message).toBe("incomplete");
  });
});
