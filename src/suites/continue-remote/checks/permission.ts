/** §3.11 Permission: a stable requestId, 400 for wrong answers, approve and deny that do what they say. */
import type { CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { L, TOPIC } from "../labels.js";
import { IdleWatch } from "./turns.js";
import {
  all,
  describe,
  evidenceOf,
  excerpt,
  judgeExchanges,
  sameEntry,
  onExchanges,
  onStates,
  requestJson,
  route,
  serverCheck,
  stateEvidence,
  tookIt,
  where,
  type Exchange,
  type State,
} from "./support.js";

const NEVER_ASKED = [TOPIC.permission];
const isAnswer = (x: Exchange): boolean => x.method === "POST" && route(x) === "/permission";
const answerOf = (x: Exchange): { requestId?: unknown; approved?: unknown } =>
  (requestJson(x) as { requestId?: unknown; approved?: unknown } | undefined) ?? {};
/** A tool-result that says it did not run. */
const DENIED = /denied|rejected|declined|not allowed|cancel/i;

/**
 * A rejected probe must change nothing: the poll after it still shows request `id` pending. Calls
 * `judge` with that next snapshot.
 */
function nextState(ctx: Parameters<CheckDef["create"]>[0], onNext: (x: Exchange, next: State) => void, match: (x: Exchange) => boolean) {
  let waiting: Exchange | undefined;
  return all(
    onExchanges((x) => {
      if (match(x)) waiting = x;
    }),
    onStates(ctx, {
      state(next) {
        if (!waiting) return;
        const x = waiting;
        waiting = undefined;
        onNext(x, next);
      },
    }),
  );
}

/** How long after an approval (ms) the probes must have watched before a turn that never went on is the server's fault. */
const RESUME_WATCH_MS = 2000;

export const PERMISSION_CHECKS: CheckDef[] = [
  serverCheck("continue-remote/permission/pending-shape", { notApplicableWhen: NEVER_ASKED }, (t, ctx) => {
    let answered = false;
    const watch = new IdleWatch<null>((fate, s) => {
      if (fate === "went-on") t.knockOn("continue-remote/processing/true-while-handling", where(s));
      else
        t.fail(
          "isProcessing true while a permission is pending",
          `${where(s)}: isProcessing false with ${s.pendingId} pending, and the turn did not go on`,
          stateEvidence(s, s.pending),
        );
    });
    const observe = all(
      watch.observe,
      onExchanges((x) => {
        if (isAnswer(x) && tookIt(x)) answered = true;
      }),
      onStates(ctx, {
        state(next, prev) {
          const wasAnswered = answered;
          answered = false;
          watch.next(next);
          if (!next.pending) return;
          const r = ctx.validate("pending-permission", next.pending);
          if (!r.ok) t.fail("a valid pending-permission", `${where(next)}: ${formatSchemaErrors(r.errors)}`, stateEvidence(next, next.pending));
          else if (!next.isProcessing) watch.hold(next, null);
          else if (prev?.pendingId && next.pendingId !== prev.pendingId && !wasAnswered) {
            t.fail(
              `requestId ${prev.pendingId} until it is answered`,
              `${where(next)}: the pending requestId became ${next.pendingId} with no answer since ${where(prev)}`,
              stateEvidence(next, next.pending),
            );
          } else t.ok();
        },
      }),
    );
    return {
      observe,
      finish: () => {
        watch.finish();
        return t.outcome(`${t.count} snapshot(s) with a pending permission were valid and stable`, "no snapshot had a pending permission");
      },
    };
  }),
  serverCheck("continue-remote/permission/wrong-id", (t, ctx) => {
    const observe = all(
      judgeExchanges(
        t,
        (x) => x.label === L.permissionIdle || x.label === L.permissionWrongId,
        (x) => {
          if (x.status === 400) t.ok();
          else t.fail("400 {error}", `${describe(x)} (${x.label === L.permissionIdle ? "nothing pending" : "a foreign requestId"})`, evidenceOf(x));
        },
      ),
      nextState(
        ctx,
        (x, next) => {
          const id = String(answerOf(x).requestId).replace(/^wrong-/, "");
          if (x.status === 400 && next.pendingId !== undefined && next.pendingId !== id) t.knockOn("continue-remote/permission/pending-shape", where(next));
          else if (x.status === 400 && next.pendingId !== id)
            t.fail(
              `request ${id} still pending after the refused answer`,
              `${where(next)}: pendingPermission is ${next.pendingId ?? "null"}`,
              stateEvidence(next, next.pending),
            );
        },
        (x) => x.label === L.permissionWrongId,
      ),
    );
    return { observe, finish: () => t.outcome(`${t.count} wrong answer(s) got 400`, "no wrong answer was sent") };
  }),
  serverCheck("continue-remote/permission/approve", { notApplicableWhen: NEVER_ASKED }, (t, ctx) => {
    let last: State | undefined;
    let waiting: { x: Exchange; id: string; base?: State; next?: State } | undefined;
    const observe = all(
      onExchanges((x) => {
        if (x.label !== L.permissionAnswer || answerOf(x).approved !== true) return;
        const body = x.isJson ? ctx.validate("permission-response", x.json) : undefined;
        const approved = (x.json as { approved?: unknown } | undefined)?.approved;
        if (x.status !== 200 || !body?.ok || approved !== true) {
          t.fail(
            "200 {success:true, approved:true}",
            `${describe(x)}: ${body && !body.ok ? formatSchemaErrors(body.errors) : `approved ${JSON.stringify(approved)}`}`,
            evidenceOf(x),
          );
          return;
        }
        waiting = { x, id: String(answerOf(x).requestId), ...(last ? { base: last } : {}) };
      }),
      onStates(ctx, {
        state(next) {
          last = next;
          const w = waiting;
          if (!w) return;
          if (!w.next) {
            w.next = next;
            if (next.pendingId === w.id) {
              t.fail(
                `request ${w.id} resolved by the next poll`,
                `${where(next)}: ${w.id} is still pending after the 200 (${w.x.id})`,
                stateEvidence(next, next.pending),
              );
              waiting = undefined;
              return;
            }
          }
          if (!w.base) {
            // No snapshot read before the answer: nothing shows whether the history moved since.
            t.untestable(`no snapshot before ${w.x.label} (${w.x.id}) to compare the history with`);
            waiting = undefined;
            return;
          }
          const base = w.base;
          const moved = next.entries.length !== base.entries.length || next.entries.some((e, i) => base.entries[i] && !sameEntry(base.entries[i]!, e));
          if (moved) {
            t.ok();
            waiting = undefined;
          }
        },
      }),
    );
    return {
      observe,
      finish: () => {
        if (waiting) {
          // The contract sets no time for the turn to go on: the server is blamed only once the probes watched a while.
          const answered = (waiting.x.end ?? waiting.x.request).t;
          const watched = (last?.at ?? answered) - answered;
          if (watched < RESUME_WATCH_MS)
            t.untestable(`the probes stopped polling ${Math.max(0, Math.round(watched))} ms after ${waiting.x.label} (${waiting.x.id}), before the turn could be seen going on`);
          else
            t.fail(
              `the turn to resume after approving ${waiting.id}`,
              `no later snapshot changed the history in the ${Math.round(watched)} ms after ${waiting.x.label} (${waiting.x.id})`,
              evidenceOf(waiting.x),
            );
        }
        return t.outcome(`${t.count} approval(s) resolved their request and the turn went on`, "no request was approved");
      },
    };
  }),
  serverCheck("continue-remote/permission/deny", { notApplicableWhen: [TOPIC.permission, TOPIC.deny] }, (t, ctx) => {
    let last: State | undefined;
    let waiting: { x: Exchange; start?: number; calls?: string[] } | undefined;
    const observe = all(
      onExchanges((x) => {
        if (x.label !== L.permissionAnswer || answerOf(x).approved !== false) return;
        const approved = (x.json as { approved?: unknown } | undefined)?.approved;
        if (x.status !== 200 || approved !== false) {
          t.fail("200 {success:true, approved:false}", `${describe(x)}: approved ${JSON.stringify(approved)}`, evidenceOf(x));
          return;
        }
        if (!last) return;
        const end = last.entries.at(-1);
        if (!last.cn) waiting = end?.kind === "tool-start" ? { x, start: end.index } : { x };
        else
          waiting = {
            x,
            calls: last.entries.flatMap((e) => e.states.filter((s) => ["generating", "generated", "calling"].includes(s.status)).map((s) => s.id)),
          };
        if (waiting.start === undefined && !waiting.calls?.length) {
          t.untestable(`the snapshot before ${x.label} (${x.id}) showed no waiting tool call to deny`);
          waiting = undefined;
        }
      }),
      onStates(ctx, {
        state(next) {
          last = next;
          const w = waiting;
          if (!w) return;
          if (w.start !== undefined) {
            const inPlace = next.entries[w.start];
            const after = next.entries[w.start + 1];
            const res =
              inPlace?.kind === "tool-result" ? inPlace : after && (after.kind === "tool-result" || after.kind === "tool-error") ? after : undefined;
            if (!res) return;
            waiting = undefined;
            if (res.kind === "tool-error" || DENIED.test(res.toolResult ?? "") || DENIED.test(res.content)) t.ok();
            else
              t.fail(
                "a result saying the tool was denied, or a tool-error",
                `${where(next)}: the denied tool resolved as ${excerpt(res.content, 40)} with toolResult ${excerpt(res.toolResult ?? "", 60)}`,
                stateEvidence(next, res.raw),
              );
            return;
          }
          const states = next.entries.flatMap((e) => e.states).filter((s) => w.calls!.includes(s.id));
          if (states.some((s) => ["generating", "generated", "calling"].includes(s.status))) return;
          waiting = undefined;
          const ran = states.filter((s) => s.status !== "canceled" && s.status !== "errored");
          if (ran.length)
            t.fail(
              "canceled or errored",
              `${where(next)}: the denied call ${ran.map((s) => `${s.id} is ${s.status}`).join(", ")}`,
              stateEvidence(next, ran[0]),
            );
          else t.ok();
        },
      }),
    );
    return {
      observe,
      finish: () => {
        if (waiting) t.untestable(`the denied tool had not resolved when polling stopped (${waiting.x.label})`);
        return t.outcome(`${t.count} denial(s) resolved the tool without running it`, "no request was denied");
      },
    };
  }),
  serverCheck("continue-remote/permission/approved-boolean", { notApplicableWhen: NEVER_ASKED }, (t, ctx) => {
    const isProbe = (x: Exchange) => x.label.startsWith("permission:non-boolean:");
    const observe = all(
      judgeExchanges(t, isProbe, (x) => {
        if (x.status === 400) t.ok();
        else
          t.fail(
            "400 {error}",
            `${describe(x)}: approved ${JSON.stringify(answerOf(x).approved)} was ${tookIt(x) ? "taken as an answer" : "not refused with 400"}`,
            evidenceOf(x),
          );
      }),
      nextState(
        ctx,
        (x, next) => {
          const id = String(answerOf(x).requestId);
          if (x.status === 400 && next.pendingId !== undefined && next.pendingId !== id) t.knockOn("continue-remote/permission/pending-shape", where(next));
          else if (x.status === 400 && next.pendingId !== id)
            t.fail(
              `request ${id} still pending`,
              `${where(next)}: pendingPermission is ${next.pendingId ?? "null"} after the refused ${x.label}`,
              stateEvidence(next, next.pending),
            );
        },
        isProbe,
      ),
    );
    return { observe, finish: () => t.outcome(`${t.count} non-boolean answer(s) got 400`, "no non-boolean answer was sent") };
  }),
];
