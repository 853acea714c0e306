/** trpc/*: envelopes, superjson Dates, answers, subscriptions, parse errors, unknown procedures, keep-alive (§1). */
import type { CheckContext, CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { C, isProtocolConnection, M, NOTE } from "../labels.js";
import {
  all,
  callOf,
  cutOf,
  datedValueOf,
  datePaths,
  JSON_FRAMES,
  errorData,
  frameEvidence,
  idKey,
  isObject,
  isSubscription,
  mayCarryDates,
  onFrames,
  onMutations,
  onNote,
  resultOf,
  rpc,
  serverCheck,
  showReq,
  showResult,
  taggedDate,
  where,
  WIRE,
  type Conn,
  type DatedValue,
  type FrameEvent,
  type Json,
  type RpcRequest,
} from "./support.js";
import { endThen } from "../../../core/checks/check.js";

const MUTATION_MS = 10_000;
const PONG_MS = 5_000;
const PING_AFTER_MS = 35_000;
/** The keep-alive rules read PING and PONG only: a chat's stream of messages passes them by. */
const KEEPALIVE = { only: ["in keepalive", "out keepalive"] } as const;

/** A tRPC id as a map key: as sent when usable (a Map tells 1 from "1"), otherwise one key for every unusable id. */
const keyOf = (id: unknown): unknown => (idKey(id) === undefined ? undefined : id);

/** The result branch of TrpcResponse (its two other branches are an error and the reconnect notice). */
const RESULT_BRANCH = "trpc-response#/$defs/result";

/**
 * Whether a server message holds TrpcResponse, judged against its result branch alone: that branch allows no key but
 * `id`, `jsonrpc` and `result`, and the other two require `error` or `method`, so a message the branch holds is one
 * the whole union holds, without ajv trying (and building errors for) the other two on every frame. Only a pass is
 * taken from here; anything else is validated whole, which gives the finding.
 */
export function responseHolds(validate: CheckContext["validate"], v: Json): boolean {
  return "result" in v && validate(RESULT_BRANCH, v).ok;
}

export const TRPC_CHECKS: CheckDef[] = [
  serverCheck("stagewise-chat/trpc/response-envelope", (t, ctx) => {
    /** Subscriptions sent, by connection and then id as sent (a Map tells 1 from "1"): false until their `started`. */
    const subs = new Map<string, Map<unknown, boolean>>();
    const mine = (c: Conn) => {
      let m = subs.get(c.id);
      if (!m) subs.set(c.id, (m = new Map()));
      return m;
    };
    return {
      observe: onFrames((ev, f, c) => {
        if (f.kind !== "json") return;
        if (ev.direction === "out") {
          for (const v of f.values) if (v.method === "subscription") mine(c).set(keyOf(v.id), false);
          return;
        }
        for (const v of f.values) {
          if (!responseHolds(ctx.validate, v)) {
            const check = ctx.validate("trpc-response", v);
            if (!check.ok) {
              t.fail("a tRPC response", `${formatSchemaErrors(check.errors)} at ${where(ev, c)}`, frameEvidence(ev));
              continue;
            }
          }
          const r = resultOf(v);
          if (r.kind === "reconnect") continue;
          const ids = mine(c);
          const k = keyOf(r.id);
          if (r.kind === "started") ids.set(k, true);
          else if (r.kind === "data" && ids.get(k) === false) {
            ids.delete(k);
            t.fail("`started` before a subscription's first data", `data before started at ${where(ev, c)}`, frameEvidence(ev));
            continue;
          }
          if (r.kind === "data" && !r.envelope.ok) {
            t.fail("result.data as a superjson envelope {json, meta?}", `${r.envelope.reason} at ${where(ev, c)}`, frameEvidence(ev));
            continue;
          }
          t.ok();
        }
      }),
      finish: () => t.outcome("every server message was a tRPC response; started came first", "the server sent no message"),
    };
  }),
  serverCheck("stagewise-chat/trpc/date-annotations", (t) => {
    /** Per connection, the subscriptions whose values hold Dates (by tRPC id as sent): what their values are. */
    const dated = new Map<string, Map<unknown, DatedValue>>();
    return {
      observe: WIRE.on({
        accept: isProtocolConnection,
        only: JSON_FRAMES,
        frame: (ev, f, c) => {
          if (f.kind !== "json") return;
          if (ev.direction === "out") {
            for (const v of f.values) {
              if (v.method !== "subscription") continue;
              const kind = datedValueOf(callOf(v).path, "result");
              const mine = dated.get(c.id);
              if (kind) (mine ?? dated.set(c.id, new Map()).get(c.id)!).set(keyOf(v.id), kind);
              else mine?.delete(keyOf(v.id));
            }
            return;
          }
          const mine = dated.get(c.id);
          if (!mine || !mayCarryDates(ev)) return;
          for (const v of f.values) {
            const r = resultOf(v);
            if (r.kind !== "data" || !r.envelope.ok) continue;
            // Only the Dates §2 places in what this subscription yields: a mutation's result holds none.
            const kind = mine.get(keyOf(r.id));
            if (!kind) continue;
            const paths = datePaths(r.envelope.value, kind);
            if (!paths.length) continue;
            const untagged = paths.filter((p) => !taggedDate(r.envelope.ok ? r.envelope.meta : undefined, p));
            if (untagged.length)
              t.fail(
                `meta.values["${untagged[0]}"] = ["Date"]`,
                `${untagged.length} Date field(s) untagged (first: ${untagged[0]}) at ${where(ev, c)}`,
                frameEvidence(ev),
              );
            else t.ok();
          }
        },
        close: (_ev, c) => void dated.delete(c.id),
      }),
      finish: () => t.outcome("every Date field was tagged Date", "no result carried a Date"),
    };
  }),
  serverCheck("stagewise-chat/trpc/mutation-answered", (t) => {
    const m = onMutations({
      answer: (req, ev, _r, ms) =>
        ms > MUTATION_MS ? t.failLate(ev.t, ms - MUTATION_MS, `an answer within ${MUTATION_MS} ms`, `${showReq(req)} answered after ${Math.round(ms)} ms`, frameEvidence(ev)) : t.ok(),
      missing: (req, why, byKit) => (byKit ? t.untestable(`${showReq(req)}: ${why}`) : t.fail("one answer", `${showReq(req)}: ${why}`, frameEvidence(req.frame))),
    });
    const dup = rpc({
      response: (ev, _v, req, how, c) => {
        if (req && how === "duplicate" && req.type.startsWith("mutation "))
          t.fail("exactly one answer", `a second answer to ${showReq(req)} at ${where(ev, c)}`, frameEvidence(ev));
      },
    });
    return {
      observe: all(m.observe, dup.observe),
      finish: () => {
        m.end();
        return t.outcome("every mutation was answered once, in time", "no mutation was sent");
      },
    };
  }),
  serverCheck("stagewise-chat/trpc/subscription-stays-open", (t) => {
    const stopped = new Set<string>();
    /** Subscriptions that started: an error before `started` refuses a subscription, it does not end one. */
    const open = new WeakSet<RpcRequest>();
    const r = rpc({
      request: (req) => isSubscription(req) && stopped.delete(`${req.conn.id} ${req.id}`),
      response: (ev, value, req, _how, c) => {
        if (!req || !isSubscription(req)) return;
        const res = resultOf(value);
        // Judged when it ends, not when it starts: a subscription that started proves nothing yet.
        if (res.kind === "started") return void open.add(req);
        if (res.kind !== "stopped" && res.kind !== "error") return;
        if (!open.has(req)) return;
        open.delete(req);
        if (stopped.has(`${c.id} ${req.id}`)) return t.ok();
        t.fail(
          "the subscription stays open until the client stops it",
          `${showReq(req)} ended by the server: ${showResult(res)} at ${where(ev, c)}`,
          frameEvidence(ev),
        );
      },
      // Still open when the kit was done with the connection or the run ended: it stayed open. The server closing the
      // connection under it is the connection rules' finding; whether the subscription would have ended is unknown.
      unanswered: (req, why, ev) => {
        if (!open.has(req)) return;
        open.delete(req);
        if (why === "closed-by-server") t.untestable(`${showReq(req)} was still open when the server closed the connection`);
        // Cut at the kit's limit: what the server sent after the cut (an end of the subscription, maybe) was never read.
        else if (why === "closed-by-kit" && cutOf(ev)) t.untestable(`${showReq(req)} was still open when the kit stopped reading the connection${cutOf(ev)}`);
        else t.ok();
      },
    });
    return {
      observe: all(
        r.observe,
        onFrames((ev, f, c) => {
          if (ev.direction === "out" && f.kind === "json")
            for (const v of f.values) if (v.method === "subscription.stop") stopped.add(`${c.id} ${idKey(v.id)}`);
        }, { only: ["out json"] }),
      ),
      finish: () => {
        r.end();
        return t.outcome("no subscription ended unless the kit stopped it", "no subscription was started");
      },
    };
  }),
  serverCheck("stagewise-chat/trpc/parse-error", (t) => {
    /** Bad frames sent on each connection still waiting for their error. */
    const waiting = new Map<string, FrameEvent[]>();
    let usable: boolean | undefined;
    let sentBad = false;
    const pending = () => [...waiting.values()].flat();
    const closed = WIRE.on({
      accept: (l) => l === C.raw,
      close: (ev) => {
        if (ev.by === "server" && sentBad && usable !== true)
          t.fail("the socket stays usable after bad input", `the server closed it (code ${ev.code ?? "none"})`, { seq: ev.seq, probe: ev.probe });
      },
    });
    const frames = onFrames(
      (ev, f, c) => {
        if (ev.direction === "out") {
          if (ev.label === M.badJson || ev.label === M.noInput) {
            sentBad = true;
            waiting.set(c.id, [...(waiting.get(c.id) ?? []), ev]);
          }
          if (ev.label === M.afterBad) usable = false;
          return;
        }
        if (f.kind !== "json") return;
        for (const v of f.values) {
          if (v.id === null && "error" in v) {
            const sent = waiting.get(c.id)?.shift();
            if (!sent) continue;
            const r = resultOf(v);
            const code = r.kind === "error" ? r.error?.code : undefined;
            const name = errorData(r)?.code;
            if (code === -32700 && name === "PARSE_ERROR") t.ok();
            else t.fail("code -32700, data.code PARSE_ERROR", `${showResult(r)} for [${sent.label}] at ${where(ev, c)}`, frameEvidence(ev));
          } else if (usable === false && c.label === C.raw) {
            const r = resultOf(v);
            if (r.kind === "data" || r.kind === "started") usable = true;
          }
        }
      },
      { all: true },
    );
    return {
      observe: all(frames, closed),
      finish: () => {
        for (const ev of pending()) t.fail("an error with id null", `no PARSE_ERROR answer to [${ev.label}]`, frameEvidence(ev));
        if (usable === false && t.wasExercised) t.fail("the socket stays usable after bad input", "a subscription after the bad frames got no answer");
        return t.outcome("bad frames got PARSE_ERROR and the socket stayed usable", "no bad frame was sent");
      },
    };
  }),
  serverCheck("stagewise-chat/trpc/unknown-procedure", (t) => {
    const mine = (req: RpcRequest) => req.label === M.unknownPath || req.label === M.wrongKind;
    const seen = new Set<RpcRequest>();
    const r = rpc({
      response: (ev, value, req, how, c) => {
        if (!req || !mine(req) || seen.has(req)) return;
        seen.add(req);
        const res = resultOf(value);
        const d = errorData(res);
        if (res.kind === "error" && d?.code === "NOT_FOUND" && res.error?.code === -32004 && how === "exact") t.ok();
        else t.fail("error NOT_FOUND (-32004) with the request's id", `${showResult(res)} for ${showReq(req)} at ${where(ev, c)}`, frameEvidence(ev));
      },
      unanswered: (req, why, ev) => {
        if (!mine(req) || seen.has(req)) return;
        // The kit closed the connection while it still waited: the answer may have been on its way.
        if (why === "closed-by-kit" && req.timedOut === undefined) t.untestable(`${showReq(req)}: the kit closed the connection${cutOf(ev)} before an answer`);
        else t.fail("error NOT_FOUND (-32004)", `no answer to ${showReq(req)}`, frameEvidence(req.frame));
      },
    });
    return endThen(r, () => t.outcome("unknown paths and wrong kinds got NOT_FOUND", "no unknown procedure was called"));
  }),
  serverCheck("stagewise-chat/trpc/keepalive-pong", (t) => {
    const pings = new Map<string, FrameEvent>();
    return {
      observe: onFrames((ev, f, c) => {
        if (ev.direction === "out" && f.kind === "keepalive" && f.text === "PING") pings.set(c.id, ev);
        else if (ev.direction === "in" && f.kind === "keepalive" && f.text === "PONG") {
          const ping = pings.get(c.id);
          if (!ping) return;
          pings.delete(c.id);
          if (ev.t - ping.t > PONG_MS) t.failLate(ev.t, ev.t - ping.t - PONG_MS, `PONG within ${PONG_MS} ms`, `PONG after ${Math.round(ev.t - ping.t)} ms`, frameEvidence(ev));
          else t.ok();
        }
      }, KEEPALIVE),
      finish: () => {
        for (const ping of pings.values()) t.fail(`PONG within ${PONG_MS} ms`, "no PONG", frameEvidence(ping));
        return t.outcome("PING got PONG", "no PING was sent");
      },
    };
  }),
  serverCheck("stagewise-chat/trpc/keepalive-ping", (t) => {
    /** How long after the silent connection opened its first PING came (judged against the note's limit). */
    let pingedAfter: { ms: number; ev: FrameEvent } | undefined;
    let judged = false;
    const judgePing = (limit: number, p: { ms: number; ev: FrameEvent }) => {
      judged = true;
      if (p.ms > limit) t.failLate(p.ev.t, p.ms - limit, `PING within ${limit} ms of silence`, `PING after ${Math.round(p.ms)} ms`, frameEvidence(p.ev));
      else t.ok();
    };
    return {
      observe: all(
        onFrames((ev, f, c) => {
          if (c.label !== C.silent) return;
          if (ev.direction === "in" && f.kind === "keepalive" && f.text === "PING" && !pingedAfter) pingedAfter = { ms: ev.t - c.openedAt, ev };
        }, KEEPALIVE),
        onNote(NOTE.silent, (v) => {
          if (!isObject(v)) return;
          // The limit the probes waited for: 35 s unless a proof against a quick mock shortened it.
          const limit = typeof v.pingAfterMs === "number" ? v.pingAfterMs : PING_AFTER_MS;
          const waited = Number(v.waitedMs);
          if (pingedAfter) judgePing(limit, pingedAfter);
          else if (waited >= limit) t.fail(`PING within ${limit} ms of silence`, `no PING in ${waited} ms of silence`);
          else t.untestable(`the silent connection waited ${waited} ms, less than the ${limit % 1000 === 0 ? `${limit / 1000} s` : `${limit} ms`} this needs (run without --no-ping-wait)`);
        }),
      ),
      finish: () => {
        // A PING seen although the probes stopped before their note: judged by the contract's limit.
        if (pingedAfter && !judged) judgePing(PING_AFTER_MS, pingedAfter);
        return t.outcome("the server pinged the silent connection", "the silent connection was not opened");
      },
    };
  }),
];
