/**
 * The logic-heavy snapshot rules on small hand-built poll sequences: each passes a legal sequence
 * and fails the broken one with a message naming the poll and what changed.
 */
import { describe, expect, it } from "vitest";
import { KIT_STALL_NOTE } from "../../../src/core/checks/kit-stalls.js";
import { cn, cnCall, cnUser, CrScript, judge, result, says, seed, start, user } from "./synthetic.js";

const verdict = (s: CrScript, id: string, profile: "seed" | "cn-session" = "seed") => {
  const c = judge(s, profile).get(id)!;
  return { v: c.verdict, m: c.message };
};

describe("poll/append-only", () => {
  const base = () => new CrScript().poll(seed([user("hi"), says("Hel", true)], true));

  it("passes a streaming entry that is finalised and a start resolved in place", () => {
    const s = base()
      .poll(seed([user("hi"), says("Hello", false), start()], true))
      .poll(seed([user("hi"), says("Hello", false), result()], true));
    expect(verdict(s, "poll/append-only").v).toBe("pass");
  });

  it("fails a history that shrinks", () => {
    const r = verdict(base().poll(seed([user("hi")], true)), "poll/append-only");
    expect(r.v).toBe("fail");
    expect(r.m).toMatch(/poll #1 \(state:turn, x2\) after poll #0 .*shrank from 2 to 1/);
  });

  it("fails two finished entries swapped", () => {
    const s = new CrScript().poll(seed([user("hi"), says("one"), says("two")], false)).poll(seed([user("hi"), says("two"), says("one")], false));
    expect(verdict(s, "poll/append-only")).toMatchObject({ v: "fail", m: expect.stringMatching(/entry 1: a finished entry changed/) });
  });

  it("lets the streaming last entry vanish once after willInterrupt:true, and not otherwise", () => {
    const interrupted = base()
      .post("interrupt", "stop", { queued: true, position: 1, willInterrupt: true }, true)
      .poll(seed([user("hi"), user("stop")], true));
    expect(verdict(interrupted, "poll/append-only").v).toBe("pass");
    expect(verdict(base().poll(seed([user("hi"), user("stop")], true)), "poll/append-only").v).toBe("fail");
  });

  it("lets an interrupt drop a trailing tool-start", () => {
    const s = new CrScript()
      .poll(seed([user("hi"), start()], true))
      .post("interrupt", "stop", { queued: true, position: 1, willInterrupt: true }, true)
      .poll(seed([user("hi"), user("stop")], true));
    expect(verdict(s, "poll/append-only").v).toBe("pass");
  });

  it("under cn keeps role, content and toolCalls fixed while states change", () => {
    const ok = new CrScript().poll(cn([cnUser("hi"), cnCall("c1", "generated")], true)).poll(cn([cnUser("hi"), cnCall("c1", "done")], true));
    expect(verdict(ok, "poll/append-only", "cn-session").v).toBe("pass");
    const bad = new CrScript().poll(cn([cnUser("hi"), cnCall("c1", "done")], true)).poll(cn([cnUser("hi"), cnCall("c1", "done", "rewritten")], true));
    expect(verdict(bad, "poll/append-only", "cn-session")).toMatchObject({ v: "fail", m: expect.stringMatching(/role, content or toolCalls changed/) });
  });
});

describe("stream/grows-by-append", () => {
  it("passes text that extends, and fails text that is replaced", () => {
    const grow = new CrScript().poll(seed([user("hi"), says("Hel", true)], true)).poll(seed([user("hi"), says("Hello", true)], true));
    expect(verdict(grow, "stream/grows-by-append").v).toBe("pass");
    const rewrite = new CrScript().poll(seed([user("hi"), says("Hel", true)], true)).poll(seed([user("hi"), says("Jello", true)], true));
    expect(verdict(rewrite, "stream/grows-by-append")).toMatchObject({ v: "warn", m: expect.stringMatching(/entry 1 became "Jello"/) });
  });

  it("fails a finalised entry that streams again", () => {
    const s = new CrScript()
      .poll(seed([user("hi"), says("Hel", true)], true))
      .poll(seed([user("hi"), says("Hello")], true))
      .poll(seed([user("hi"), says("Hello!", true)], true));
    expect(verdict(s, "stream/grows-by-append")).toMatchObject({ v: "warn", m: expect.stringMatching(/streams again/) });
  });
});

describe("tools/start-resolves", () => {
  it("passes a start followed by its result, and one replaced in place", () => {
    const appended = new CrScript().poll(seed([user("hi"), start()], true)).poll(seed([user("hi"), start(), result()], true));
    expect(verdict(appended, "tools/start-resolves").v).toBe("pass");
    const replaced = new CrScript().poll(seed([user("hi"), start()], true)).poll(seed([user("hi"), result()], true));
    expect(verdict(replaced, "tools/start-resolves").v).toBe("pass");
  });

  it("fails a start followed by the final text", () => {
    const s = new CrScript().poll(seed([user("hi"), start()], true)).poll(seed([user("hi"), start(), says("Done.")], false));
    expect(verdict(s, "tools/start-resolves")).toMatchObject({
      v: "fail",
      m: expect.stringMatching(/start at 1 .* is followed by a assistant entry "Done\."/),
    });
  });

  it("fails an unresolved start while the server settles idle, and leaves a turn that went on to true-while-handling", () => {
    const settled = new CrScript().poll(seed([user("hi"), start()], false)).poll(seed([user("hi"), start()], false));
    expect(verdict(settled, "tools/start-resolves")).toMatchObject({
      v: "fail",
      m: expect.stringMatching(/isProcessing false while it is unresolved, and the turn did not go on/),
    });
    const wentOn = new CrScript().poll(seed([user("hi"), start()], false)).poll(seed([user("hi"), start(), result()], false));
    expect(verdict(wentOn, "tools/start-resolves")).toMatchObject({
      v: "skip",
      m: expect.stringMatching(/^not judged: continue-remote\/processing\/true-while-handling failed on poll #0/),
    });
  });
});

describe("session/tool-status-forward", () => {
  it("passes generated → calling → done and fails done → calling", () => {
    const fwd = new CrScript()
      .poll(cn([cnUser("hi"), cnCall("c1", "generated")], true))
      .poll(cn([cnUser("hi"), cnCall("c1", "calling")], true))
      .poll(cn([cnUser("hi"), cnCall("c1", "done")], true));
    expect(verdict(fwd, "session/tool-status-forward", "cn-session")).toMatchObject({ v: "pass", m: "2 status change(s) moved forward" });
    const back = new CrScript().poll(cn([cnUser("hi"), cnCall("c1", "done")], true)).poll(cn([cnUser("hi"), cnCall("c1", "calling")], true));
    expect(verdict(back, "session/tool-status-forward", "cn-session")).toMatchObject({ v: "fail", m: expect.stringMatching(/c1 went done → calling/) });
  });
});

describe("processing/message-not-lost", () => {
  it("passes a message whose user entry appears, and fails one the server forgot", () => {
    const kept = new CrScript()
      .poll(seed([], false))
      .post("turn", "Read it")
      .poll(seed([user("Read it")], true));
    expect(verdict(kept, "processing/message-not-lost").v).toBe("pass");
    const lost = new CrScript().poll(seed([], false)).post("turn", "Read it").poll(seed([], false)).poll(seed([], false));
    expect(verdict(lost, "processing/message-not-lost")).toMatchObject({
      v: "fail",
      m: expect.stringMatching(/idle, messageQueueLength 0, and no user entry for the message accepted by message:turn/),
    });
  });

  it("gives a server one idle poll to dequeue the message", () => {
    const late = new CrScript().poll(seed([], false)).post("turn", "Read it").poll(seed([], false)).poll(seed([user("Read it")], true));
    expect(verdict(late, "processing/message-not-lost").v).toBe("pass");
  });

  it("does not judge a message still waiting in the queue", () => {
    const waiting = new CrScript()
      .poll(seed([], false))
      .post("turn", "Read it")
      .poll(seed([], false, { messageQueueLength: 1 }))
      .poll(seed([user("Read it")], true));
    expect(verdict(waiting, "processing/message-not-lost").v).toBe("pass");
  });
});

describe("queue/fifo", () => {
  const three = () =>
    new CrScript()
      .poll(seed([], false))
      .post("queue-1", "A")
      .poll(seed([user("A")], true))
      .post("queue-2", "B", { queued: true, position: 1 }, true)
      .post("queue-3", "C", { queued: true, position: 2 }, true);

  it("passes messages that start in POST order", () => {
    const s = three()
      .poll(seed([user("A"), says("a"), user("B")], true))
      .poll(seed([user("A"), says("a"), user("B"), says("b"), user("C"), says("c")], false));
    expect(verdict(s, "queue/fifo")).toMatchObject({ v: "pass", m: "3 message(s) started in POST order" });
  });

  it("fails the newest message run first", () => {
    const s = three().poll(seed([user("A"), says("a"), user("C")], true));
    expect(verdict(s, "queue/fifo")).toMatchObject({
      v: "fail",
      m: expect.stringMatching(/"C" \(message:queue-3\) started before 1 message\(s\) accepted earlier/),
    });
  });

  it("fails a next user entry while the previous turn still streams", () => {
    const s = three()
      .poll(seed([user("A"), says("a…", true)], true))
      .poll(seed([user("A"), says("a…", true), user("B")], true));
    expect(verdict(s, "queue/fifo")).toMatchObject({ v: "fail", m: expect.stringMatching(/while entry 1 was still streaming/) });
  });
});

describe("state/idempotent-get", () => {
  it("passes equal idle polls (key order aside) and fails a body that changes with no request between", () => {
    const same = new CrScript()
      .poll(seed([], false), "idle")
      .poll({ isProcessing: false, pendingPermission: null, messageQueueLength: 0, chatHistory: [] }, "idle");
    expect(verdict(same, "state/idempotent-get").v).toBe("pass");
    const changed = new CrScript().poll(seed([], false, { pollCount: 1 }), "idle").poll(seed([], false, { pollCount: 2 }), "idle");
    expect(verdict(changed, "state/idempotent-get")).toMatchObject({
      v: "fail",
      m: expect.stringMatching(/poll #1 \(state:idle, x2\) differs from the idle poll before it/),
    });
  });

  it("does not compare polls with another request between them", () => {
    const s = new CrScript()
      .poll(seed([], false), "idle")
      .post("turn", "x")
      .poll(seed([user("x"), says("y")], false), "idle");
    expect(verdict(s, "state/idempotent-get").v).toBe("incomplete");
  });
});

describe("an idle snapshot is judged by what follows it", () => {
  const streamingIdle = () => new CrScript().poll(seed([user("hi"), says("Hel", true)], false));

  it("a turn that goes on after isProcessing:false fails true-while-handling, not idle-invariants", () => {
    const s = streamingIdle()
      .poll(seed([user("hi"), says("Hello"), start()], false))
      .poll(seed([user("hi"), says("Hello"), start(), result(), says("Done.")], false))
      .poll(seed([user("hi"), says("Hello"), start(), result(), says("Done.")], false));
    const r = judge(s);
    expect(r.get("processing/true-while-handling")).toMatchObject({
      verdict: "fail",
      message: expect.stringMatching(/poll #0 .* said isProcessing:false while entry 1 is streaming, and the turn went on/),
    });
    expect(r.get("processing/idle-invariants")!.verdict).toBe("pass");
  });

  it("a settled idle snapshot left streaming fails idle-invariants, not true-while-handling", () => {
    const s = streamingIdle().poll(seed([user("hi"), says("Hel", true)], false));
    const r = judge(s);
    expect(r.get("processing/idle-invariants")).toMatchObject({
      verdict: "fail",
      message: expect.stringMatching(/isProcessing:false while entry 1 is streaming/),
    });
    expect(r.get("processing/true-while-handling")!.verdict).not.toBe("fail");
  });

  it("the last poll of a run, never confirmed by another, is left undecided", () => {
    const r = judge(streamingIdle());
    expect(r.get("processing/idle-invariants")!.verdict).toBe("incomplete");
  });
});

describe("queue/will-interrupt-honoured", () => {
  const ID = "queue/will-interrupt-honoured";
  const running = () => new CrScript().poll(seed([user("hi"), says("Hel", true)], true));
  const interrupt = (s: CrScript) => s.post("interrupt", "stop", { queued: true, position: 1, willInterrupt: true }, true);

  it("does not blame the turn for an entry no poll sent after the answer had shown missing (it may predate the message)", () => {
    const s = interrupt(running()).poll(seed([user("hi"), says("Hello"), says("I'll read a file."), user("stop")], true));
    expect(verdict(s, ID)).toMatchObject({ v: "pass" });
  });

  it("fails (SHOULD: warns) on an entry the turn appended after a poll sent after the answer", () => {
    const s = interrupt(running())
      .poll(seed([user("hi"), says("Hello")], true))
      .poll(seed([user("hi"), says("Hello"), says("More."), user("stop")], true));
    expect(verdict(s, ID)).toMatchObject({ v: "warn", m: expect.stringMatching(/appended assistant More\. before the new message ran/) });
  });
});

describe("permission/approve", () => {
  const ID = "permission/approve";
  const pending = { requestId: "perm-1", toolName: "Bash", toolArgs: { command: "ls" }, timestamp: 1735689600000 };
  const asked = () => new CrScript().poll(seed([user("hi"), says("Let me look.")], true, { pendingPermission: pending }), "permission");
  const approve = (s: CrScript) =>
    s.exchange("permission:answer", "POST", "/permission", 200, { success: true, approved: true }, JSON.stringify({ requestId: "perm-1", approved: true }));
  const stillThere = () => seed([user("hi"), says("Let me look.")], true);

  it("passes a turn that goes on after the approval", () => {
    const s = approve(asked()).poll(stillThere(), "permission").poll(seed([user("hi"), says("Let me look."), says("Done.")], false), "permission");
    expect(verdict(s, ID).v).toBe("pass");
  });

  it("fails a turn that never went on while the probes watched, and does not judge one they stopped watching at once", () => {
    const watched = approve(asked()).poll(stillThere(), "permission");
    watched.t += 2_500;
    watched.poll(stillThere(), "permission");
    expect(verdict(watched, ID)).toMatchObject({ v: "fail", m: expect.stringMatching(/no later snapshot changed the history in the \d+ ms after permission:answer/) });
    const glimpsed = approve(asked()).poll(stillThere(), "permission");
    expect(verdict(glimpsed, ID)).toMatchObject({ v: "incomplete", m: expect.stringMatching(/stopped polling \d+ ms after permission:answer/) });
  });

  it("does not pass an approval with no readable snapshot before it to compare with", () => {
    const unreadable = new CrScript().poll(seed([user("hi")], true, { pendingPermission: { ...pending, timestamp: "yesterday" } }), "permission");
    const s = approve(unreadable).poll(seed([user("hi"), says("Done.")], false), "permission");
    expect(verdict(s, ID).v).toBe("incomplete");
  });
});


describe("timing/responsive and the kit's own hold-ups", () => {
  /** 20 idle polls, three of them answered 900 ms after their request; `held`: the kit says it was held up right before reading each. */
  const polls = (held: boolean) => {
    const s = new CrScript();
    for (let i = 0; i < 20; i++) {
      const slow = i % 7 === 3;
      s.answerMs = slow ? 900 : undefined;
      s.poll(seed([user("hi"), says("Hello")], false), "idle");
      if (slow && held) s.note(KIT_STALL_NOTE, { from: s.t - 5 - 880, to: s.t - 5 });
    }
    return s;
  };

  it("fails a slow p95 the kit cannot explain, and leaves one its hold-ups explain unjudged", () => {
    const slow = verdict(polls(false), "timing/responsive");
    expect(slow.v).toBe("warn");
    expect(slow.m).toMatch(/p95 900 ms over 20 polls/);
    const held = judge(polls(true));
    expect(held.get("timing/responsive")!.verdict).toBe("incomplete");
    expect(held.get("timing/responsive")!.message).toMatch(/held up while it read the polls: their p95 was 900 ms as read, \d+ ms without/);
    // The report on intermediate states takes the kit's hold-ups neither for the server's failure nor as polls that saw enough.
    expect(held.get("timing/intermediate-visible")!.verdict).toBe("incomplete");
    expect(held.get("timing/intermediate-visible")!.message).toMatch(/the kit itself was held up while it polled \(p95 900 ms as read\)/);
    expect(judge(polls(false)).get("timing/intermediate-visible")!.message).toMatch(/not judged: continue-remote\/timing\/responsive failed on GET \/state/);
  });

  it("names the poll the server was slowest to serve, though more polls than it keeps were slower as read", () => {
    // 10 polls served in 600 ms, then 80 read 5000 ms after they were sent, each right after a hold-up of the kit's
    // own of 4900 ms (served in 100 ms), then 10 quick ones: p95 600 ms, and the slowest served is a 600 ms poll.
    const s = new CrScript();
    const poll = (ms: number | undefined, held = false) => {
      s.answerMs = ms;
      s.poll(seed([user("hi"), says("Hello")], false), "idle");
      if (held) s.note(KIT_STALL_NOTE, { from: s.t - 4905, to: s.t - 5 });
    };
    for (let i = 0; i < 10; i++) poll(600);
    const honest = new Set(s.events.flatMap((e) => ("exchange" in e ? [e.exchange] : [])));
    for (let i = 0; i < 80; i++) poll(5000, true);
    for (let i = 0; i < 10; i++) poll(undefined);
    const r = judge(s).get("timing/responsive")!;
    expect(r.verdict).toBe("warn");
    expect(r.message).toMatch(/p95 600 ms over 100 polls \(slowest GET \/state/);
    expect(honest.has(r.evidence[0]!.exchange!)).toBe(true);
  });
});

describe("session/tool-state-content", () => {
  const call = (state: Record<string, unknown>, fn: Record<string, unknown> = { name: "Read", arguments: '{"filepath":"README.md"}' }) => {
    const c = cnCall("c1", "done");
    const toolCall = { id: "c1", type: "function", function: fn };
    const entry = { ...c, message: { ...c.message, toolCalls: [toolCall] }, toolCallStates: [{ ...c.toolCallStates[0]!, toolCall, ...state }] };
    return new CrScript().poll(cn([cnUser("hi"), entry], false));
  };

  it("shows the start of a huge output, cut, and never the whole of it", () => {
    const output = Array.from({ length: 200_000 }, (_, i) => ({ content: i }));
    const r = verdict(call({ output }), "session/tool-state-content", "cn-session");
    expect(r.v).toBe("warn");
    expect(r.m).toContain(`with output ${JSON.stringify(output.slice(0, 20)).slice(0, 80)}…`);
    expect(r.m.length).toBeLessThan(400);
  });

  it("names a call without arguments instead of failing inside the check", () => {
    const r = verdict(call({}, { name: "Read" }), "session/tool-state-content", "cn-session");
    expect(r.m).toMatch(/call c1 has arguments undefined/);
  });
});
