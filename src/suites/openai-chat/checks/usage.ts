/** Usage in streams: only on the last chunk, and there exactly when it was asked for. */
import { at, excerpt, type CheckDef, type Evidence } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { CHUNKS, cutOff, onStreams, streamBroken, streamCut } from "./model.js";
import { eventEvidence, eventWhere, serverCheck, type SseEventEvent } from "./support.js";

const hasUsage = (c: Record<string, unknown>): boolean => c.usage !== undefined && c.usage !== null;

export const USAGE_CHECKS: CheckDef[] = [
  serverCheck("openai-chat/usage/only-final-chunk", (t) => {
    let n = 0;
    const observe = onStreams<{ prev?: SseEventEvent; bad: number; first?: Evidence; seen: boolean }>({
      start: () => ({ bad: 0, seen: false }),
      only: CHUNKS,
      event: (ev, v, _s, st) => {
        if (v.phase !== "before" || v.payload.kind !== "chunk") return;
        if (st.prev) {
          st.bad++;
          st.first ??= eventEvidence(st.prev);
        }
        st.prev = hasUsage(v.payload.value) ? ev : undefined;
        if (st.prev) st.seen = true;
      },
      end: (ev, s, st) => {
        if (s.model.error) return;
        if (st.bad) return t.fail("usage only on the last chunk", `${s.label}: ${st.bad} chunk(s) with a non-null usage were followed by more chunks`, st.first);
        if (st.seen) {
          n++;
          t.ok();
        } else if (s.info.includeUsage && streamCut(s, ev) === undefined) t.knockOn("openai-chat/usage/matches-request", s.label); // usage asked for, none sent
      },
    });
    return { observe, finish: () => t.outcome(`${n} stream(s) carried usage only on their last chunk`, "no stream carried usage") };
  }),
  serverCheck("openai-chat/usage/matches-request", (t, ctx) => {
    let asked = 0;
    let unasked = 0;
    // The last chunk and its usage as two fields: every chunk of a long answer passes here, so no record per chunk.
    const observe = onStreams<{ last?: SseEventEvent; lastUsage?: unknown; stray?: SseEventEvent }>({
      start: () => ({}),
      only: CHUNKS,
      event: (ev, v, _s, st) => {
        if (v.phase !== "before" || v.payload.kind !== "chunk") return;
        const c = v.payload.value;
        st.last = ev;
        st.lastUsage = c.usage;
        if (hasUsage(c)) st.stray ??= ev;
      },
      end: (ev, s, st) => {
        if (s.model.error) return;
        const cut = streamCut(s, ev);
        if (cut) return cutOff(t, s.label, cut, streamBroken(s, ev));
        if (s.info.includeUsage) {
          const u = st.lastUsage;
          if (u === undefined || u === null) return t.fail("a usage object on the last chunk", `${s.label}: include_usage was requested but the last chunk has no usage`, st.last ? eventEvidence(st.last) : at(ev));
          const r = ctx.validate("usage", u);
          if (!r.ok) return t.fail("usage with integer prompt_tokens, completion_tokens, total_tokens", `${eventWhere(st.last!)}: ${formatSchemaErrors(r.errors)} (${excerpt(u, 60)})`, eventEvidence(st.last!));
          asked++;
          t.ok();
        } else if (st.stray) {
          t.fail("no usage without include_usage", `${eventWhere(st.stray)}: a usage was sent although include_usage was not requested`, eventEvidence(st.stray));
        } else {
          unasked++;
          t.ok();
        }
      },
    });
    return { observe, finish: () => t.outcome(`usage matched the request (${asked} stream(s) asked for it, ${unasked} did not)`, "no complete stream was observed") };
  }),
];
