/** Deltas: their shape, the role, and what a delta may carry at once. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { CHUNKS, onStreams } from "./model.js";
import { eventEvidence, eventWhere, isObject, serverCheck, typeName } from "./support.js";

export const DELTA_CHECKS: CheckDef[] = [
  serverCheck("openai-chat/delta/shape", (t) => {
    let n = 0;
    const observe = onStreams({
      start: () => undefined,
      only: CHUNKS,
      event: (ev, v) => {
        for (const cv of v.choices) {
          n++;
          const d0 = cv.delta;
          // A plain text delta (nearly every chunk of an answer) holds at once, without a list.
          if (isObject(cv.raw) && isObject(d0) && (d0.content === undefined || d0.content === null || typeof d0.content === "string") && (d0.tool_calls === undefined || d0.tool_calls === null)) {
            t.ok();
            continue;
          }
          const problems: string[] = [];
          if (!isObject(cv.raw)) problems.push(`a choice is ${typeName(cv.raw)}, not an object`);
          else if (!isObject(cv.delta)) problems.push(`delta is ${cv.delta === undefined ? "missing" : typeName(cv.delta)}`);
          else {
            const d = cv.delta;
            if (d.content !== undefined && d.content !== null && typeof d.content !== "string") problems.push(`content is ${typeName(d.content)} (${excerpt(d.content, 30)})`);
            if (d.tool_calls !== undefined && d.tool_calls !== null && !Array.isArray(d.tool_calls)) problems.push(`tool_calls is ${typeName(d.tool_calls)}`);
            if (Array.isArray(d.tool_calls)) {
              d.tool_calls.forEach((tc, i) => {
                if (!isObject(tc)) problems.push(`tool_calls[${i}] is ${typeName(tc)}`);
                else if (!isObject(tc.function)) problems.push(`tool_calls[${i}] has ${tc.function === undefined ? "no" : `a ${typeName(tc.function)}`} function object`);
              });
            }
          }
          if (problems.length === 0) t.ok();
          else t.fail("a delta object; content string or null; every tool_calls entry with a function object", `${eventWhere(ev)}: ${problems.join("; ")}`, eventEvidence(ev));
        }
      },
    });
    return { observe, finish: () => t.outcome(`${n} choice delta(s) had the right shape`, "no chunk with a choice was observed") };
  }),
  serverCheck("openai-chat/delta/role-first", (t) => {
    let n = 0;
    const observe = onStreams({
      start: () => undefined,
      only: CHUNKS,
      event: (ev, v) => {
        for (const cv of v.choices) {
          if (!isObject(cv.delta) || !cv.state) continue;
          const role = cv.delta.role;
          if (cv.first) {
            n++;
            if (role === "assistant") t.ok();
            else t.fail('role "assistant" on the first delta', `${eventWhere(ev)}: the first delta of choice ${cv.index} has role ${role === undefined ? "missing" : excerpt(role, 30)}`, eventEvidence(ev));
          } else if (role !== undefined && role !== null && role !== "assistant") {
            t.fail('later deltas omit role or repeat "assistant"', `${eventWhere(ev)}: a later delta of choice ${cv.index} has role ${excerpt(role, 30)}`, eventEvidence(ev));
          }
        }
      },
    });
    return { observe, finish: () => t.outcome(`${n} choice(s) began with role "assistant"`, "no choice delta was observed") };
  }),
  serverCheck("openai-chat/delta/no-empty-tool-calls", (t) => {
    let n = 0;
    const observe = onStreams({
      start: () => undefined,
      only: CHUNKS,
      event: (ev, v) => {
        for (const cv of v.choices) {
          if (!isObject(cv.delta)) continue;
          n++;
          if (Array.isArray(cv.delta.tool_calls) && cv.delta.tool_calls.length === 0) t.fail("tool_calls absent or non-empty", `${eventWhere(ev)}: a delta has tool_calls: []`, eventEvidence(ev));
          else t.ok();
        }
      },
    });
    return { observe, finish: () => t.outcome(`no delta of ${n} had tool_calls: []`, "no choice delta was observed") };
  }),
  serverCheck("openai-chat/delta/content-with-tool-calls", (t) => {
    let n = 0;
    const observe = onStreams({
      start: () => undefined,
      only: CHUNKS,
      event: (ev, v) => {
        for (const cv of v.choices) {
          if (!isObject(cv.delta) || !Array.isArray(cv.delta.tool_calls) || cv.delta.tool_calls.length === 0) continue;
          n++;
          const content = cv.delta.content;
          if (typeof content === "string" && content !== "") t.fail("content and tool_calls in separate deltas", `${eventWhere(ev)}: a delta carries content "${excerpt(content, 40)}" beside tool_calls`, eventEvidence(ev));
          else t.ok();
        }
      },
    });
    return { observe, finish: () => t.outcome(`${n} tool-call delta(s) carried no text`, "no tool-call delta was observed") };
  }),
];
