/** When events arrive: streaming as work happens, and the numbers for tuning. */
import type { CheckDef, Outcome } from "../../../core/checks/check.js";
import { readParams } from "../params.js";
import { HeldBackGaps } from "../../../core/checks/kit-stalls.js";
import { eventEvidence, eventWhere, NO_TOOLS, onStreams, serverCheck, toolEvent, unjudgedStream, type SseEventEvent } from "./support.js";

const ms = (x: number) => Math.round(x);

export const TIMING_CHECKS: CheckDef[] = [
  serverCheck("mcp-chat/timing/streams-incrementally", (t, ctx) => {
    const { minGapMs } = readParams(ctx.params);
    // Events the kit read late, because it was held up itself, come close together whatever the server did.
    const held = new HeldBackGaps(minGapMs, "the first event");
    let gaps: number[] = [];
    // A tool ran once a tool_end follows a tool_start; whether their ids match is
    // tools/end-matches-start's rule, not this one's.
    const streams = onStreams<{ first?: SseEventEvent; started: boolean; completed: boolean; judged: boolean }>({
      start: () => ({ started: false, completed: false, judged: false }),
      end: (ev, s, st) => {
        if (!st.judged) unjudgedStream(t, s, ev, NO_TOOLS);
      },
      // The first event of the stream is the decoder's: this hook reads only tool events and the sentinel.
      only: ["tool", "terminal"],
      event: (ev, p, phase, s, st) => {
        if (phase === "after") return;
        st.first ??= s.first ?? ev;
        const te = toolEvent(p);
        if (te?.kind === "start") st.started = true;
        if (te?.kind === "end" && st.started) st.completed = true;
        if (phase !== "terminal" || !st.completed) return;
        st.judged = true;
        const gap = ev.t - st.first.t;
        gaps = [...gaps, ms(gap)].slice(-10);
        if (gap >= minGapMs) t.ok();
        else
          held.tooShort(
            st.first.t,
            gap,
            `the first event at least ${minGapMs} ms before the sentinel`,
            `${s.label}: the first event (#${st.first.index}, chunk ${st.first.chunk}) came only ${ms(gap)} ms before ${eventWhere(ev)}: the stream was held back (buffering, gzip or a proxy) and delivered at the end`,
            eventEvidence(st.first),
          );
      },
    });
    return held.observer(t, streams, () => t.outcome(`the first event came ${gaps.join(", ")} ms before the sentinel (≥ ${minGapMs} ms)`, "no stream with a completed tool call reached a sentinel; use a prompt that makes the model call a tool"));
  }),
  serverCheck({
    id: "mcp-chat/timing/profile",
    create() {
      const reports: string[] = [];
      interface Stats {
        first?: number;
        last?: number;
        gap: number;
        events: number;
        chunks: number;
        min: number;
        max: number;
        bytes: number;
      }
      const observe = onStreams<Stats>({
        start: () => ({ gap: 0, events: 0, chunks: 0, min: Infinity, max: 0, bytes: 0 }),
        event: (ev, _p, _phase, _s, st) => {
          if (st.last !== undefined) st.gap = Math.max(st.gap, ev.t - st.last);
          st.first ??= ev.t;
          st.last = ev.t;
          st.events++;
        },
        chunk: (ev, _s, st) => {
          const n = ev.bytes.length;
          st.chunks++;
          st.bytes += n;
          st.min = Math.min(st.min, n);
          st.max = Math.max(st.max, n);
        },
        end: (ev, s, st) => {
          const t0 = s.request.t;
          const parts = [`headers after ${ms(s.head.t - t0)} ms`];
          parts.push(st.first === undefined ? "no event" : `first event after ${ms(st.first - t0)} ms`);
          parts.push(`${st.events} event(s)`, `largest gap between events ${ms(st.gap)} ms`);
          parts.push(st.chunks ? `${st.chunks} chunk(s) of ${st.min}–${st.max} bytes (mean ${ms(st.bytes / st.chunks)})` : "0 chunks");
          parts.push(`body ended (${ev.reason}) after ${ms(ev.t - t0)} ms`);
          if (reports.length < 10) reports.push(`${s.label}: ${parts.join(", ")}`);
        },
      });
      const finish = (): Outcome =>
        reports.length ? { verdict: "info", message: reports.join("; ") } : { verdict: "incomplete", notExercised: true, message: "not exercised: no 2xx stream was observed" };
      return { observe, finish };
    },
  }),
];
