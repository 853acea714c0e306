/** The envelope of chunks and completions: object, id, created, model. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { isChatLabel } from "../labels.js";
import { CHUNKS, onStreams } from "./model.js";
import { all, eventEvidence, eventWhere, evidenceOf, is2xx, isErrorLike, isObject, onExchanges, requestInfo, serverCheck } from "./support.js";

/** What is wrong with an envelope, or [] when it is right. */
function envelopeProblems(v: Record<string, unknown>, object: string): string[] {
  // Every chunk of a long answer is read here: a right envelope costs no list.
  if (v.object === object && typeof v.id === "string" && Number.isInteger(v.created) && typeof v.model === "string") return NO_PROBLEMS;
  const out: string[] = [];
  if (v.object !== object) out.push(`object is ${v.object === undefined ? "missing" : excerpt(v.object, 40)}, not "${object}"`);
  if (typeof v.id !== "string") out.push(`id is ${v.id === undefined ? "missing" : `not a string (${excerpt(v.id, 30)})`}`);
  if (typeof v.created !== "number" || !Number.isInteger(v.created)) out.push(`created is ${v.created === undefined ? "missing" : `not an integer (${excerpt(v.created, 30)})`}`);
  if (typeof v.model !== "string") out.push(`model is ${v.model === undefined ? "missing" : `not a string (${excerpt(v.model, 30)})`}`);
  return out;
}

const NO_PROBLEMS: string[] = [];

export const ENVELOPE_CHECKS: CheckDef[] = [
  serverCheck("openai-chat/envelope/fields", (t) => {
    let chunks = 0;
    let completions = 0;
    const observe = all(
      onStreams<{ id?: unknown; created?: unknown; first: boolean }>({
        start: () => ({ first: true }),
        only: CHUNKS,
        event: (ev, v, _s, st) => {
          if (v.phase !== "before" || v.payload.kind !== "chunk") return;
          const c = v.payload.value;
          chunks++;
          let problems = envelopeProblems(c, "chat.completion.chunk");
          if (st.first) {
            st.first = false;
            st.id = c.id;
            st.created = c.created;
          } else {
            const other = (p: string) => (problems = [...problems, p]);
            if (typeof c.id === "string" && typeof st.id === "string" && c.id !== st.id) other(`id ${excerpt(c.id, 40)} differs from the stream's first id ${excerpt(st.id, 40)}`);
            if (typeof c.created === "number" && typeof st.created === "number" && c.created !== st.created) other(`created ${c.created} differs from the stream's first ${st.created}`);
          }
          if (problems.length === 0) t.ok();
          else t.fail('object "chat.completion.chunk", one string id and one integer created per stream, a string model', `${eventWhere(ev)}: ${problems.join("; ")}`, eventEvidence(ev));
        },
      }),
      onExchanges((x) => {
        if (!isChatLabel(x.label) || x.streamRead || !is2xx(x.status) || requestInfo(x.request).stream) return;
        if (!isObject(x.json) || isErrorLike(x.json)) return;
        completions++;
        const problems = envelopeProblems(x.json, "chat.completion");
        if (problems.length === 0) t.ok();
        else t.fail('object "chat.completion", a string id, an integer created, a string model', `${x.label}: ${problems.join("; ")}`, evidenceOf(x));
      }),
    );
    return { observe, finish: () => t.outcome(`${chunks} chunk(s) and ${completions} completion(s) had their envelope fields`, "no chunk or completion was observed") };
  }),
];
