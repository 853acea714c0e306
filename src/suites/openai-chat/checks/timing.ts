/** Streaming must be streaming: the first text arrives well before the end. */
import type { CheckDef } from "../../../core/checks/check.js";
import { L } from "../labels.js";
import { readParams } from "../params.js";
import { cutOff, onStreams, streamBroken, streamCut } from "./model.js";
import { HeldBackGaps } from "../../../core/checks/kit-stalls.js";
import { eventEvidence, isObject, serverCheck, type SseEventEvent } from "./support.js";

export const TIMING_CHECKS: CheckDef[] = [
  serverCheck("openai-chat/timing/streams-incrementally", (t, ctx) => {
    const { minGapMs } = readParams(ctx.params);
    // While the kit was held up itself, the server's writes waited unread and came in few reads, close together.
    const held = new HeldBackGaps(minGapMs, "the first text");
    const gaps: number[] = [];
    const streams = onStreams<{ first?: SseEventEvent; last?: SseEventEvent }>({
      accept: (s) => s.label === L.textStream,
      start: () => ({}),
      event: (ev, v, s, st) => {
        if (s.label !== L.textStream || v.phase === "after") return;
        st.last = ev;
        if (!st.first && v.choices.some((c) => isObject(c.delta) && c.delta.content !== undefined && c.delta.content !== null && c.delta.content !== "")) st.first = ev;
      },
      end: (ev, s, st) => {
        if (s.label !== L.textStream) return;
        const cut = streamCut(s, ev);
        if (cut) return cutOff(t, s.label, cut, streamBroken(s, ev));
        if (!st.first || !st.last) return t.untestable(`${s.label} carried no text`);
        const total = st.last.t - s.request.t;
        if (total < 2 * minGapMs) return t.untestable(`${s.label} was answered in ${Math.round(total)} ms, too fast to tell streaming from buffering (under ${2 * minGapMs} ms)`);
        const gap = st.last.t - st.first.t;
        gaps.push(Math.round(gap));
        if (gap >= minGapMs && st.last.chunk !== st.first.chunk) t.ok();
        else
          held.tooShort(
            st.first.t,
            gap,
            `the first text at least ${minGapMs} ms before the last event, in another read`,
            `${s.label}: the answer took ${Math.round(total)} ms but the first text (chunk ${st.first.chunk}) came ${Math.round(gap)} ms before the last event (chunk ${st.last.chunk}): the stream was held back (buffering, gzip or a proxy)`,
            eventEvidence(st.first),
          );
      },
    });
    return held.observer(t, streams, () => t.outcome(`the first text came ${gaps.join(", ")} ms before the end (≥ ${minGapMs} ms)`, "the text stream probe was not answered"));
  }),
];
