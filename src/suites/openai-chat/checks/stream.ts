/** The stream profile: numbers for tuning, never a verdict. */
import { excerpt, type CheckDef, type Outcome } from "../../../core/checks/check.js";
import { listFirst } from "../../../core/list-text.js";
import { onStreams } from "./model.js";
import { isObject, serverCheck } from "./support.js";

/** The extension fields the profile counts: reasoning_content, reasoning, extra_content. */
const sent = (v: unknown): boolean => v !== undefined && v !== null;
const count = (ext: Map<string, number>, k: string) => ext.set(k, (ext.get(k) ?? 0) + 1);
const ms = (x: number) => Math.round(x);

export const STREAM_CHECKS: CheckDef[] = [
  serverCheck({
    id: "openai-chat/stream/profile",
    create() {
      const reports: string[] = [];
      let streams = 0;
      interface Stats {
        firstChunk?: number;
        last?: number;
        gap: number;
        events: number;
        comments: number;
        reads: number;
        ext: Map<string, number>;
      }
      const observe = onStreams<Stats>({
        start: () => ({ gap: 0, events: 0, comments: 0, reads: 0, ext: new Map() }),
        event: (ev, v, _s, st) => {
          if (st.last !== undefined) st.gap = Math.max(st.gap, ev.t - st.last);
          st.last = ev.t;
          st.events++;
          if (v.payload.kind === "chunk") st.firstChunk ??= ev.t;
          for (const cv of v.choices) {
            const delta = cv.delta;
            if (!isObject(delta)) continue;
            // Named reads, in this order (the report lists them as first seen): a keyed read
            // by a variable name cost more than the rest of the hook.
            if (sent(delta.reasoning_content)) count(st.ext, "reasoning_content");
            if (sent(delta.reasoning)) count(st.ext, "reasoning");
            if (sent(delta.extra_content)) count(st.ext, "extra_content");
            for (const d of cv.tools) if (isObject(d.raw) && d.raw.extra_content !== undefined) count(st.ext, "extra_content");
          }
        },
        lineKinds: ["comment"],
        line: (ev, _s, st, kind) => {
          if (kind === "comment") st.comments++;
        },
        chunk: (_ev, _s, st) => {
          st.reads++;
        },
        end: (ev, s, st) => {
          streams++;
          const t0 = s.request.t;
          const calls = [...s.model.choices.values()].flatMap((c) => c.calls);
          const parts = [`headers ${ms(s.head.t - t0)} ms`, st.firstChunk === undefined ? "no chunk" : `first chunk ${ms(st.firstChunk - t0)} ms`];
          parts.push(`${st.events} event(s) in ${st.reads} read(s), largest gap ${ms(st.gap)} ms`);
          if (calls.length) parts.push(`calls: ${listFirst(calls, (c) => `${c.name === undefined ? "?" : excerpt(c.name, 60)} in ${c.fragments} fragment(s)`)}`);
          if (calls.some((c) => c.idSends > 1)) parts.push("ids repeated on later deltas");
          if (calls.some((c) => c.lengthCut)) parts.push('"length" during a call');
          if (st.comments) parts.push(`${st.comments} comment line(s)`);
          if (st.ext.size) parts.push(`extension fields ${[...st.ext].map(([k, n]) => `${k} ×${n}`).join(", ")}`);
          parts.push(`ended (${ev.reason}) at ${ms(ev.t - t0)} ms`);
          if (reports.length < 12) reports.push(`${s.label}: ${parts.join(", ")}`);
        },
      });
      const finish = (): Outcome =>
        streams ? { verdict: "info", message: `${streams} stream(s). ${reports.join("; ")}` } : { verdict: "incomplete", notExercised: true, message: "not exercised: no 2xx stream was observed" };
      return { observe, finish };
    },
  }),
];
