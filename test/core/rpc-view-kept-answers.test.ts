/**
 * The request ↔ answer view keeps only the first answers of a request: a subscription answered by a long stream keeps
 * at most KEPT_ANSWERS frames, and counts the rest (memory must not grow with the stream).
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE, Tally, type CheckDef } from "../../src/core/checks/check.js";
import { Evaluation } from "../../src/core/verdicts/evaluation.js";
import type { TranscriptEvent } from "../../src/core/transcript/transcript.js";
import { KEPT_ANSWERS, rpcHooks, rpcView, type RpcProtocol, type RpcRequest } from "../../src/core/views/rpc.js";
import { wsConnectionView } from "../../src/core/views/ws-connection.js";

type Msg = Record<string, unknown> | undefined;
const conns = wsConnectionView<Msg>({ name: "kept/conns", decode: (ev) => JSON.parse(ev.data) as Msg });
/** Requests are {id}; answers {id, part} keep it open, {id, done} close it. */
const PROTO: RpcProtocol<Msg> = {
  name: "kept",
  connections: conns,
  key: (id) => (typeof id === "number" ? String(id) : undefined),
  outgoing: (_ev, m) => (m ? [{ kind: "request", rawId: m.id, hasId: true, type: "stream", value: m }] : []),
  incoming: (_ev, m) => (m ? [{ kind: "response", rawId: m.id, hasId: true, final: "done" in m, value: m }] : []),
};
const VIEW = rpcView(PROTO, { name: "" });

describe("core rpc view: answers kept per request", () => {
  it(`keeps the first ${KEPT_ANSWERS} answers of a long stream and counts them all`, () => {
    let seen: RpcRequest | undefined;
    const check: CheckDef = {
      id: "kept/log",
      level: "MUST",
      side: "server",
      title: "",
      rule: "",
      ref: { seed: "", section: "", quote: "" },
      probes: [],
      create() {
        const r = rpcHooks(VIEW, { response: (_ev, _v, req) => void (seen = req) });
        return { observe: r.observe, finish: () => (r.end(), new Tally().outcome("")) };
      },
    };
    const ev = new Evaluation([check], { protocol: "kept", profile: DEFAULT_PROFILE, params: {}, validate: () => ({ ok: true }) }, false);
    let seq = 0;
    const emit = (e: Record<string, unknown>) => ev.observe({ seq: seq, t: seq++, probe: "p", ...e } as TranscriptEvent);
    emit({ kind: "ws-open", connection: "w1", url: "ws://x", label: "a" });
    emit({ kind: "ws-frame", connection: "w1", direction: "out", binary: false, data: JSON.stringify({ id: 1 }) });
    const n = KEPT_ANSWERS * 10;
    for (let i = 0; i < n; i++) emit({ kind: "ws-frame", connection: "w1", direction: "in", binary: false, data: JSON.stringify({ id: 1, part: i }) });
    ev.finish();
    expect(seen?.answerCount).toBe(n);
    expect(seen?.answers).toHaveLength(KEPT_ANSWERS);
    expect(JSON.parse(seen!.answers[0]!.data)).toEqual({ id: 1, part: 0 });
  });
});
