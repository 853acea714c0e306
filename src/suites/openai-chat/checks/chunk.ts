/** The choices array of a chunk, and each choice's index. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { CHUNKS, onStreams } from "./model.js";
import { eventEvidence, eventWhere, isIndex, isObject, serverCheck, typeName } from "./support.js";

export const CHUNK_CHECKS: CheckDef[] = [
  serverCheck("openai-chat/chunk/choices-array", (t) => {
    let n = 0;
    const observe = onStreams({
      start: () => undefined,
      only: CHUNKS,
      event: (ev, v) => {
        if (v.phase !== "before" || v.payload.kind !== "chunk") return;
        n++;
        const choices = v.payload.value.choices;
        if (Array.isArray(choices)) t.ok();
        else t.fail("choices: [...] (empty in the usage chunk)", `${eventWhere(ev)}: choices is ${choices === undefined ? "missing" : typeName(choices)}${v.payload.value.usage ? " in the usage chunk" : ""}`, eventEvidence(ev));
      },
    });
    return { observe, finish: () => t.outcome(`${n} chunk(s) had a choices array`, "no chunk was observed") };
  }),
  serverCheck("openai-chat/chunk/choice-index", (t) => {
    let n = 0;
    const observe = onStreams({
      start: () => undefined,
      only: CHUNKS,
      event: (ev, v, s) => {
        if (v.phase !== "before" || v.payload.kind !== "chunk" || !Array.isArray(v.payload.value.choices)) return;
        for (const c of v.payload.value.choices) {
          if (!isObject(c)) continue;
          n++;
          if (!isIndex(c.index)) t.fail("an integer index ≥ 0 on every choice", `${eventWhere(ev)}: a choice has index ${c.index === undefined ? "missing" : excerpt(c.index, 20)}`, eventEvidence(ev));
          else if (s.info.n === undefined && c.index !== 0) t.fail("index 0 (the request did not set n)", `${eventWhere(ev)}: a choice has index ${c.index}`, eventEvidence(ev));
          else t.ok();
        }
      },
    });
    return { observe, finish: () => t.outcome(`${n} choice(s) had a valid index`, "no chunk with a choice was observed") };
  }),
];
