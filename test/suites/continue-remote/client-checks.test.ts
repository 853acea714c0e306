/**
 * The continue-remote client checks on recorded transcripts of scripted clients
 * (fixtures/continue-remote/transcripts/client/, written by
 * scripts/make-continue-remote-client-fixtures.ts against the reference mock; verdicts in
 * expected.json): each bad client fails exactly its check, the good ones pass all nine. Then the
 * cases the recordings do not reach, on synthetic transcripts with chosen times.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE, type ProfileDef } from "../../../src/core/checks/check.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import type { CheckResult } from "../../../src/core/verdicts/result.js";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import { parseJsonLines, readTranscript, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { CONTINUE_REMOTE_CLIENT_CHECKS } from "../../../src/suites/continue-remote/client/index.js";
import { stopNote } from "../../helpers/synthetic-transcript.js";

const DIR = fileURLToPath(new URL("../../../fixtures/continue-remote/transcripts/client/", import.meta.url));
const PREFIX = "continue-remote/client/";
const CN: ProfileDef = { name: "cn-session", description: "the current cn serve" };
const IDS = CONTINUE_REMOTE_CLIENT_CHECKS.map((c) => c.id.slice(PREFIX.length));

function judge(events: TranscriptEvent[], profile: ProfileDef = DEFAULT_PROFILE): Record<string, CheckResult> {
  const evaluation = new Evaluation(CONTINUE_REMOTE_CLIENT_CHECKS, {
    protocol: "continue-remote",
    profile,
    params: {},
    validate: (message, value) => registry.validate("continue-remote", message, value, profile.name),
  });
  for (const e of events) evaluation.observe(e);
  return Object.fromEntries(evaluation.finish().map((r) => [r.id.slice(PREFIX.length), r]));
}

const load = (file: string) => parseJsonLines(readFileSync(join(DIR, file), "utf8"));
const outcomes = (results: Record<string, CheckResult>) => Object.fromEntries(Object.entries(results).map(([id, r]) => [id, r.outcome]));

/** Per fixture, each check's outcome by full id (the format every protocol's fixtures share). */
type Expected = Record<string, string>;
/** The profile a fixture was recorded under, from its transcript header (seed when it has none). */
const profileOf = (file: string): ProfileDef => (readTranscript(readFileSync(join(DIR, file), "utf8")).header?.profile === CN.name ? CN : DEFAULT_PROFILE);
const short = (e: Expected): Record<string, string> => Object.fromEntries(Object.entries(e).map(([id, o]) => [id.slice(PREFIX.length), o]));

describe("continue-remote client fixture transcripts", () => {
  const expected = JSON.parse(readFileSync(join(DIR, "expected.json"), "utf8")) as Record<string, Expected>;

  it("has the nine checks of the contract, and an expectation for every fixture", () => {
    expect(IDS).toEqual([
      "polls-state",
      "poll-interval",
      "message-json",
      "message-nonempty",
      "permission-request-id",
      "permission-only-when-pending",
      "exit-method",
      "known-routes",
      "stops-after-exit",
    ]);
    expect(CONTINUE_REMOTE_CLIENT_CHECKS.map((c) => c.level)).toEqual(["MUST", "INFO", "MUST", "SHOULD", "MUST", "SHOULD", "MUST", "SHOULD", "SHOULD"]);
    expect(CONTINUE_REMOTE_CLIENT_CHECKS.every((c) => c.side === "client")).toBe(true);
    expect(Object.keys(expected).sort()).toEqual(readdirSync(DIR).filter((f) => f.endsWith(".jsonl")).sort());
    // Every check is proven to fail by some bad client.
    const failing = new Set(Object.values(expected).flatMap((e) => Object.keys(short(e)).filter((id) => short(e)[id] === "fail")));
    expect([...failing].sort()).toEqual([...IDS].sort());
  });

  for (const [file, e] of Object.entries(expected)) {
    const want = short(e);
    const fails = Object.keys(want).filter((id) => want[id] === "fail");
    it(`${file}: ${fails.length ? `fails ${fails.join(", ")}` : "passes all nine"}`, () => {
      expect(Object.keys(want).sort()).toEqual([...IDS].sort());
      const results = judge(load(file), profileOf(file));
      expect(outcomes(results), JSON.stringify(Object.values(results).map((r) => [r.id, r.message]), null, 1)).toEqual(want);
    });
  }

  it("known-routes reads the profile: /pause is fine under cn-session, not under seed", () => {
    expect(judge(load("pause-under-seed.jsonl"), CN)["known-routes"]!.outcome).toBe("pass");
    const seed = judge(load("cn-session-pause.jsonl"))["known-routes"]!;
    expect(seed.outcome).toBe("fail");
    expect(seed.message).toContain("POST /pause");
  });

  it("a failure says what was expected, what was sent, and where", () => {
    const stale = judge(load("stale-request-id.jsonl"))["permission-request-id"]!;
    expect(stale.expected).toContain('"perm-2"');
    expect(stale.actual).toContain('answered requestId "perm-1"');
    expect(stale.evidence[0]).toMatchObject({ probe: "client", label: "permission" });
    expect(stale.evidence[0]!.excerpt).toContain("perm-1");

    const empty = judge(load("empty-interrupt.jsonl"))["message-nonempty"]!;
    expect(empty.verdict).toBe("warn");
    expect(empty.message).toMatch(/empty message "".*400/);

    const late = judge(load("no-polling-while-busy.jsonl"))["polls-state"]!;
    expect(late.verdict).toBe("fail");
    expect(late.message).toMatch(/next GET \/state came \d+ ms after the state served by c\d+ .*isProcessing:true/);

    const fast = judge(load("fast-polling.jsonl"))["poll-interval"]!;
    expect(fast.verdict).toBe("info"); // INFO: reported, never failing the run
    expect(fast.actual).toMatch(/^median \d+ ms$/);

    const afterExit = judge(load("requests-after-exit.jsonl"))["stops-after-exit"]!;
    expect(afterExit.message).toMatch(/GET \/state \(c\d+, at \d+ ms\) came \d+ ms after \/exit answered/);
  });
});

// ---------------------------------------------------------------------------------------------
// Synthetic transcripts: requests and answers at chosen times.

class Script {
  private readonly list: TranscriptEvent[] = [];
  private n = 0;

  /** The events in time order (overlapping exchanges interleave), numbered as a bus would. */
  get events(): TranscriptEvent[] {
    return [...this.list].sort((a, b) => a.t - b.t).map((e, seq) => ({ ...e, seq }));
  }

  private push(e: Record<string, unknown>, t: number) {
    this.list.push({ ...e, probe: "client", seq: 0, t } as TranscriptEvent);
  }

  /** One exchange: the request at `t`, its answer `dt` later. */
  call(t: number, method: string, path: string, status: number, answer?: unknown, request?: { body?: string; type?: string }, dt = 2): this {
    const exchange = `c${++this.n}`;
    const label = path.slice(1);
    const headers = request?.type ? { "content-type": request.type } : {};
    this.push({ kind: "http-request", exchange, label, method, url: `http://127.0.0.1:8000${path}`, path, headers, ...(request?.body !== undefined ? { body: request.body } : {}) }, t);
    this.push({ kind: "http-response", exchange, label, status, headers: { "content-type": "application/json; charset=utf-8" } }, t + dt);
    const text = answer === undefined ? undefined : JSON.stringify(answer);
    this.push({ kind: "body-end", exchange, label, reason: "eof", bytes: text?.length ?? 0, ...(text !== undefined ? { text } : {}) }, t + dt);
    return this;
  }

  /** The kit stops the run at `t` (Ctrl-C, SIGTERM, a time limit). */
  stopped(t: number, by = "SIGTERM"): this {
    this.list.push({ ...stopNote(by), seq: 0, t } as TranscriptEvent);
    return this;
  }

  state(t: number, isProcessing: boolean, pending: string | null = null, status = 200, dt = 2): this {
    const body = status === 200 ? { chatHistory: [], isProcessing, pendingPermission: pending ? { requestId: pending, toolName: "write_file", toolArgs: {}, timestamp: 1 } : null } : { error: "down" };
    return this.call(t, "GET", "/state", status, body, undefined, dt);
  }

  send(t: number, message: string): this {
    return this.call(t, "POST", "/message", 200, { queued: true, position: 1 }, { body: JSON.stringify({ message }), type: "application/json" });
  }

  answer(t: number, requestId: string, status = 200): this {
    return this.call(t, "POST", "/permission", status, status === 200 ? { success: true, approved: true } : { error: "Invalid request ID" }, { body: JSON.stringify({ requestId, approved: true }), type: "application/json" });
  }
}

describe("continue-remote client checks on synthetic transcripts", () => {
  it("no traffic: nothing passes; the checks about optional behaviour skip", () => {
    const r = outcomes(judge([]));
    expect(r).toEqual({
      "polls-state": "incomplete",
      "poll-interval": "incomplete",
      "message-json": "incomplete",
      "message-nonempty": "incomplete",
      "permission-request-id": "skip",
      "permission-only-when-pending": "skip",
      "exit-method": "skip",
      "known-routes": "incomplete",
      "stops-after-exit": "skip",
    });
  });

  it("a permission shown but never answered is incomplete, not a pass", () => {
    const s = new Script().send(0, "hi").state(100, true, "perm-1").state(600, true, "perm-1");
    const r = judge(s.events);
    expect(r["permission-request-id"]!.outcome).toBe("incomplete");
    expect(r["permission-request-id"]!.message).toContain("perm-1");
    expect(r["permission-only-when-pending"]!.outcome).toBe("incomplete");
  });

  it("a retry after a rejected answer is no second answer; an id never shown is a guess, not a stale id", () => {
    const s = new Script().send(0, "hi").state(100, true, "perm-1").answer(150, "perm-1", 400).answer(200, "perm-1").state(300, false);
    expect(outcomes(judge(s.events))).toMatchObject({ "permission-request-id": "pass", "permission-only-when-pending": "pass" });
    const guess = new Script().send(0, "hi").state(100, false).answer(150, "perm-9", 400);
    expect(outcomes(judge(guess.events))).toMatchObject({ "permission-request-id": "pass", "permission-only-when-pending": "fail" });
  });

  it("a permission answer that may have crossed a poll's answer on the wire is not judged by it; past the grace it is", () => {
    // perm-1 shown at 102; at 502 a poll serves perm-2 (perm-1 settled elsewhere). An answer to perm-1 arriving 3 ms
    // later may have been sent before the client read that poll.
    const crossed = (at: number) => new Script().send(0, "hi").state(100, true, "perm-1").state(500, true, "perm-2").answer(at, "perm-1", 400);
    const soon = judge(crossed(505).events);
    expect([soon["permission-request-id"]!.outcome, soon["permission-request-id"]!.message]).toEqual(["incomplete", expect.stringMatching(/within 250 ms of an update from the mock/)]);
    const late = judge(crossed(900).events);
    expect(late["permission-request-id"]!.outcome).toBe("fail");
    // The same after a poll showing nothing pending: an answer 3 ms later is not failed, 400 ms later it is.
    const cleared = (at: number) => new Script().send(0, "hi").state(100, true, "perm-1").state(500, true, null).answer(at, "perm-1", 400);
    expect(judge(cleared(505).events)["permission-only-when-pending"]!.outcome).toBe("incomplete");
    expect(judge(cleared(900).events)["permission-only-when-pending"]!.outcome).toBe("fail");
    // An answer right after the poll that showed its id passes: naming it shows that poll was read.
    expect(outcomes(judge(new Script().send(0, "hi").state(100, true, "perm-1").answer(104, "perm-1").state(300, false).events))).toMatchObject({ "permission-request-id": "pass", "permission-only-when-pending": "pass" });
    // Its own accepted answer settled perm-1 for the client: re-answering it after perm-2 was shown still fails at once.
    const again = new Script().send(0, "hi").state(100, true, "perm-1").answer(110, "perm-1").state(500, true, "perm-2").answer(505, "perm-1", 400);
    expect(judge(again.events)["permission-request-id"]!.outcome).toBe("fail");
  });

  it("polls-state: a client busy with other requests still owes its poll; /exit ends what it owes", () => {
    const busy = new Script().send(0, "hi").state(10, true).call(2500, "GET", "/diff", 200, { diff: "" });
    const r = judge(busy.events)["polls-state"]!;
    expect(r.outcome).toBe("fail");
    expect(r.message).toContain("the client sent GET /diff instead");
    const exiting = new Script().send(0, "hi").state(10, true).call(100, "POST", "/exit", 200, { success: true, message: "Server shutting down" });
    expect(judge(exiting.events)["polls-state"]!.outcome).toBe("pass");
    // A failed poll leaves the last state busy: the next poll is still owed.
    const failing = new Script().send(0, "hi").state(10, true).state(500, false, null, 500).state(3000, false);
    expect(judge(failing.events)["polls-state"]!.message).toMatch(/came 2\d+ ms after GET \/state \(c3\) answered 500/);
    // A busy state with nothing after it: the client stopped; that is not judged.
    const stopped = new Script().send(0, "hi").state(10, true);
    expect(judge(stopped.events)["polls-state"]!.outcome).toBe("pass");
  });

  it("poll-interval flags a client that speeds up while /state fails, and counts overlapping polls", () => {
    const s = new Script();
    let t = 0;
    for (let i = 0; i < 6; i++) s.state((t += 500), false);
    for (let i = 0; i < 3; i++) s.state((t += 500), false, null, 500);
    for (let i = 0; i < 4; i++) s.state((t += 20), false, null, 500, 5);
    const r = judge(s.events)["poll-interval"]!;
    expect(r.outcome).toBe("fail");
    expect(r.message).toContain("while it fails");

    const overlapping = new Script().state(0, false, null, 200, 300).state(100, false, null, 200, 300).state(600, false);
    const o = judge(overlapping.events)["poll-interval"]!;
    expect(o.outcome).toBe("pass");
    expect(o.message).toContain("1 started while another was in flight");
  });

  it("stops-after-exit allows the 2 s a client needs to notice", () => {
    const s = new Script().call(0, "POST", "/exit", 200, { success: true, message: "Server shutting down" }).state(1500, false, null, 503);
    expect(judge(s.events)["stops-after-exit"]!.outcome).toBe("pass");
  });

  it("a blank message is flagged, a message with text around blanks is not", () => {
    expect(judge(new Script().send(0, " \n\t").events)["message-nonempty"]!.outcome).toBe("fail");
    expect(judge(new Script().send(0, " a ").events)["message-nonempty"]!.outcome).toBe("pass");
  });

  it("known-routes matches paths as the server does, and leaves /exit to exit-method and preflights alone", () => {
    const s = new Script().state(0, false).call(10, "GET", "/State/?x=1", 200, { chatHistory: [], isProcessing: false }).call(20, "OPTIONS", "/message", 204);
    s.call(30, "HEAD", "/exit", 405, { error: "x" });
    const r = judge(s.events);
    expect(r["known-routes"]!.outcome).toBe("pass");
    expect(r["exit-method"]!.outcome).toBe("fail");
    expect(judge(new Script().call(0, "POST", "/state", 405, { error: "x" }).events)["known-routes"]!.message).toContain("wrong method");
  });
});

describe("continue-remote client checks on a run the kit stopped", () => {
  it("polls-state: a poll still due when the kit stopped the client is not judged; one overdue by then fails", () => {
    // The message is accepted at 2 ms: a poll is due by 2002 ms.
    const cut = judge(new Script().send(0, "hi").stopped(800).events)["polls-state"]!;
    expect([cut.outcome, cut.message]).toEqual(["incomplete", expect.stringContaining("a GET /state was still due after the message accepted by POST /message (c1, at 2 ms) when the kit stopped the run (SIGTERM) at 800 ms")]);
    // The same client ending the run itself never polled.
    expect(judge(new Script().send(0, "hi").events)["polls-state"]!.outcome).toBe("fail");
    const overdue = judge(new Script().send(0, "hi").stopped(3000, "Ctrl-C").events)["polls-state"]!;
    expect([overdue.outcome, overdue.message]).toEqual(["fail", expect.stringContaining("the client never polled /state after the message accepted by POST /message (c1, at 2 ms) (until the kit stopped the run (Ctrl-C) at 3000 ms)")]);
  });

  it("polls-state: what a stopped client sends past a deadline the stop came before is the stop's doing", () => {
    // Told to stop at 1500 ms, the client says goodbye at 2600 ms: its poll was due at 2002 ms, after the stop.
    const r = judge(new Script().send(0, "hi").stopped(1500).call(2600, "GET", "/diff", 200, { diff: "" }).events)["polls-state"]!;
    expect([r.outcome, r.message]).toEqual(["incomplete", expect.stringContaining("when the kit stopped the run (SIGTERM) at 1500 ms")]);
    // A poll it made in time before holds; the pass says what was left unjudged.
    const some = judge(new Script().send(0, "hi").state(500, false).send(1000, "again").stopped(1500).events)["polls-state"]!;
    expect([some.outcome, some.message]).toEqual(["pass", expect.stringContaining("(1 still due when the kit stopped the run not judged)")]);
  });
});
