/** state/*, messaging/*, security/ws-foreign-origin and security/bind-address (§1, §3 r15–r18, §5). */
import type { CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import type { AgentMessageUpdate } from "../../../generated/stagewise-chat.js";
import { tap } from "../../../core/views/hooks.js";
import { cutByKit } from "../../../core/transport/ws-limits.js";
import { applyMessageUpdate, compareMessagingStates, type MessagingState } from "../../../stagewise/messaging-state.js";
import { describeViolation } from "../../../stagewise/reduced.js";
import { C, M, NOTE, X } from "../labels.js";
import {
  all,
  describeExchange,
  errorData,
  exchangeEvidence,
  frameEvidence,
  idKey,
  isObject,
  isSubA,
  JSON_FRAMES,
  onChatSubs,
  onFrames,
  onInfo,
  onMutations,
  onNote,
  resultOf,
  serverCheck,
  showReq,
  showResult,
  showSub,
  where,
  WIRE,
  type Conn,
  type FrameEvent,
} from "./support.js";
import { endThen } from "../../../core/checks/check.js";

const FIRST_VALUE_MS = 1_000;
const COHERENT_MS = 1_000;
const WORKING_STATES = new Set(["thinking", "working", "calling_tool", "waiting_for_user_response"]);

/** Data values of the subscriptions whose request label `match`es: (value, frame, subscription key, first?). */
function onSubscriptionData(
  match: (label: string | undefined) => boolean,
  fn: (value: unknown, ev: FrameEvent, key: string, first: boolean, sentAt: FrameEvent, c: Conn) => void,
) {
  // By connection, then by tRPC id as sent (a Map tells 1 from "1", as idKey does; any other id is one key, undefined):
  // every frame of every connection is looked up here, so without building a key string for it.
  const subs = new Map<string, Map<unknown, { sent: FrameEvent; n: number; key: string }>>();
  const idOf = (id: unknown) => (typeof id === "number" || typeof id === "string" ? id : undefined);
  return onFrames((ev, f, c) => {
    if (f.kind !== "json") return;
    for (const v of f.values) {
      if (ev.direction === "out") {
        if (v.method === "subscription" && match(ev.label)) {
          let mine = subs.get(c.id);
          if (!mine) subs.set(c.id, (mine = new Map()));
          mine.set(idOf(v.id), { sent: ev, n: 0, key: `${c.id} ${idKey(v.id)}` });
        }
        continue;
      }
      const s = subs.get(c.id)?.get(idOf(v.id));
      if (!s) continue;
      const r = resultOf(v);
      if (r.kind !== "data") continue;
      fn(r.value, ev, s.key, s.n++ === 0, s.sent, c);
    }
  }, { only: JSON_FRAMES });
}

/** Hooks on what the kit sent (any frame it sent). */
const SENT = { only: ["out json", "out keepalive", "out bad"] } as const;

const isMessagingSub = (l: string | undefined) => !!l && l.startsWith("sub:messaging");

export const SIDE_CHECKS: CheckDef[] = [
  serverCheck("stagewise-chat/state/initial-values", (t, ctx) => {
    const waiting = new Map<string, FrameEvent>();
    const schema = (l: string | undefined) => (l === M.subAvailability ? "agent-availability" : "agent-state");
    return {
      observe: all(
        onFrames((ev) => ev.direction === "out" && (ev.label === M.subAvailability || ev.label === M.subState) && waiting.set(ev.label, ev), SENT),
        onSubscriptionData(
          (l) => l === M.subAvailability || l === M.subState,
          (value, ev, _k, first, sent) => {
            if (!first) return;
            waiting.delete(sent.label!);
            const v = ctx.validate(schema(sent.label), value);
            if (!v.ok) return t.fail(`a valid ${schema(sent.label)}`, `${formatSchemaErrors(v.errors)} (${sent.label})`, frameEvidence(ev));
            if (ev.t - sent.t > FIRST_VALUE_MS)
              return t.failLate(ev.t, ev.t - sent.t - FIRST_VALUE_MS, `a value within ${FIRST_VALUE_MS} ms`, `after ${Math.round(ev.t - sent.t)} ms (${sent.label})`, frameEvidence(ev));
            t.ok();
          },
        ),
        // The kit cut the connection (its size or flood cap) before a value came: not the agent's silence.
        tap(["ws-close"], (ev) => {
          if (ev.kind !== "ws-close" || ev.by !== "kit") return;
          // At a cap the kit left bytes unread: a value may wait behind them however long the cut took (a loaded
          // machine reads a 100 MB frame's head late). Any other cut after the wait is the agent's silence.
          const unread = cutByKit(ev) !== undefined;
          for (const [label, sent] of waiting) {
            if (sent.connection !== ev.connection || (ev.t - sent.t > FIRST_VALUE_MS && !unread)) continue;
            waiting.delete(label);
            t.untestable(`the kit closed the connection before a value for ${label} was read${ev.cause ? ` (${ev.cause})` : ""}`);
          }
        }),
      ),
      finish: () => {
        for (const [label, ev] of waiting) t.fail(`a value within ${FIRST_VALUE_MS} ms`, `no value for ${label}`, frameEvidence(ev));
        return t.outcome("availability and state answered valid values at once", "neither was subscribed");
      },
    };
  }),
  serverCheck("stagewise-chat/state/coherent-with-chat", (t) => {
    let chat: boolean | undefined;
    let state: boolean | undefined;
    /** Since when the two disagree (undefined: they agree). */
    let since: FrameEvent | undefined;
    let judged = false;
    /** The current working period of the chat, and whether state said working during it. */
    let period: { start: FrameEvent; mirrored: boolean } | undefined;
    const update = (ev: FrameEvent) => {
      if (chat === undefined || state === undefined) return;
      if (chat && !period) period = { start: ev, mirrored: state };
      if (chat && state && period) period.mirrored = true;
      if (!chat && period) {
        // A turn shorter than the 1 s allowance still has to show in state at some point.
        const ended = period;
        period = undefined;
        if (!ended.mirrored) {
          since = undefined;
          return t.fail(
            "state working while the chat works",
            `state stayed idle through ${Math.round(ev.t - ended.start.t)} ms of isWorking`,
            frameEvidence(ended.start),
          );
        }
      }
      if (chat === state) {
        if (since && ev.t - since.t > COHERENT_MS)
          t.fail(`state within ${COHERENT_MS} ms of isWorking`, `they disagreed for ${Math.round(ev.t - since.t)} ms`, frameEvidence(since));
        else if (since || !judged) t.ok();
        judged = true;
        since = undefined;
      } else since ??= ev;
    };
    return {
      observe: all(
        onChatSubs({
          snapshot: (sub) => {
            if (isSubA(sub) && sub.state) chat = sub.state.isWorking;
          },
          delta: (sub, f) => {
            if (!isSubA(sub) || f.update?.type !== "agent-state") return;
            chat = f.update.isWorking;
            update(f.ev);
          },
          end: (sub, ev, how) => {
            // Without A the chat's flag is no longer known: what follows is subscription-stays-open's finding.
            if (!isSubA(sub) || !sub.started || sub.stoppedByClient || (how === "closed" && !(ev.kind === "ws-close" && ev.by === "server"))) return;
            chat = undefined;
            since = undefined;
            period = undefined;
            t.knockOn("stagewise-chat/trpc/subscription-stays-open", `${showSub(sub)} (${how})`);
          },
        }),
        onSubscriptionData(
          (l) => l === M.subState,
          (value, ev) => {
            if (!isObject(value)) return;
            state = WORKING_STATES.has(String(value.state));
            update(ev);
          },
        ),
      ),
      finish: () => {
        if (since) t.fail(`state within ${COHERENT_MS} ms of isWorking`, "they disagreed at the end of the run", frameEvidence(since));
        return t.outcome("state mirrored isWorking", "state and the chat were not both followed");
      },
    };
  }),
  serverCheck("stagewise-chat/messaging/update-shape", (t, ctx) => {
    return {
      observe: onSubscriptionData(isMessagingSub, (value, ev, _k, _first, _s, c) => {
        const v = ctx.validate("agent-message-update", value);
        if (v.ok) t.ok();
        else t.fail("an AgentMessageUpdate", `${formatSchemaErrors(v.errors)} at ${where(ev, c)}`, frameEvidence(ev));
      }),
      finish: () => t.outcome("every messaging update matched", "messaging sent no update"),
    };
  }),
  serverCheck("stagewise-chat/messaging/initial-resync", (t) => {
    return {
      observe: onSubscriptionData(isMessagingSub, (value, ev, _k, first, sent) => {
        if (!first) return;
        if (isObject(value) && value.resync === true) t.ok();
        else t.fail("resync:true first", `resync:${JSON.stringify(isObject(value) ? value.resync : value)} (${sent.label})`, frameEvidence(ev));
      }),
      finish: () => t.outcome("every messaging subscription started with a resync", "messaging was not subscribed"),
    };
  }),
  serverCheck("stagewise-chat/messaging/no-replay", (t) => {
    const counts = new Map<string, { n: number; ev: FrameEvent }>();
    return {
      observe: onSubscriptionData(
        (l) => l === M.subMessagingB("after-turn"),
        (_v, ev, key) => {
          const c = counts.get(key);
          if (c) c.n++;
          else counts.set(key, { n: 1, ev });
        },
      ),
      finish: () => {
        for (const { n, ev } of counts.values()) {
          if (n === 1) t.ok();
          else t.fail("one frame (the resync)", `${n} frames`, frameEvidence(ev));
        }
        return t.outcome("a subscriber joining at rest got one frame", "no messaging subscription joined at rest");
      },
    };
  }),
  serverCheck("stagewise-chat/messaging/applicable", (t) => {
    const states = new Map<string, MessagingState | "broken">();
    return {
      observe: onSubscriptionData(isMessagingSub, (value, ev, key, _f, _s, c) => {
        const s = states.get(key) ?? null;
        if (s === "broken") return;
        const r = applyMessageUpdate(s, value as AgentMessageUpdate);
        if (r.ok) {
          states.set(key, r.state);
          t.ok();
        } else {
          states.set(key, "broken");
          t.fail("an update the messaging reducer applies", `${describeViolation(r.violation)} at ${where(ev, c)}`, frameEvidence(ev));
        }
      }),
      finish: () => t.outcome("every messaging update applied", "messaging sent no update"),
    };
  }),
  serverCheck("stagewise-chat/messaging/reduced-equals-fresh", (t) => {
    // Both are reduced leniently: an update that does not apply is messaging/applicable's, and is skipped here.
    let main: MessagingState = null;
    let mainKey: string | undefined;
    /** Updates the first subscriber got: the fresh one must have followed as many since its resync. */
    let mainCount = 0;
    let fresh: { state: MessagingState; key: string; first: FrameEvent; mainAt: number; updates: number } | undefined;
    const apply = (s: MessagingState, v: unknown): MessagingState => {
      const r = applyMessageUpdate(s, v as AgentMessageUpdate);
      return r.ok ? r.state : s;
    };
    /** At rest, when the kit leaves: what the first subscriber holds against what the fresh one was given. */
    const compare = () => {
      if (!fresh) return;
      const f = fresh;
      fresh = undefined;
      // The agent went on after the fresh subscriber joined, and its frames on the other socket are not all in yet:
      // the two are not at the same point, so nothing can be said of their equality.
      if (mainCount - f.mainAt > f.updates) {
        t.untestable(`the agent kept updating messaging after the fresh subscriber joined (${mainCount - f.mainAt} updates on the first subscription, ${f.updates} on the fresh one): not at rest`);
        return;
      }
      const d = compareMessagingStates(main, f.state);
      if (d) t.fail("the reduced message equal to the fresh subscriber's", d.message, frameEvidence(f.first));
      else t.ok();
    };
    return {
      observe: all(
        onSubscriptionData(isMessagingSub, (value, ev, key, first, sent) => {
          if (sent.label === M.subMessaging) {
            mainKey ??= key;
            if (key === mainKey) {
              main = apply(main, value);
              mainCount++;
            }
            return;
          }
          if (sent.label !== M.subMessagingB("after-turn")) return;
          if (first) fresh = { state: apply(null, value), key, first: ev, mainAt: mainCount, updates: 0 };
          else if (fresh?.key === key) {
            fresh.state = apply(fresh.state, value);
            fresh.updates++;
          }
        }),
        onFrames((ev) => ev.direction === "out" && ev.label === M.stop("messaging") && compare(), SENT),
      ),
      finish: () => {
        compare();
        return t.outcome("the reduced message equalled the fresh subscriber's", "no fresh messaging subscriber joined at rest");
      },
    };
  }),
  serverCheck("stagewise-chat/messaging/send-user-message", (t) => {
    const m = onMutations({
      answer: (req, ev, r) => {
        if (req.label === M.messagingSend) {
          if (r.kind === "data" && (r.value === undefined || r.value === null)) t.ok();
          else t.fail("a void result", `${showReq(req)} answered ${showResult(r)}`, frameEvidence(ev));
        } else if (req.label === M.messagingInvalid) {
          if (r.kind === "error" && errorData(r)?.code === "BAD_REQUEST") t.ok();
          // Refused as an internal error without a reason: the agent's errors are untyped (chat/reject-error-shape's finding).
          else if (r.kind === "error" && errorData(r)?.code === "INTERNAL_SERVER_ERROR" && errorData(r)?.reason === undefined)
            t.knockOn("stagewise-chat/chat/reject-error-shape", showReq(req));
          else t.fail("error BAD_REQUEST", `${showReq(req)} answered ${showResult(r)}`, frameEvidence(ev));
        }
      },
      missing: (req, why, byKit) => {
        if (req.label !== M.messagingSend && req.label !== M.messagingInvalid) return;
        if (byKit) t.untestable(`${showReq(req)}: ${why}`);
        else t.fail("an answer", `${showReq(req)}: ${why}`, frameEvidence(req.frame));
      },
    });
    return endThen(m, () => t.outcome("sendUserMessage took the valid message and refused the invalid one", "sendUserMessage was never sent"));
  }),
  serverCheck("stagewise-chat/security/ws-foreign-origin", (t) => {
    return {
      observe: WIRE.on({
        accept: (l) => l === C.foreignOrigin,
        open: (ev) =>
          t.fail("the upgrade refused for a foreign Origin", `accepted an upgrade with Origin ${ev.headers?.["origin"] ?? "?"}`, {
            seq: ev.seq,
            probe: ev.probe,
          }),
        reject: (ev) => (ev.status !== undefined ? t.ok() : t.untestable(`the upgrade failed: ${ev.error ?? "?"}`)),
      }),
      finish: () => t.outcome("a foreign Origin was refused", "no foreign upgrade was tried"),
    };
  }),
  serverCheck("stagewise-chat/security/bind-address", (t) => {
    return {
      observe: all(
        onNote(NOTE.lan, (v, ev) => {
          if (!isObject(v)) return;
          if (typeof v.reason === "string") return t.untestable(v.reason);
          if (v.loopbackTarget === false) t.fail("the agent on loopback only", "the target itself was reached on a non-loopback address", { seq: ev.seq });
        }),
        onInfo(t, X.infoLan, (x) => t.fail("no answer on a non-loopback address", `answered there: ${describeExchange(x)}`, exchangeEvidence(x))),
        // A refused connection is the answer this rule hopes for.
        onHttpError(X.infoLan, () => t.ok()),
      ),
      finish: () => t.outcome("the agent answered on loopback only", "no non-loopback address was tried"),
    };
  }),
];

/** An HTTP exchange of that label that failed at the transport (connection refused...). */
function onHttpError(label: string, fn: () => void) {
  const labels = new Map<string, string>();
  return tap(["http-request", "http-error"], (ev) => {
    if (ev.kind === "http-request") labels.set(ev.exchange, ev.label);
    else if (ev.kind === "http-error" && labels.get(ev.exchange) === label) fn();
  });
}
