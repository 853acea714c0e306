/**
 * `continue-remote/client/*`: what a remote client (a terminal UI, a web page, a CI driver) sends
 * the mock, judged from the mock's record of it: when it polls, what it posts, which permission it
 * answers and how it shuts the server down. Requests are read as they arrive (for times and order);
 * finished exchanges come from the client exchange view, with the answer the client was served.
 *
 * Each mistake has one owner, so one client mistake fails one check: `exit-method` owns every
 * request to `/exit`, `known-routes` every other path; `message-json` owns the encoding of a
 * message, `message-nonempty` its text; `permission-request-id` owns the id and shape of an
 * answer, `permission-only-when-pending` whether there was anything (still) to answer.
 */
import { at, excerpt, type CheckContext, type CheckDef, type Evidence, type Outcome, type Tally } from "../../../core/checks/check.js";
import { is2xx, mediaType } from "../../../core/checks/check-helpers.js";
import { checkMaker, type CheckSpec } from "../../../core/checks/define-check.js";
import { tallyChecks } from "../../../core/checks/tally-rule.js";
import type { RunStop } from "../../../core/checks/run-stop.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import type { TranscriptEvent } from "../../../core/transcript/transcript.js";
import { acrossStates, crossedReason, crossingGrace, sinceShown } from "../../../core/checks/crossing.js";
import { lastEvent, type Exchange } from "../../../core/views/exchange.js";
import { all, tap } from "../../../core/views/hooks.js";
import { isCn } from "../profiles.js";
import {
  clientExchanges,
  isClientExchange,
  isClientRequest,
  isPoll,
  ms,
  profileRoute,
  requestJson,
  routeOf,
  SEED,
  servedStates,
  where,
  type RequestEvent,
  type ServedState,
} from "./traffic.js";

const clientCheck = checkMaker({ seed: SEED, side: "client" });
/** A client rule judged on one Tally: the record, what a pass says, and its hooks. */
const clientRule = tallyChecks(clientCheck);

/** How long a client may leave a due poll, and may go on calling after `/exit` (contract §4). */
export const POLL_DUE_MS = 2000;
export const AFTER_EXIT_MS = 2000;
/** A median poll interval below this floods the server (the removed `cn remote` polled every 500 ms). */
export const MIN_MEDIAN_INTERVAL_MS = 100;
/** A poll unanswered for longer than this is no longer in flight (the kit's request timeout). */
const IN_FLIGHT_MS = 10_000;
/** Served states kept to find the one shown before a request (answers are recorded in order). */
const SERVED_KEPT = 64;

/** Requests as they arrive, client traffic only. */
const onRequests = (fn: (req: RequestEvent) => void) =>
  tap(["http-request"], (e: TranscriptEvent) => {
    if (isClientRequest(e)) fn(e);
  });

/** Finished client exchanges. */
const onExchanges = (fn: (x: Exchange) => void) =>
  clientExchanges.on((x) => {
    if (isClientExchange(x)) fn(x);
  });

const isPost = (x: Exchange, route: string) => x.method === "POST" && routeOf(x.path) === route;

/** The states a client was served, in the order their answers were recorded (the last few). */
class ServedLog {
  private readonly list: ServedState[] = [];
  /** The first state that showed a pending permission. */
  firstPending: ServedState | undefined;

  add(s: ServedState): void {
    this.list.push(s);
    if (this.list.length > SERVED_KEPT) this.list.shift();
    if (s.pending !== null) this.firstPending ??= s;
  }

  /** The last state served before the event `seq`. */
  before(seq: number): ServedState | undefined {
    for (let i = this.list.length - 1; i >= 0; i--) if (this.list[i]!.seq < seq) return this.list[i];
    return undefined;
  }

  /** The last state served before `seq` (and by `until`) that showed a pending permission. */
  pendingBefore(seq: number, until = Infinity): ServedState | undefined {
    for (let i = this.list.length - 1; i >= 0; i--) {
      const s = this.list[i]!;
      if (s.seq < seq && s.t <= until && s.pending !== null) return s;
    }
    return undefined;
  }

  /**
   * The states a request may have been written against, since a poll's answer may cross it on the wire
   * (core/checks/crossing.ts): the last one served a grace before the request arrived (undefined: none), and each
   * served since, oldest first.
   */
  around(req: { t: number; seq: number }, grace: number): (ServedState | undefined)[] {
    let before: ServedState | undefined;
    const after: ServedState[] = [];
    for (const s of this.list) {
      if (s.seq >= req.seq) break;
      if (s.t <= req.t - grace) before = s;
      else after.push(s);
    }
    return [before, ...after];
  }

  /** Permission ids the server accepted an answer to, with when it said so (the client read its own answer). */
  readonly accepted = new Map<string, number>();
}

// ---------------------------------------------------------------------------------------------

interface Due {
  since: number;
  why: string;
  /** An accepted message still owes a poll at the end; a busy state does not (the client stopped). */
  owedAtEnd: boolean;
}

/** The polls a client owes, whether the last state served said isProcessing:true, and polls the kit's stop cut short. */
interface Owed {
  due: Due[];
  busy: boolean;
  cut: number;
}

const latePoll = (t: Tally, d: Due, req: RequestEvent, polled: boolean) =>
  t.fail(
    `a GET /state within ${ms(POLL_DUE_MS)} of ${d.why}`,
    polled
      ? `the next GET /state came ${ms(req.t - d.since)} after ${d.why}`
      : `no GET /state for ${ms(req.t - d.since)} after ${d.why}; the client sent ${req.method} ${req.path} instead`,
    at(req),
  );

/** A poll the kit's stop came before it was due: not the client's to have made (a poll overdue by then still fails). */
const cutPoll = (t: Tally, o: Owed, d: Due, stop: RunStop) => {
  o.cut++;
  t.untestable(stop.reason(`a GET /state was still due after ${d.why}`));
};

export const pollsStateCheck = clientRule({
  id: "continue-remote/client/polls-state",
  pass: (o) =>
    `every accepted message and every busy state was followed by a poll within ${ms(POLL_DUE_MS)}` +
    (o.cut ? ` (${o.cut} still due when the kit stopped the run not judged)` : ""),
  untested: "the client had no message accepted and never saw a busy state",
  state: (): Owed => ({ due: [], busy: false, cut: 0 }),
  observe: (t, o, _ctx, stop) =>
    all(
      onRequests((req) => {
        const polled = isPoll(req.method, req.path);
        o.due = o.due.filter((d) => {
          const overdue = req.t - d.since > POLL_DUE_MS;
          if (overdue && stop.cuts(d.since + POLL_DUE_MS)) cutPoll(t, o, d, stop);
          else if (overdue) latePoll(t, d, req, polled);
          else if (polled) t.ok();
          return !polled && !overdue;
        });
        // A client shutting the server down owes it no more polls.
        if (req.method === "POST" && routeOf(req.path) === "exit") o.due = [];
      }),
      onExchanges((x) => {
        if (isPost(x, "message") && is2xx(x.status)) {
          o.due.push({ since: x.response!.t, why: `the message accepted by ${x.method} ${x.path} (${x.id}, at ${ms(x.response!.t)})`, owedAtEnd: true });
        }
      }),
      servedStates.on({
        snapshot: ({ value: s }) => {
          o.busy = s.isProcessing;
          if (s.isProcessing) o.due.push({ since: s.t, why: `the state served by ${s.exchange} at ${ms(s.t)} with isProcessing:true`, owedAtEnd: false });
        },
        // A poll that showed nothing new (an error, a 304) leaves the last state as it was: still busy, still owed.
        miss: (x) => {
          const at = lastEvent(x).t;
          if (o.busy) o.due.push({ since: at, why: `${x.method} ${x.path} (${x.id}) answered ${x.status ?? "nothing"} at ${ms(at)} while the last state was busy`, owedAtEnd: false });
        },
      }),
    ),
  end(t, o, stop) {
    for (const d of o.due) {
      // A busy state left unpolled at the end: the client stopped, which is not judged (it may have exited itself).
      if (!d.owedAtEnd) continue;
      if (stop.cuts(d.since + POLL_DUE_MS)) cutPoll(t, o, d, stop);
      else t.fail(`a GET /state within ${ms(POLL_DUE_MS)} of ${d.why}`, `the client never polled /state after ${d.why}${stop.at !== undefined ? ` (until ${stop.said})` : ""}`);
    }
  },
});

// ---------------------------------------------------------------------------------------------

/**
 * Poll intervals counted per whole millisecond: the median of a client polled for hours costs as
 * much memory as the number of distinct intervals, not of polls.
 */
class Intervals {
  private readonly counts = new Map<number, number>();
  size = 0;
  min = Infinity;
  max = -Infinity;

  add(ms: number): void {
    const k = Math.round(ms);
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    this.size++;
    this.min = Math.min(this.min, k);
    this.max = Math.max(this.max, k);
  }

  /** The lower median (the middle interval, or the lower of the two middle ones). */
  median(): number {
    let left = (this.size - 1) >> 1;
    for (const k of [...this.counts.keys()].sort((a, b) => a - b)) {
      left -= this.counts.get(k)!;
      if (left < 0) return k;
    }
    return NaN;
  }
}

export const pollIntervalCheck = clientCheck({
  id: "continue-remote/client/poll-interval",
  create() {
    const intervals = new Intervals();
    /** Intervals that began with a failed poll: a client must not speed up while the server struggles. */
    const afterFailure = new Intervals();
    const inFlight = new Map<string, number>();
    let polls = 0;
    let overlaps = 0;
    let lastStart: number | undefined;
    let lastFailed = false;
    let firstFast: RequestEvent | undefined;
    let firstFastAfterFailure: RequestEvent | undefined;
    return {
      observe: all(
        onRequests((req) => {
          if (!isPoll(req.method, req.path)) return;
          polls++;
          for (const [id, start] of inFlight) if (req.t - start > IN_FLIGHT_MS) inFlight.delete(id);
          if (inFlight.size > 0) overlaps++;
          inFlight.set(req.exchange, req.t);
          if (lastStart !== undefined) {
            const gap = req.t - lastStart;
            intervals.add(gap);
            if (gap < MIN_MEDIAN_INTERVAL_MS) firstFast ??= req;
            if (lastFailed) {
              afterFailure.add(gap);
              if (gap < MIN_MEDIAN_INTERVAL_MS) firstFastAfterFailure ??= req;
            }
          }
          lastStart = req.t;
        }),
        onExchanges((x) => {
          if (!isPoll(x.method, x.path)) return;
          inFlight.delete(x.id);
          lastFailed = x.status !== 200 && x.status !== 304;
        }),
      ),
      finish(): Outcome {
        if (intervals.size === 0) {
          return { verdict: "incomplete", notExercised: true, message: "not exercised: the client polled /state fewer than twice" };
        }
        const m = intervals.median();
        const stats =
          `${polls} polls: median interval ${ms(m)} (min ${ms(intervals.min)}, max ${ms(intervals.max)}), ` +
          `${overlaps} started while another was in flight` +
          (afterFailure.size ? `; after a failed poll: median ${ms(afterFailure.median())} over ${afterFailure.size}` : "");
        const expected = `a median interval of at least ${ms(MIN_MEDIAN_INTERVAL_MS)} (the removed cn remote polled every 500 ms)`;
        if (m < MIN_MEDIAN_INTERVAL_MS) {
          return { verdict: "fail", message: `polls /state too often: ${stats}`, expected, actual: `median ${ms(m)}`, evidence: [at(firstFast!, { note: stats })] };
        }
        if (afterFailure.size && afterFailure.median() < MIN_MEDIAN_INTERVAL_MS) {
          const actual = `median ${ms(afterFailure.median())} after failed polls`;
          return { verdict: "fail", message: `polls /state too often while it fails: ${stats}`, expected, actual, evidence: [at(firstFastAfterFailure!, { note: stats })] };
        }
        return { verdict: "pass", message: stats };
      },
    };
  },
});

// ---------------------------------------------------------------------------------------------

/** A request with its body as the excerpt. */
const bodyEvidence = (req: RequestEvent): Evidence => at(req, { excerpt: excerpt(req.body ?? "") });

/** Judges a POST's Content-Type and JSON body (the reason is the check's own wording); the body when both hold. */
function jsonBody(t: Tally, req: RequestEvent, shape: string): { value: unknown } | undefined {
  const type = req.headers["content-type"];
  if (mediaType(type) !== "application/json") {
    t.fail("Content-Type: application/json", `${where(req)} sent Content-Type ${JSON.stringify(type ?? "(none)")}`, bodyEvidence(req));
    return undefined;
  }
  const body = requestJson(req);
  if (body.ok) return body;
  t.fail(`a JSON body ${shape}`, `${where(req)} body is not JSON`, bodyEvidence(req));
  return undefined;
}

export const messageJsonCheck = clientRule({
  id: "continue-remote/client/message-json",
  pass: "every POST /message was application/json with a string message",
  untested: "the client sent no POST /message",
  observe: (t) =>
    onExchanges((x) => {
      if (!isPost(x, "message")) return;
      const body = jsonBody(t, x.request, '{"message": string}');
      if (!body) return;
      const message = (body.value as { message?: unknown } | null)?.message;
      if (typeof message === "string") return t.ok();
      t.fail('a JSON body {"message": string}', `${where(x.request)} has ${message === undefined ? "no message field" : `message ${excerpt(message, 60)}`}`, bodyEvidence(x.request));
    }),
});

export const messageNonemptyCheck = clientRule({
  id: "continue-remote/client/message-nonempty",
  pass: "every message had some text",
  untested: "the client sent no message with a string text",
  observe: (t, _s, ctx) => {
    const instead = isCn(ctx.profile) ? "; to stop a turn, POST /pause" : "";
    return onExchanges((x) => {
      if (!isPost(x, "message")) return;
      const body = requestJson(x.request);
      const message = body.ok ? (body.value as { message?: unknown } | null)?.message : undefined;
      if (typeof message !== "string") return; // message-json's to judge
      if (message.trim() !== "") return t.ok();
      t.fail(
        `a message with some text${instead}`,
        `${where(x.request)} sent ${message === "" ? "an empty" : "a blank"} message ${JSON.stringify(message)} (the removed cn remote's "interrupt"); the server answered ${x.status ?? "nothing"}`,
        bodyEvidence(x.request),
      );
    });
  },
});

// ---------------------------------------------------------------------------------------------

/**
 * A rule about the client's answers to permission requests: `judge` sees each `POST /permission` with the states the
 * client had been served before it. When no state ever showed a pending permission and nothing was answered, the
 * rule's case never arose.
 */
function permissionCheck<S = undefined>(
  spec: Omit<CheckSpec, "create" | "probes"> & {
    pass: string;
    /** What the check keeps besides the served states. */
    state?(): S;
    judge(x: Exchange, t: Tally, served: ServedLog, s: S, ctx: CheckContext): void;
  },
): CheckDef {
  const { judge, state, ...rule } = spec;
  return clientRule({
    ...rule,
    untested: ({ served: { firstPending: first } }) => (first ? `the client never answered the permission request ${first.pending} it was served (${first.exchange})` : undefined),
    optional: ({ served }) => (served.firstPending ? undefined : "no permission request was pending in any state the client was served"),
    state: () => ({ served: new ServedLog(), own: state?.() as S }),
    observe: (t, { served, own }, ctx) =>
      all(
        servedStates.on({ snapshot: ({ value }) => served.add(value) }),
        onExchanges((x) => {
          if (!isPost(x, "permission")) return;
          judge(x, t, served, own, ctx);
          const body = requestJson(x.request);
          const id = body.ok ? (body.value as { requestId?: unknown } | null)?.requestId : undefined;
          if (is2xx(x.status) && typeof id === "string" && x.response) served.accepted.set(id, x.response.t);
        }),
      ),
  });
}

export const permissionRequestIdCheck = permissionCheck({
  id: "continue-remote/client/permission-request-id",
  pass: "every permission answer was JSON with the last served requestId",
  judge(x, t, served, _s, ctx) {
    const req = x.request;
    const body = jsonBody(t, req, '{"requestId": string, "approved": boolean}');
    if (!body) return;
    const valid = ctx.validate("permission-request", body.value);
    if (!valid.ok) {
      return t.fail('{"requestId": non-empty string, "approved": boolean}', `${where(req)} body is no permission answer: ${formatSchemaErrors(valid.errors)}`, bodyEvidence(req));
    }
    const id = (body.value as { requestId: string }).requestId;
    // The ids the client may have been answering: the last pending one shown a grace before the answer arrived and
    // each shown since, less those its own accepted answer had settled by then.
    const grace = crossingGrace(ctx);
    const edge = req.t - grace;
    const shownAt = [served.pendingBefore(req.seq, edge), ...served.around(req, grace).slice(1)];
    const shown = shownAt.filter((s): s is ServedState => s !== undefined && s.pending !== null && !((served.accepted.get(s.pending) ?? Infinity) <= edge));
    const last = shown[shown.length - 1];
    // Nothing was ever shown: the id is a guess, which permission-only-when-pending judges.
    if (!last || last.pending === id) return t.ok();
    if (shown.some((s) => s.pending === id)) return t.untestable(crossedReason(`${where(req)} (requestId ${JSON.stringify(id)})`, grace));
    t.fail(`requestId ${JSON.stringify(last.pending)}, the last one served (${last.exchange} at ${ms(last.t)})`, `${where(req)} answered requestId ${JSON.stringify(id)}`, bodyEvidence(req));
  },
});

export const permissionOnlyWhenPendingCheck = permissionCheck({
  id: "continue-remote/client/permission-only-when-pending",
  pass: "every permission answer went to a pending request, once",
  /** Ids whose answer the server accepted, with the exchange that did. */
  state: () => new Map<string, string>(),
  judge(x, t, served, answered, ctx) {
    const req = x.request;
    const body = requestJson(req);
    const id = body.ok ? (body.value as { requestId?: unknown } | null)?.requestId : undefined;
    const expected = "an answer only to the pendingPermission of the last state served, once";
    const problem = (last: ServedState | undefined): string | undefined => {
      if (!last) return `${where(req)} answered before any state was served`;
      if (last.pending === null) return `${where(req)} answered while the last state served (${last.exchange} at ${ms(last.t)}) had no pending permission`;
      if (answered.has(last.pending)) return `${where(req)} answered ${JSON.stringify(last.pending)} again; ${answered.get(last.pending)} had answered it already`;
      return undefined;
    };
    // Judged by every state the answer may have been written against; naming a pending id shows the state that
    // served it had been read.
    const grace = crossingGrace(ctx);
    const r = acrossStates(sinceShown(served.around(req, grace), (s) => s !== undefined && s.pending === id), problem);
    if (r.verdict === "fail") t.fail(expected, r.problem, bodyEvidence(req));
    else if (r.verdict === "unsure") t.untestable(crossedReason(where(req), grace));
    else t.ok();
    if (is2xx(x.status) && typeof id === "string") answered.set(id, req.exchange);
  },
});

// ---------------------------------------------------------------------------------------------

export const exitMethodCheck = clientRule({
  id: "continue-remote/client/exit-method",
  pass: "the client asked the server to exit with POST /exit only",
  optional: "the client never asked the server to exit",
  observe: (t) =>
    onRequests((req) => {
      if (routeOf(req.path) !== "exit" || req.method === "OPTIONS") return; // a preflight is the browser's
      if (req.method === "POST") return t.ok();
      t.fail("POST /exit", `${where(req)}: the server exits only on POST (a GET is what prefetchers and links send)`, at(req));
    }),
});

export const knownRoutesCheck = clientRule({
  id: "continue-remote/client/known-routes",
  pass: (cn) => `every request used a route of the ${cn ? "cn-session" : "seed"} server with its method`,
  untested: "the client sent no request",
  state: (ctx: CheckContext) => isCn(ctx.profile),
  observe: (t, cn) =>
    onRequests((req) => {
      // Preflights are the browser's; /exit is exit-method's.
      if (req.method === "OPTIONS" || routeOf(req.path) === "exit") return;
      const route = profileRoute(req.path, cn);
      if (!route) {
        const pause = routeOf(req.path) === "pause";
        return t.fail(
          cn ? "a path of the cn-session server" : "a path of the seed server (no /pause)",
          pause
            ? `${where(req)}: /pause exists only in the current cn serve (--profile cn-session); a seed server answers 404`
            : `${where(req)}: no such route`,
          at(req),
        );
      }
      if (req.method !== route.method) return t.fail(`${route.method} ${req.path.split("?")[0]}`, `${where(req)}: wrong method`, at(req));
      t.ok();
    }),
});

export const stopsAfterExitCheck = clientRule({
  id: "continue-remote/client/stops-after-exit",
  pass: `no request came more than ${ms(AFTER_EXIT_MS)} after /exit answered`,
  optional: (s) => (s.exit ? undefined : "the client never shut the server down (no 200 from POST /exit)"),
  state: () => ({ exit: undefined as { t: number; id: string } | undefined }),
  observe: (t, s) =>
    all(
      onExchanges((x) => {
        if (!s.exit && isPost(x, "exit") && x.status === 200) s.exit = { t: x.response!.t, id: x.id };
      }),
      onRequests((req) => {
        const exit = s.exit;
        if (!exit || req.t - exit.t <= AFTER_EXIT_MS) return;
        t.fail(`no request more than ${ms(AFTER_EXIT_MS)} after /exit answered (${exit.id} at ${ms(exit.t)})`, `${where(req)} came ${ms(req.t - exit.t)} after /exit answered`, at(req));
      }),
    ),
  // Silence after the exit is the rule held.
  end(t, s) {
    if (s.exit && !t.wasExercised) t.ok();
  },
});

/** Every client-side check of continue-remote (contract §4). */
export const CONTINUE_REMOTE_CLIENT_CHECKS: CheckDef[] = [
  pollsStateCheck,
  pollIntervalCheck,
  messageJsonCheck,
  messageNonemptyCheck,
  permissionRequestIdCheck,
  permissionOnlyWhenPendingCheck,
  exitMethodCheck,
  knownRoutesCheck,
  stopsAfterExitCheck,
];
