/**
 * The client rule records in core: frame rules (probe filter, the follower fed before the rule, deadlines, the
 * contract's other branch) and request rules (a request judged without a failure holds the rule; `false` leaves it
 * unjudged).
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE, type CheckDef } from "../../src/core/checks/check.js";
import { clientFrameRules } from "../../src/core/checks/client-frame-rule.js";
import { checkMaker } from "../../src/core/checks/define-check.js";
import { requestRules } from "../../src/core/client-cases/request-check.js";
import { Evaluation } from "../../src/core/verdicts/evaluation.js";
import { TranscriptBus, type NewEvent, type TranscriptEvent } from "../../src/core/transcript/transcript.js";
import { wsConnectionView } from "../../src/core/views/ws-connection.js";

/** The records of these checks, given here instead of read from a protocol's data file. */
const records = (side: "server" | "client", id: string) => ({ id, side, level: "MUST" as const, title: id, rule: id, ref: { section: "§1", quote: "q" }, probes: [] });
const clientCheck = checkMaker({ seed: "s.txt", side: "client", records });
const record = (id: string) => ({ id });

const FRAMES = wsConnectionView<string>({ name: "test/frames", decode: (ev) => ev.data });
/** The follower counts the mock's "busy"/"idle" frames, as a suite's view of what the mock told the client. */
const frameRule = clientFrameRules(clientCheck, {
  view: FRAMES,
  probe: "client",
  follow: { make: () => ({ busy: false }), frame: (v, ev, m) => void (ev.direction === "out" && (m === "busy" || m === "idle") && (v.busy = m === "busy")) },
});

function judge(checks: CheckDef[], list: (NewEvent & { at?: number })[]) {
  const events: TranscriptEvent[] = [];
  const bus = new TranscriptBus();
  bus.subscribe((e) => events.push(e));
  for (const { at, ...e } of list) bus.emit(e as NewEvent);
  // Place events in time where asked.
  list.forEach((e, i) => e.at !== undefined && Object.assign(events[i]!, { t: e.at }));
  const evaluation = new Evaluation(checks, { protocol: "test", profile: DEFAULT_PROFILE, params: {}, validate: () => ({ ok: true }) as never });
  for (const e of events) evaluation.observe(e);
  return Object.fromEntries(evaluation.finish().map((r) => [r.id, `${r.outcome}: ${r.message}`]));
}

const open = (connection = "c1", probe = "client"): NewEvent => ({ kind: "ws-open", probe, connection, url: "ws://x/", headers: {} });
const frame = (data: string, direction: "in" | "out", extra: { probe?: string; at?: number } = {}) => ({
  kind: "ws-frame" as const,
  probe: extra.probe ?? "client",
  connection: "c1",
  direction,
  binary: false,
  data,
  ...(extra.at !== undefined ? { at: extra.at } : {}),
});

describe("client frame rules", () => {
  const quietWhileBusy = frameRule({
    ...record("t/quiet-while-busy"),
    pass: "the client waited",
    untested: "the client sent nothing",
    optional: (_s, view) => (view.busy ? undefined : "the mock was never busy"),
    client({ m, view, proof }, t) {
      if (view.busy) return t.fail("silence while busy", `sent ${m}`, proof());
      t.ok();
    },
  });

  it("judges the client's frames with what the mock had told it, and only frames of the probe", () => {
    expect(judge([quietWhileBusy], [open(), frame("busy", "out"), frame("hello", "in")])["t/quiet-while-busy"]).toBe("fail: sent hello");
    expect(judge([quietWhileBusy], [open(), frame("busy", "out"), frame("idle", "out"), frame("hello", "in")])["t/quiet-while-busy"]).toBe("pass: the client waited");
    // Frames of another probe are not the client's.
    expect(judge([quietWhileBusy], [open(), frame("busy", "out"), frame("hello", "in", { probe: "tool" })])["t/quiet-while-busy"]).toBe("incomplete: not exercised: the client sent nothing");
    expect(judge([quietWhileBusy], [open()])["t/quiet-while-busy"]).toBe("skip: not applicable: the mock was never busy");
  });

  it("calls tick with every event's time first, and end at the end of the run", () => {
    const answers = frameRule({
      ...record("t/answers"),
      pass: (s) => `${s.answered} answered`,
      untested: "the mock asked nothing",
      state: () => ({ asked: undefined as number | undefined, answered: 0 }),
      tick(now, t, s) {
        if (s.asked !== undefined && now - s.asked > 100) {
          s.asked = undefined;
          t.fail("an answer within 100 ms", "no answer");
        }
      },
      mock({ ev }, _t, s) {
        s.asked = ev.t;
      },
      client(_f, t, s) {
        if (s.asked === undefined) return;
        s.asked = undefined;
        s.answered++;
        t.ok();
      },
      end(t, s) {
        if (s.asked !== undefined) t.untestable("the run ended while a question was open");
      },
    });
    expect(judge([answers], [open(), frame("q", "out", { at: 10 }), frame("a", "in", { at: 50 })])["t/answers"]).toBe("pass: 1 answered");
    expect(judge([answers], [open(), frame("q", "out", { at: 10 }), frame("a", "in", { at: 500 })])["t/answers"]).toBe("fail: no answer");
    expect(judge([answers], [open(), frame("q", "out", { at: 10 })])["t/answers"]).toBe("incomplete: not exercised: the run ended while a question was open");
  });
});

describe("client request rules", () => {
  const requestRule = requestRules<Parameters<typeof clientCheck>[0], string, { path: string }>(clientCheck, (req, r) => (req.probe === "client" && req.path === r.path ? (req.body ?? "") : undefined));
  const jsonBody = requestRule({
    ...record("t/json-body"),
    path: "/chat",
    pass: "every chat body was JSON",
    untested: "no chat request",
    judge(body, t) {
      if (body === "") return false;
      try {
        JSON.parse(body);
      } catch {
        t.fail("JSON", "not JSON");
      }
    },
  });
  const request = (path: string, body: string): NewEvent => ({ kind: "http-request", probe: "client", exchange: `x${path}${body}`, label: "chat", method: "POST", url: `http://x${path}`, path, headers: {}, body });

  it("holds the rule for a request judged without a failure, fails on one, and leaves `false` unjudged", () => {
    expect(judge([jsonBody], [request("/chat", "{}")])["t/json-body"]).toBe("pass: every chat body was JSON");
    expect(judge([jsonBody], [request("/chat", "{}"), request("/chat", "{")])["t/json-body"]).toBe("fail: not JSON");
    expect(judge([jsonBody], [request("/chat", ""), request("/other", "{")])["t/json-body"]).toBe("incomplete: not exercised: no chat request");
  });
});
