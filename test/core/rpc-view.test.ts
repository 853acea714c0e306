/**
 * The core request ↔ answer view on a toy protocol: ids pair requests with answers per connection,
 * an answer closes its request only when the protocol says it is the last, a second answer to a
 * closed request is a duplicate, another connection's id is foreign, and requests left waiting are
 * reported when the connection closes or the transcript ends.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE, Tally, type CheckDef } from "../../src/core/checks/check.js";
import { Evaluation } from "../../src/core/verdicts/evaluation.js";
import type { TranscriptEvent } from "../../src/core/transcript/transcript.js";
import { rpcHooks, rpcView, type RpcMatch, type RpcProtocol, type RpcRequest } from "../../src/core/views/rpc.js";
import { wsConnectionView } from "../../src/core/views/ws-connection.js";

type Msg = Record<string, unknown> | undefined;
const conns = wsConnectionView<Msg>({ name: "toy/conns", decode: (ev) => JSON.parse(ev.data) as Msg });
/** Requests are {id, ask}; answers {id, part} (more to come) or {id, done}; anything else is an event. */
const TOY: RpcProtocol<Msg> = {
  name: "toy",
  connections: conns,
  key: (id) => (typeof id === "number" ? String(id) : undefined),
  outgoing: (_ev, m) => (m ? [{ kind: "request", rawId: m.id, hasId: "id" in m, type: String(m.ask), value: m }] : []),
  incoming: (_ev, m) => {
    if (!m) return [];
    if (!("id" in m)) return [{ kind: "event", value: m }];
    // A "stream" request stays open until `done`; any other closes on its first answer.
    return [{ kind: "response", rawId: m.id, hasId: true, final: "done" in m ? true : (req) => req.type !== "stream", value: m }];
  },
};
const VIEW = rpcView(TOY, { name: "" });

function run(events: Record<string, unknown>[], only?: (req: RpcRequest) => boolean) {
  const log: string[] = [];
  const check: CheckDef = {
    id: "toy/log",
    level: "MUST",
    side: "server",
    title: "",
    rule: "",
    ref: { seed: "", section: "", quote: "" },
    probes: [],
    create() {
      const r = rpcHooks(VIEW, {
        ...(only ? { only } : {}),
        request: (req) => log.push(`request ${req.id} ${req.type}`),
        response: (_ev, v, req, how: RpcMatch, c, final) =>
          log.push(`${c.label} answer ${JSON.stringify(v)} → ${req?.id ?? "-"} ${how}${final ? " final" : ""}`),
        unanswered: (req, why) => log.push(`unanswered ${req.id} ${why}`),
        event: (_ev, v) => log.push(`event ${JSON.stringify(v)}`),
      });
      return {
        observe: r.observe,
        finish: () => {
          r.end();
          return new Tally().outcome("");
        },
      };
    },
  };
  const ev = new Evaluation([check], { protocol: "toy", profile: DEFAULT_PROFILE, params: {}, validate: () => ({ ok: true }) }, false);
  events.forEach((e, i) => ev.observe({ seq: i, t: i, probe: "p", ...e } as TranscriptEvent));
  ev.finish();
  return log;
}

const open = (connection: string, label: string) => ({ kind: "ws-open", connection, url: "ws://x", label });
const out = (connection: string, m: unknown) => ({ kind: "ws-frame", connection, direction: "out", binary: false, data: JSON.stringify(m) });
const inn = (connection: string, m: unknown) => ({ kind: "ws-frame", connection, direction: "in", binary: false, data: JSON.stringify(m) });

describe("core rpc view", () => {
  it("keeps a stream open until its last answer, closes a call on its first, and flags what follows", () => {
    const log = run([
      open("w1", "a"),
      open("w2", "b"),
      out("w1", { id: 1, ask: "stream" }),
      out("w1", { id: 2, ask: "call" }),
      out("w2", { id: 3, ask: "call" }),
      inn("w1", { id: 1, part: "x" }),
      inn("w1", { id: 2, part: "y" }),
      inn("w1", { id: 2, part: "again" }),
      inn("w1", { id: 3, part: "z" }),
      inn("w1", { tick: true }),
      inn("w1", { id: 1, done: true }),
      { kind: "ws-close", connection: "w2", by: "server" },
    ]);
    expect(log).toEqual([
      "request 1 stream",
      "request 2 call",
      "request 3 call",
      'a answer {"id":1,"part":"x"} → 1 exact',
      'a answer {"id":2,"part":"y"} → 2 exact final',
      'a answer {"id":2,"part":"again"} → 2 duplicate final',
      'a answer {"id":3,"part":"z"} → - foreign final',
      'event {"tick":true}',
      'a answer {"id":1,"done":true} → 1 exact final',
      "unanswered 3 closed-by-server",
    ]);
  });

  it("tells a subscriber that follows some requests (only) of those alone: their request, answers and going unanswered", () => {
    const events = [
      open("w1", "a"),
      out("w1", { id: 1, ask: "stream" }),
      out("w1", { id: 2, ask: "call" }),
      out("w1", { id: 4, ask: "call" }),
      inn("w1", { id: 1, part: "x" }),
      inn("w1", { id: 2, part: "y" }),
      inn("w1", { id: 9, part: "stray" }),
      inn("w1", { tick: true }),
      out("w1", { id: 5, ask: "stream" }),
      { kind: "ws-close", connection: "w1", by: "kit" },
      open("w2", "b"),
      out("w2", { id: 6, ask: "call" }),
      out("w2", { id: 7, ask: "stream" }),
    ];
    const calls = run(events, (req) => req.type === "call");
    expect(calls).toEqual([
      "request 2 call",
      "request 4 call",
      'a answer {"id":2,"part":"y"} → 2 exact final',
      'event {"tick":true}',
      "unanswered 4 closed-by-kit",
      "request 6 call",
      "unanswered 6 end",
    ]);
    // Everything else is what a subscriber without `only` hears of those requests.
    const all = run(events);
    expect(all.filter((l) => /\b(1|5|7|9)\b/.test(l))).toEqual([
      "request 1 stream",
      'a answer {"id":1,"part":"x"} → 1 exact',
      'a answer {"id":9,"part":"stray"} → - unmatched final',
      "request 5 stream",
      "unanswered 1 closed-by-kit",
      "unanswered 5 closed-by-kit",
      "request 7 stream",
      "unanswered 7 end",
    ]);
    expect(all.filter((l) => !/\b(1|5|7|9)\b/.test(l))).toEqual(calls);
  });

  it("reports requests still waiting when the transcript ends", () => {
    expect(run([open("w1", "a"), out("w1", { id: 7, ask: "stream" }), inn("w1", { id: 7, part: 1 })]).at(-1)).toBe("unanswered 7 end");
  });
});
