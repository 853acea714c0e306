/** finish_reason: exactly one per choice, matching whether there were calls, and last. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { CHUNKS, cutOff, onResponses, onStreams } from "./model.js";
import { eventEvidence, eventWhere, isObject, serverCheck } from "./support.js";

const REASONS = new Set(["stop", "length", "tool_calls", "content_filter", "function_call"]);

export const FINISH_CHECKS: CheckDef[] = [
  serverCheck("openai-chat/finish/exactly-once", (t) => {
    let n = 0;
    const observe = onResponses((r) => {
      if (r.errored) return;
      if (r.incomplete) return cutOff(t, r.label, r.incomplete, r.broken);
      if (r.stream && r.choices.length === 0) return t.fail("one choice that finishes", `${r.label}: the stream ended without any choice`, r.evidence);
      for (const ch of r.choices) {
        n++;
        const ev = ch.finish?.ev ? eventEvidence(ch.finish.ev) : r.evidence;
        if (ch.finishes === 0) t.fail("one non-null finish_reason", `${r.label}: choice ${ch.index} never got a finish_reason`, r.evidence);
        else if (ch.finishes > 1) t.fail("exactly one non-null finish_reason", `${r.label}: choice ${ch.index} got ${ch.finishes} finish reasons`, ev);
        else if (typeof ch.finish!.reason !== "string" || !REASONS.has(ch.finish!.reason)) t.fail("stop, length, tool_calls, content_filter or function_call", `${r.label}: choice ${ch.index} finished with ${excerpt(ch.finish!.reason, 30)}`, ev);
        else t.ok();
      }
    });
    return { observe, finish: () => t.outcome(`${n} choice(s) finished exactly once`, "no complete answer was observed") };
  }),
  serverCheck("openai-chat/finish/matches-tool-calls", (t) => {
    let n = 0;
    const observe = onResponses((r) => {
      if (r.errored) return;
      if (r.incomplete) return cutOff(t, r.label, r.incomplete, r.broken);
      for (const ch of r.choices) {
        const reason = ch.finish?.reason;
        if (typeof reason !== "string" || reason === "length" || reason === "content_filter") continue;
        n++;
        const calls = ch.calls.length > 0;
        const ev = ch.finish?.ev ? eventEvidence(ch.finish.ev) : r.evidence;
        if ((reason === "tool_calls") === calls) t.ok();
        else if (calls) t.fail('finish_reason "tool_calls" after calls', `${r.label}: choice ${ch.index} made ${ch.calls.length} call(s) and finished with "${reason}"`, ev);
        else t.fail(`a finish_reason other than "tool_calls" without calls`, `${r.label}: choice ${ch.index} made no call and finished with "tool_calls"`, ev);
      }
    });
    return { observe, finish: () => t.outcome(`${n} finish reason(s) matched the calls`, "no answer with a finish reason was observed") };
  }),
  serverCheck("openai-chat/finish/nothing-after-finish", (t) => {
    let n = 0;
    const observe = onStreams<{ found: { expected: string; actual: string; ev: ReturnType<typeof eventEvidence> }[] }>({
      start: () => ({ found: [] }),
      only: CHUNKS,
      event: (ev, v, _s, st) => {
        for (const cv of v.choices) {
          if (!cv.afterFinish || !isObject(cv.delta)) continue;
          const d = cv.delta;
          const what: string[] = [];
          if (typeof d.content === "string" ? d.content !== "" : d.content !== undefined && d.content !== null) what.push("content");
          for (const k of ["reasoning_content", "reasoning"]) if (typeof d[k] === "string" && d[k] !== "") what.push(k);
          if (d.role !== undefined) what.push("role");
          if (Array.isArray(d.tool_calls) && d.tool_calls.length > 0) what.push("tool_calls");
          if (what.length && st.found.length < 3) st.found.push({ expected: "nothing for a choice after its finish chunk", actual: `${eventWhere(ev)}: choice ${cv.index} sends ${what.join(", ")} after finishing`, ev: eventEvidence(ev) });
        }
      },
      end: (_ev, s, st) => {
        if (s.model.error) return;
        for (const f of st.found) t.fail(f.expected, f.actual, f.ev);
        if (st.found.length === 0 && [...s.model.choices.values()].some((c) => c.finishes > 0)) {
          n++;
          t.ok();
        } else if (st.found.length === 0 && s.model.choices.size > 0) t.knockOn("openai-chat/finish/exactly-once", s.label); // no finish chunk: that rule's finding
      },
    });
    return { observe, finish: () => t.outcome(`${n} stream(s) sent nothing for a choice after its finish chunk`, "no streamed choice finished") };
  }),
];
