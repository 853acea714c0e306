/**
 * The core views: each event decoded once whatever the number of checks, per-check stream state,
 * a throwing hook confined to its own check, rank order, and poll series that compare neighbours
 * while keeping only the last snapshot.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE, Tally, type CheckContext, type CheckDef } from "../../src/core/checks/check.js";
import type { Observe } from "../../src/core/views/hooks.js";
import { Evaluation } from "../../src/core/verdicts/evaluation.js";
import { TranscriptBus, type NewEvent } from "../../src/core/transcript/transcript.js";
import { exchangeView, type Exchange } from "../../src/core/views/exchange.js";
import { all, on, tap, type ViewDef } from "../../src/core/views/hooks.js";
import { pollSeriesView } from "../../src/core/views/poll-series.js";
import { sseStreamView } from "../../src/core/views/sse-stream.js";
import { wsConnectionView } from "../../src/core/views/ws-connection.js";

const ctx: CheckContext = { protocol: "test", profile: DEFAULT_PROFILE, params: {}, validate: () => ({ ok: true }) };

function check(id: string, observe: () => Observe, finish: () => string = () => "ok"): CheckDef {
  return {
    id,
    level: "MUST",
    side: "server",
    title: id,
    rule: id,
    ref: { seed: "s", section: "§", quote: "q" },
    probes: [],
    create: () => ({ observe: observe(), finish: () => ({ verdict: "pass", message: finish() }) }),
  };
}

function run(checks: CheckDef[], events: NewEvent[]) {
  const bus = new TranscriptBus();
  const evaluation = new Evaluation(checks, ctx);
  bus.subscribe(evaluation.observe);
  for (const e of events) bus.emit(e);
  return evaluation.finish();
}

const ref = (exchange: string, label = "chat") => ({ probe: "p", exchange, label });

function stream(exchange: string, datas: string[]): NewEvent[] {
  const r = ref(exchange);
  return [
    { kind: "http-request", ...r, method: "POST", url: "http://x/chat", path: "/chat", headers: {} },
    { kind: "http-response", ...r, status: 200, headers: { "content-type": "text/event-stream" } },
    ...datas.map((data, index): NewEvent => ({ kind: "sse-event", ...r, index, data, chunk: index })),
    { kind: "body-end", ...r, reason: "eof", bytes: 0 },
  ];
}

describe("core views", () => {
  it("decode each SSE event once for every check, and give each check its own per-stream state", () => {
    let decoded = 0;
    const STREAMS = sseStreamView<{ label: string }, number>({
      name: "test/streams",
      select: (req) => req.label === "chat",
      open: (req) => ({ label: req.label }),
      decode: (ev) => {
        decoded++;
        return Number(ev.data);
      },
    });
    const sums: number[] = [];
    const counter = (id: string) =>
      check(id, () =>
        STREAMS.on<{ sum: number }>({
          start: () => ({ sum: 0 }),
          event: (_ev, v, _s, st) => {
            st.sum += v;
          },
          end: (_ev, _s, st) => sums.push(st.sum),
        }),
      );
    run([counter("a"), counter("b"), counter("c")], [...stream("x1", ["1", "2", "3"]), ...stream("x2", ["10"])]);
    expect(decoded).toBe(4);
    expect(sums).toEqual([6, 6, 6, 10, 10, 10]);
  });

  it("call an event hook only for the tags it reads, and give line hooks each line's kind", () => {
    // Tag: odd or even, as the decoder says; "odd" hooks never see an even event.
    const STREAMS = sseStreamView<{ label: string }, number>({
      name: "test/tagged",
      select: (req) => req.label === "chat",
      open: (req) => ({ label: req.label }),
      decode: (ev) => Number(ev.data),
      tag: (v) => (v % 2 ? "odd" : "even"),
    });
    const seen: Record<string, number[]> = { odd: [], all: [] };
    const kinds: string[] = [];
    const hook = (id: "odd" | "all", only?: string[]) =>
      check(id, () => STREAMS.on({ start: () => undefined, ...(only ? { only } : {}), event: (_ev, v) => void seen[id]!.push(v), line: (_ev, _s, _st, kind) => void kinds.push(kind) }));
    const r = ref("x1");
    const line = (lineNo: number, text: string): NewEvent => ({ kind: "sse-line", ...r, lineNo, line: text, eol: "\n", chunkStart: 0, chunkEnd: 0 });
    const [req, head, ...rest] = stream("x1", ["1", "2", "3", "4"]);
    run([hook("odd", ["odd"]), hook("all")], [req!, head!, line(0, "data: 1"), line(1, ""), line(2, ": c"), line(3, "id: 7"), ...rest]);
    expect(seen).toEqual({ odd: [1, 3], all: [1, 2, 3, 4] });
    // Each line once per hook (two checks), classified once by the view.
    expect(kinds).toEqual(["data", "data", "blank", "blank", "comment", "comment", "field", "field"]);
  });

  it("keep a check that does not accept a stream away from all of it, and call a line hook only for its kinds", () => {
    const STREAMS = sseStreamView<{ label: string }, number>({
      name: "test/accepting",
      select: () => true,
      open: (req) => ({ label: req.label }),
      decode: (ev) => Number(ev.data),
    });
    const heard: string[] = [];
    const hook = (id: string, accept?: (s: { label: string }) => boolean, lineKinds?: ("blank" | "comment" | "data" | "field")[]) =>
      check(id, () =>
        STREAMS.on({
          ...(accept ? { accept } : {}),
          ...(lineKinds ? { lineKinds } : {}),
          start: (s) => void heard.push(`${id} start ${s.label}`),
          event: (ev, _v, s) => void heard.push(`${id} event ${s.label} ${ev.data}`),
          line: (ev, s, _st, kind) => void heard.push(`${id} ${kind} ${s.label} ${ev.line}`),
          end: (_ev, s) => void heard.push(`${id} end ${s.label}`),
        }),
      );
    const events = (label: string): NewEvent[] => {
      const r = ref(`x-${label}`, label);
      const line = (lineNo: number, text: string): NewEvent => ({ kind: "sse-line", ...r, lineNo, line: text, eol: "\n", chunkStart: 0, chunkEnd: 0 });
      return [
        { kind: "http-request", ...r, method: "POST", url: "http://x/", path: "/", headers: {} },
        { kind: "http-response", ...r, status: 200, headers: {} },
        line(0, ": hi"),
        line(1, "data: 1"),
        { kind: "sse-event", ...r, index: 0, data: "1", chunk: 0 },
        line(2, ""),
        { kind: "body-end", ...r, reason: "eof", bytes: 0 },
      ];
    };
    run([hook("mine", (s) => s.label === "a", ["comment"]), hook("every")], [...events("a"), ...events("b")]);
    expect(heard.filter((h) => h.startsWith("mine"))).toEqual(["mine start a", "mine comment a : hi", "mine event a 1", "mine end a"]);
    const every = (l: string) => [`every start ${l}`, `every comment ${l} : hi`, `every data ${l} data: 1`, `every event ${l} 1`, `every blank ${l} `, `every end ${l}`];
    expect(heard.filter((h) => h.startsWith("every"))).toEqual([...every("a"), ...every("b")]);
  });

  it("call a WebSocket frame hook only for the classes it reads, once per frame decoded for all", () => {
    let decoded = 0;
    const WS = wsConnectionView<number>({
      name: "test/ws-tagged",
      decode: (ev) => (decoded++, Number(ev.data)),
      tag: (v, ev) => `${ev.direction} ${v % 2 ? "odd" : "even"}`,
    });
    const seen: Record<string, string[]> = { odd: [], all: [], opened: [] };
    const frames = (id: "odd" | "all", only?: string[]) =>
      check(id, () => WS.on({ ...(only ? { only } : {}), frame: (ev, v) => void seen[id]!.push(`${ev.direction} ${v}`) }));
    // A check that reads no frames is not called for them (nor counted as a reader).
    const opens = check("opened", () => WS.on({ open: (_ev, c) => void seen.opened!.push(c.label) }));
    const w = { probe: "p", connection: "w1" };
    const frame = (direction: "in" | "out", data: string): NewEvent => ({ kind: "ws-frame", ...w, direction, binary: false, data });
    run(
      [frames("odd", ["in odd", "out odd"]), frames("all"), opens],
      [{ kind: "ws-open", ...w, url: "ws://x", label: "main" }, frame("out", "1"), frame("in", "2"), frame("in", "3"), frame("out", "4"), { kind: "ws-close", ...w, by: "kit" }],
    );
    expect(seen).toEqual({ odd: ["out 1", "in 3"], all: ["out 1", "in 2", "in 3", "out 4"], opened: ["main"] });
    expect(decoded).toBe(4);
  });

  it("confine a throwing hook to its own check", () => {
    const EX = exchangeView({ name: "test/exchanges", errorBodyFromLines: () => false });
    const seen: string[] = [];
    const results = run(
      [
        check("broken", () => EX.on(() => {
          throw new Error("bug in the rule");
        })),
        check("fine", () => EX.on((x) => seen.push(x.id))),
      ],
      [...stream("x1", []), ...stream("x2", [])],
    );
    expect(seen).toEqual(["x1", "x2"]);
    const broken = results.find((r) => r.id === "broken")!;
    expect(broken.verdict).toBe("incomplete");
    expect(broken.message).toMatch(/internal error in check: .*bug in the rule/);
    expect(results.find((r) => r.id === "fine")!.verdict).toBe("pass");
  });

  it("report a throwing hook by its message, without the kit's stack", () => {
    const EX = exchangeView({ name: "test/exchanges", errorBodyFromLines: () => false });
    const results = run(
      [
        check("bug", () => EX.on(() => {
          throw new TypeError("x.indexOf is not a function");
        })),
        check("overflow", () => EX.on(() => {
          const f = (n: number): number => (n > 1e7 ? n : f(n + 1) + 1);
          f(0);
        })),
        check("thrown-string", () => EX.on(() => {
          throw "plain";
        })),
      ],
      [...stream("x1", [])],
    );
    const by = (id: string) => results.find((r) => r.id === id)!;
    expect(by("bug").message).toBe("internal error in check: x.indexOf is not a function");
    expect(by("overflow").message).toBe("internal error in check: Maximum call stack size exceeded");
    expect(by("thrown-string").message).toBe("internal error in check: plain");
    for (const r of results) {
      expect(r.verdict).toBe("incomplete");
      expect(r.message).not.toMatch(/\n\s*at |\.[jt]s:\d+/);
      expect(JSON.stringify(r.evidence)).not.toMatch(/\n\s*at /);
    }
  });

  it("deliver an event to views of lower rank first, whatever order the checks subscribed in", () => {
    const order: string[] = [];
    const view = (name: string, rank: number): ViewDef<() => void> => ({
      name,
      rank,
      kinds: ["note"],
      create: () => {
        const fns: (() => void)[] = [];
        return { add: (fn) => void fns.push(fn), observe: () => fns.forEach((f) => f()) };
      },
    });
    const late = view("late", 0);
    const early = view("early", -1);
    run(
      [check("a", () => all(on(late, () => order.push("late")), on(early, () => order.push("early")), tap(["note"], () => order.push("raw"))))],
      [{ kind: "note", probe: "p", name: "n", value: 1 }],
    );
    expect(order).toEqual(["early", "late", "raw"]);
  });

  it("hand each snapshot of a poll series over with the previous one, keeping no history", () => {
    const EX = exchangeView({ name: "test/polls", errorBodyFromLines: () => false });
    const POLLS = pollSeriesView(EX, {
      name: "test/state",
      series: (x: Exchange) => (x.path === "/state" ? "state" : undefined),
      decode: (x: Exchange) => (Array.isArray((x.json as { history?: unknown })?.history) ? (x.json as { history: string[] }).history : undefined),
    });
    const pairs: string[] = [];
    const misses: string[] = [];
    const t = new Tally();
    const append = check(
      "append-only",
      () =>
        POLLS.on({
          snapshot: (next, prev) => {
            pairs.push(`${prev?.n ?? "-"}→${next.n}`);
            if (prev && next.value.length < prev.value.length) t.fail("no shrink", `${prev.value.length} → ${next.value.length}`);
            else t.ok();
          },
          miss: (x) => misses.push(x.id),
        }),
      () => t.outcome("grew").message,
    );
    const poll = (id: string, body: string): NewEvent[] => [
      { kind: "http-request", ...ref(id, "poll"), method: "GET", url: "http://x/state", path: "/state", headers: {} },
      { kind: "http-response", ...ref(id, "poll"), status: 200, headers: { "content-type": "application/json" } },
      { kind: "body-end", ...ref(id, "poll"), reason: "eof", bytes: body.length, text: body },
    ];
    run([append], [...poll("p1", '{"history":[]}'), ...poll("p2", '{"history":["a"]}'), ...poll("p3", "garbage"), ...poll("p4", '{"history":[]}')]);
    expect(pairs).toEqual(["-→0", "0→1", "1→2"]);
    expect(misses).toEqual(["p3"]);
    expect(t.failures).toBe(1);
  });

  it("parse a body once for the exchange view and the poll series derived from it", () => {
    const EX = exchangeView({ name: "test/polls-once", errorBodyFromLines: () => false });
    const POLLS = pollSeriesView(EX, { name: "test/state-once", series: () => "state", decode: (x: Exchange) => x.json as object });
    const seen: unknown[] = [];
    const both = check("both", () => all(EX.on((x) => seen.push(x.json)), POLLS.on({ snapshot: (next) => seen.push(next.value) })));
    const r = ref("q1", "poll");
    const parse = JSON.parse;
    let parsed = 0;
    JSON.parse = (text: string) => (parsed++, parse(text));
    try {
      run(
        [both],
        [
          { kind: "http-request", ...r, method: "GET", url: "http://x/state", path: "/state", headers: {} },
          { kind: "http-response", ...r, status: 200, headers: { "content-type": "application/json" } },
          { kind: "body-end", ...r, reason: "eof", bytes: 14, text: '{"history":[]}' },
        ],
      );
    } finally {
      JSON.parse = parse;
    }
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    expect(parsed).toBe(1);
  });
});
