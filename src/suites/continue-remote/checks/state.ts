/** §2 and §3: the snapshot and its entries validate, the queue length tells the truth, reads are pure. */
import type { CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { isBadInputLabel, isPollLabel, isSimpleLabel, L } from "../labels.js";
import { isCn } from "../profiles.js";
import { forgetLost, MessageTracker, type Accepted } from "./messages.js";
import {
  all,
  canon,
  envelope,
  sameEntry,
  sameJson,
  onExchanges,
  onPolls,
  onStates,
  readState,
  route,
  serverCheck,
  stateEvidence,
  Tally,
  tookIt,
  where,
  type State,
} from "./support.js";
import { freshEntries } from "./messages.js";

const VARIANT: Record<string, string> = { "tool-start": "tool-start-entry", "tool-result": "tool-result-entry", "tool-error": "tool-error-entry" };

/** The check a wrongly accepted bad-input or simple request belongs to: its acceptance left a message nobody meant to queue. */
export function acceptedBadInput(label: string): string | undefined {
  if (isSimpleLabel(label)) return "continue-remote/security/simple-request-no-effect";
  if (label.startsWith("bad-input:missing:")) return "continue-remote/bad-input/missing-or-empty-message";
  if (label.startsWith("bad-input:non-string:")) return "continue-remote/bad-input/non-string-message";
  if (label.startsWith("bad-input:unparseable:")) return "continue-remote/bad-input/unparseable-body";
  if (isBadInputLabel(label)) return "continue-remote/bad-input/unknown-route";
  return undefined;
}

export const STATE_CHECKS: CheckDef[] = [
  serverCheck("continue-remote/state/schema", (t, ctx) => {
    const observe = onPolls({
      snapshot(raw, n) {
        const r = envelope(ctx, raw);
        if (r.ok) t.ok();
        else
          t.fail(
            `a ${ctx.profile.name === "cn-session" ? "cn-session" : "seed"} state-response`,
            `${where({ n, x: raw.x })}: ${formatSchemaErrors(r.errors)}`,
            stateEvidence(raw, raw.json),
          );
      },
      miss: (x) => t.knockOn("continue-remote/wire/state-json", `${x.method} ${x.path} (${x.label}, status ${x.status ?? "none"})`),
    });
    return { observe, finish: () => t.outcome(`every snapshot (${t.count}) validated`, "no snapshot was read") };
  }),
  serverCheck("continue-remote/state/entry-schema", (t, ctx) => {
    const cn = isCn(ctx.profile);
    const message = cn ? "cn-session/chat-history-item" : "display-message";
    let prev: State | undefined;
    /** A bad-input message the server queued anyway: its user entry may carry a non-string content. */
    let queuedBad: { check: string; label: string } | undefined;
    const observe = all(
      onExchanges((x) => {
        const check = x.method === "POST" && route(x) === "/message" && tookIt(x) ? acceptedBadInput(x.label) : undefined;
        if (check) queuedBad ??= { check, label: x.label };
      }),
      onPolls({
        snapshot(raw, n) {
          const next = readState(raw, n, cn);
          for (const e of freshEntries(next, prev)) {
            const r = ctx.validate(message, e.raw);
            if (r.ok) {
              t.ok();
              continue;
            }
            const variant = cn ? undefined : VARIANT[e.kind];
            if (variant && !ctx.validate(variant, e.raw).ok) continue;
            if (queuedBad && e.role === "user") {
              t.knockOn(queuedBad.check, `${queuedBad.label}, whose user entry is entry ${e.index}`);
              continue;
            }
            t.fail(`entry ${e.index} a valid ${message}`, `${where(next)}: entry ${e.index}: ${formatSchemaErrors(r.errors)}`, stateEvidence(next, e.raw));
          }
          prev = next;
        },
      }),
    );
    return { observe, finish: () => t.outcome(`every entry seen (${t.count} entry versions) validated ${message}`, "no history entry was seen") };
  }),
  serverCheck("continue-remote/state/queue-length", (t, ctx) => {
    const tr = new MessageTracker();
    let off = false;
    let first = true;
    // A count below the waiting messages is either stale (they start later: this rule's failure)
    // or messages the server lost (processing/message-not-lost's, whose knock-on this is): it is
    // held until the messages it left out start or are found lost.
    let held: { fail: Parameters<Tally["fail"]>; missing: Accepted[]; at: string } | undefined;
    const settle = (lost: Accepted[]): void => {
      if (!held) return;
      if (held.missing.some((m) => lost.includes(m))) t.knockOn("continue-remote/processing/message-not-lost", held.at);
      else if (held.missing.every((m) => !tr.waiting.includes(m))) t.fail(...held.fail);
      else return;
      held = undefined;
    };
    const observe = all(
      tr.observe,
      onExchanges((x) => {
        if (off || x.method !== "POST") return;
        const bad = route(x) === "/message" && tookIt(x) ? acceptedBadInput(x.label) : undefined;
        if (bad) {
          t.knockOn(bad, `${x.label} (${x.status})`);
          off = true;
        } else if (x.label === L.postExit && tookIt(x)) off = true;
      }),
      onStates(ctx, {
        state(next, prev) {
          tr.started(next, prev, true);
          settle(forgetLost(tr, next));
          // The field is optional in the seed (legacy): a server without it takes the other branch.
          if (next.queue === undefined) t.notApplicable("the server does not send the optional messageQueueLength");
          if (off || next.queue === undefined) return;
          if (first) {
            first = false;
            if (next.queue !== 0) {
              t.untestable(`the first snapshot already showed ${next.queue} queued message(s) the kit did not send`);
              off = true;
              return;
            }
          }
          const expected = tr.waiting.length;
          if (next.queue === expected) return t.ok();
          const fail: Parameters<Tally["fail"]> = [
            `messageQueueLength ${expected} (accepted messages not started: ${tr.waiting.map((m) => JSON.stringify(m.text.slice(0, 30))).join(", ") || "none"})`,
            `${where(next)}: messageQueueLength ${next.queue}${next.isProcessing ? "" : " while idle"}`,
            stateEvidence(next, { messageQueueLength: next.queue, isProcessing: next.isProcessing }),
          ];
          if (next.queue > expected) t.fail(...fail);
          else if (!held) held = { fail, missing: [...tr.waiting], at: where(next) };
        },
      }),
    );
    return {
      observe,
      finish: () => {
        // Still unresolved at the end: the count was short while the messages waited.
        if (held) t.fail(...held.fail);
        return t.outcome(`messageQueueLength matched the accepted, unstarted messages in ${t.count} snapshot(s)`, "no snapshot carried messageQueueLength");
      },
    };
  }),
  serverCheck("continue-remote/state/idempotent-get", (t, ctx) => {
    const cn = isCn(ctx.profile);
    let prev: { n: number; body: unknown; x: import("./support.js").Exchange; state: State } | undefined;
    const observe = all(
      onExchanges((x) => {
        if (!(x.method === "GET" && isPollLabel(x.label))) prev = undefined;
      }),
      onPolls({
        snapshot(raw, n) {
          if (raw.json.isProcessing !== false) {
            prev = undefined;
            return;
          }
          const body = withoutSessionId(raw.json);
          const state = readState(raw, n, cn);
          if (prev) {
            if (sameJson(prev.body, body)) t.ok();
            else if (historyChanged(prev.state, state) || prev.state.queue !== state.queue || prev.state.pendingId !== state.pendingId)
              // The turn went on between two idle polls: isProcessing's business (true-while-handling), not a side effect of reading.
              t.untestable(`the history or queue changed between the idle polls ${where(prev)} and ${where({ n, x: raw.x })}: the server was still working`);
            else
              t.fail(
                `the same body as ${where(prev)}`,
                `${where({ n, x: raw.x })} differs from the idle poll before it with no request between: ${firstDifference(canon(prev.body), canon(body))}`,
                stateEvidence(raw, raw.json),
              );
          }
          prev = { n, body, x: raw.x, state };
        },
        miss: () => (prev = undefined),
      }),
    );
    return { observe, finish: () => t.outcome(`${t.count} pair(s) of idle polls were deep-equal`, "no two idle polls followed each other") };
  }),
];

const historyChanged = (a: State, b: State): boolean => a.entries.length !== b.entries.length || a.entries.some((e, i) => !sameEntry(e, b.entries[i]!));

/** The body without `session.sessionId` (a new id is judged by session/id-stable only, §3.17). */
function withoutSessionId(json: Record<string, unknown>): unknown {
  const s = json.session;
  if (!s || typeof s !== "object" || Array.isArray(s)) return json;
  const { sessionId: _id, ...rest } = s as Record<string, unknown>;
  return { ...json, session: rest };
}

/** Where two canonical texts part, with a little context. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 20);
  return `…${a.slice(from, i + 30)}… became …${b.slice(from, i + 30)}…`;
}
