/** Timing: a server a 500 ms poller can follow, and what a poller gets to see of a turn. */
import type { CheckContext, CheckDef } from "../../../core/checks/check.js";
import { isMessageLabel, isPollLabel } from "../labels.js";
import { readParams } from "../params.js";
import {
  all,
  answeredAt,
  describe,
  evidenceOf,
  loose,
  onExchanges,
  onStates,
  sentAt,
  sentText,
  serverCheck,
  type Exchange,
  type State,
} from "./support.js";
import { StoppedTurns, turnStart } from "./turns.js";
import { KitStalls } from "../../../core/checks/kit-stalls.js";
import { LISTED, listFirst } from "../../../core/list-text.js";

const p95 = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)] ?? 0;
};

const took = (x: Exchange): number => answeredAt(x) - sentAt(x);

/**
 * How long the server took to answer, as far as the kit can tell: the time to its answer less the
 * kit's own hold-up that read came out of (the answer may have waited that long unread). Asked at
 * the end, when every hold-up is known.
 */
const served = (x: Exchange, stalls: KitStalls): number => Math.max(0, took(x) - stalls.heldBefore(answeredAt(x)));

/** Slow polls kept whole for the evidence of a failure (the slowest, when there are more). */
const SLOW_KEPT = 64;

/**
 * The polls of a run as timing/responsive reads them: each one's time and when it was read, as
 * numbers (a long run polls twice a second, and an exchange holds the whole state it answered), and
 * the slow ones whole, a few, for the evidence. Which are kept is decided by their time less the
 * kit's hold-ups known so far (a hold-up may be recorded just after the read it delayed, so the
 * kept ones are weighed again before one makes room); the end takes every hold-up out again.
 */
class PollTimes {
  private readonly took: number[] = [];
  private readonly at: number[] = [];
  /** Kept slow polls: the exchange, its number in the run, and its time less the hold-ups known when it came. */
  private readonly slow: { x: Exchange; n: number; ms: number }[] = [];

  constructor(private readonly limitMs: number) {}

  add(x: Exchange, stalls: KitStalls): void {
    const raw = took(x);
    const n = this.took.length;
    this.took.push(raw);
    this.at.push(answeredAt(x));
    // A poll served over the limit was read over it, and hold-ups learnt later only lower its time.
    const ms = served(x, stalls);
    if (ms <= this.limitMs) return;
    if (this.slow.length < SLOW_KEPT) return void this.slow.push({ x, n, ms });
    let low = 0;
    for (let k = 0; k < this.slow.length; k++) {
      const y = this.slow[k]!;
      y.ms = served(y.x, stalls);
      if (y.ms < this.slow[low]!.ms) low = k;
    }
    if (this.slow[low]!.ms < ms) this.slow[low] = { x, n, ms };
  }

  get count(): number {
    return this.took.length;
  }

  /** Each poll's time as read. */
  asRead(): number[] {
    return this.took;
  }

  /** Each poll's time less the kit's own hold-up its read came out of. */
  served(stalls: KitStalls): number[] {
    return this.took.map((ms, i) => Math.max(0, ms - stalls.heldBefore(this.at[i]!)));
  }

  /** The slowest kept poll, the kit's own hold-ups taken out (the first of equals). */
  slowest(stalls: KitStalls): Exchange | undefined {
    let best: { x: Exchange; n: number; ms: number } | undefined;
    for (const p of this.slow) {
      const ms = served(p.x, stalls);
      if (!best || ms > best.ms || (ms === best.ms && p.n < best.n)) best = { x: p.x, n: p.n, ms };
    }
    return best?.x;
  }
}

/**
 * What timing/responsive judges, gathered once in the same way for it and for the check that defers
 * to it: the polls, and the POST /message answered only after their turn was over (the first poll
 * after one shows the turn done, its user entry and nothing newer). `slowness()` at the end takes
 * the kit's own hold-ups out.
 */
function responsiveness(ctx: CheckContext) {
  const p = readParams(ctx.params);
  const stalls = new KitStalls();
  const polls = new PollTimes(p.stateP95Ms);
  let post: { x: Exchange; text: string; took: number } | undefined;
  /** POSTs sent idle whose first poll after them could tell, and those answered only after their turn was over. */
  let judgedPosts = 0;
  const late: Exchange[] = [];
  const observe = all(
    stalls.observe,
    onExchanges((x) => {
      if (x.status === undefined) return;
      // A poll answered with an error (a 503, an HTML page) read no state: its speed says nothing of serving one.
      if (x.method === "GET" && isPollLabel(x.label) && x.status === 200) polls.add(x, stalls);
      else if (x.method === "POST" && isMessageLabel(x.label) && x.status === 200) {
        const text = sentText(x);
        post = text !== undefined ? { x, text, took: took(x) } : undefined;
      }
    }),
    onStates(ctx, {
      state(next) {
        const w = post;
        post = undefined;
        if (!w) return;
        judgedPosts++;
        if (next.isProcessing || w.took <= p.blockingMs) return;
        const i = next.entries.findIndex((e) => e.kind === "user" && loose(e.content) === loose(w.text));
        if (i >= 0 && i < next.entries.length - 1 && next.entries.findIndex((e, k) => k > i && e.kind === "user") < 0) late.push(w.x);
      },
    }),
  );
  return {
    observe,
    stalls,
    polls,
    judgedPosts: () => judgedPosts,
    /** The slow polls and late answers the server is to blame for. */
    slowness() {
      const latePosts = late.filter((x) => served(x, stalls) > p.blockingMs);
      return {
        raw: p95(polls.asRead()),
        p95: p95(polls.served(stalls)),
        late: latePosts,
        // One slow answer after a quick turn is jitter; most answers arriving only after their turns is a server that waits for them.
        waitsForTurns: latePosts.length >= 2 && latePosts.length * 2 > judgedPosts,
      };
    },
  };
}

/** What of a turn in progress a snapshot shows (§3.4, §3.11, §3.15). */
function intermediates(s: State, from: number): string[] {
  const out: string[] = [];
  for (const e of s.entries.slice(from)) {
    if (e.streaming) out.push("streaming");
    if (e.kind === "tool-start" && e.index === s.entries.length - 1) out.push("tool-start");
    for (const st of e.states) if (st.status === "generating" || st.status === "generated" || st.status === "calling") out.push(st.status);
    // cn: an assistant item with tool calls as the last item is a step of a turn not over yet.
    if (e.calls.length && e.index === s.entries.length - 1) out.push("toolCalls");
  }
  if (s.pending) out.push("permission");
  return out;
}

export const TIMING_CHECKS: CheckDef[] = [
  serverCheck("continue-remote/timing/responsive", (t, ctx) => {
    const p = readParams(ctx.params);
    const r = responsiveness(ctx);
    let posts = 0;
    const observe = all(
      r.observe,
      onExchanges((x) => {
        if (x.status === undefined || x.method !== "POST" || !isMessageLabel(x.label) || x.status !== 200) return;
        posts++;
        if (took(x) > p.messageMaxMs)
          t.failLate(answeredAt(x), took(x) - p.messageMaxMs, `POST /message within ${p.messageMaxMs} ms`, `${describe(x)} (${x.label}) took ${Math.round(took(x))} ms`, evidenceOf(x));
        else t.ok();
      }),
    );
    return {
      observe,
      finish: () => {
        const { polls, stalls } = r;
        const slow = r.slowness();
        if (slow.waitsForTurns) {
          const x = slow.late[0]!;
          t.fail(
            "POST /message answered before its turn ends",
            `${slow.late.length} of ${r.judgedPosts()} POST /message were answered only after their turn was over (first: ${describe(x)}, ${x.label}, ${Math.round(took(x))} ms)`,
            evidenceOf(x),
          );
        }
        if (polls.count) {
          if (slow.p95 > p.stateP95Ms) {
            // A p95 over the limit has a poll over it, and a poll served over it was read over it: one is kept.
            const slowest = polls.slowest(stalls)!;
            t.fail(
              `GET /state p95 ≤ ${p.stateP95Ms} ms`,
              `p95 ${Math.round(slow.p95)} ms over ${polls.count} polls (slowest ${describe(slowest)})`,
              evidenceOf(slowest),
            );
          } else if (slow.raw > p.stateP95Ms) {
            t.untestable(`the kit itself was held up while it read the polls: their p95 was ${Math.round(slow.raw)} ms as read, ${Math.round(slow.p95)} ms without the kit's own hold-ups`);
          } else t.ok();
        }
        const asRead = slow.raw > slow.p95 + 1 ? ` (${Math.round(slow.raw)} ms as read, the kit's own hold-ups taken out)` : "";
        const state = polls.count ? `GET /state p95 ${Math.round(slow.p95)} ms over ${polls.count} polls${asRead}` : "no GET /state was answered 200";
        return t.outcome(`${state}; ${posts ? `every POST /message (${posts}) answered in time` : "no POST /message was answered 200"}`, "no poll or message was answered 200");
      },
    };
  }),
  serverCheck("continue-remote/timing/intermediate-visible", (t, ctx) => {
    const stopped = new StoppedTurns();
    const seen = new Map<number, Set<string>>();
    let last: State | undefined;
    // A slow /state or a POST that waits for its turn hides the steps: timing/responsive's failure, not a report.
    const p = readParams(ctx.params);
    const r = responsiveness(ctx);
    const observe = all(
      r.observe,
      stopped.observe,
      onStates(ctx, {
        state(next, prev) {
          stopped.seen(next, prev);
          for (const e of next.entries) if (e.kind === "user" && !seen.has(e.index) && (!prev || !prev.entries[e.index])) seen.set(e.index, new Set());
          const start = turnStart(next.entries);
          const mine = seen.get(start);
          if (mine) for (const what of intermediates(next, start)) mine.add(what);
          last = next;
        },
      }),
    );
    return {
      observe,
      finish: () => {
        // As timing/responsive judges them, the kit's own hold-ups taken out.
        const slow = r.slowness();
        let hidden: string | undefined;
        if (slow.waitsForTurns) hidden = `POST /message (${slow.late.length} of ${r.judgedPosts()} answered after their turn)`;
        if (r.polls.count && slow.p95 > p.stateP95Ms) hidden ??= `GET /state (p95 ${Math.round(slow.p95)} ms)`;
        if (hidden) return { verdict: "skip", message: `not judged: continue-remote/timing/responsive failed on ${hidden}` };
        // Polls the kit itself read late may have missed the steps the server showed meanwhile.
        if (r.polls.count && slow.raw > p.stateP95Ms) {
          t.untestable(`the kit itself was held up while it polled (p95 ${Math.round(slow.raw)} ms as read): the turns' steps may have passed unseen`);
          return t.outcome("", "the kit's own hold-ups made the polls too sparse to judge");
        }
        const running = last?.isProcessing ? turnStart(last.entries) : -1;
        // A fast turn may finish between two polls: the report fails when most turns showed nothing.
        const summary: string[] = [];
        let showed = 0;
        for (const [start, what] of seen) {
          if (stopped.turns.has(start) || start === running) continue;
          summary.push(`turn at ${start}: ${what.size ? [...what].join(", ") : "none"}`);
          if (what.size) showed++;
        }
        if (summary.length && showed * 2 < summary.length)
          t.fail(
            "intermediate states visible to a poller in most turns",
            `${showed} of ${summary.length} turn(s) showed an intermediate state (streaming, tool-start, generated/calling, permission) to the poller (${listFirst(summary, String, LISTED, "; ")})`,
          );
        else if (summary.length) t.ok();
        return t.outcome(`${showed} of ${summary.length} turn(s) showed intermediate states (${listFirst(summary, String, LISTED, "; ")})`, "no turn was seen from start to end");
      },
    };
  }),
];
