/** Errors: their shape, their status, and how they travel inside a stream. */
import { excerpt, notApplicable, type CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors, registry } from "../../../core/schemas/schema-registry.js";
import { BAD_INPUT_NAMES, isBadInputLabel, L } from "../labels.js";
import { readParams } from "../params.js";
import { cutOff, onResponses, onStreams } from "./model.js";
import { all, describe, eventEvidence, eventWhere, evidenceOf, is2xx, isErrorLike, isObject, mediaType, onExchanges, serverCheck, type Exchange } from "./support.js";

export const ERRORS_CHECKS: CheckDef[] = [
  serverCheck("openai-chat/errors/shape", (t, ctx) => {
    const statuses = new Map<number, number>();
    const observe = onExchanges((x) => {
      if (x.status === undefined || is2xx(x.status) || x.status < 200) return;
      if (x.text === undefined || (x.end && x.end.reason !== "eof")) return t.untestable(`the body of ${x.label} (${x.status}) was not read whole`);
      statuses.set(x.status, (statuses.get(x.status) ?? 0) + 1);
      const type = mediaType(x.headers["content-type"]);
      const r = x.isJson ? ctx.validate("error-response", x.json) : undefined;
      if (type === "application/json" && r?.ok) return t.ok();
      const why = [type !== "application/json" ? `Content-Type ${x.headers["content-type"] ?? "absent"}` : "", r ? (r.ok ? "" : formatSchemaErrors(r.errors)) : "the body is not JSON"].filter(Boolean).join("; ");
      t.fail('application/json {"error": {"message", "type", "code"}}', `${describe(x)} (${x.label}): ${why}`, evidenceOf(x));
    });
    return { observe, finish: () => t.outcome(`every error answer was an ErrorResponse (${[...statuses].map(([s, n]) => `${s} ×${n}`).join(", ")})`, "no error answer was observed") };
  }),
  serverCheck("openai-chat/errors/pre-stream-status", (t) => {
    let status = "";
    const observe = all(
      onExchanges((x) => {
        if (x.label !== L.unknownModel) return;
        if (x.status === undefined || x.status === 429) return t.untestable(`${x.label} got ${x.status === 429 ? "429" : "no response"}`);
        // Refused before the model was looked at: the answer says nothing about unknown models.
        if (NOT_ABOUT_THE_REQUEST.has(x.status)) return t.untestable(`${x.label} got ${x.status}: the request was refused before its model was looked at`);
        if (is2xx(x.status)) return;
        // A 404 from a router that matched nothing is not the backend refusing the model; any 4xx
        // about the model is (OpenAI sends 404, some proxies 400).
        const about = aboutModel(x);
        const clientError = x.status >= 400 && x.status < 500;
        if (clientError && about) {
          status = String(x.status);
          return t.ok();
        }
        t.fail(
          "a 4xx with an error about the model (404 model_not_found, as OpenAI answers)",
          clientError
            ? `${x.label} got ${x.status}, but its error is not about the model: "${excerpt(errorMessage(x) ?? x.text ?? "", 80)}"`
            : `${x.label} got ${describe(x)}: ${x.status >= 500 ? "a server error for the caller's mistake (SDKs retry it)" : "not a 4xx"}`,
          evidenceOf(x),
        );
      }),
      onResponses((r) => {
        if (r.label !== L.unknownModel) return;
        if (r.errored) return t.fail("a 4xx status (404 model_not_found) before any stream", `${r.label}: the unknown model got 200 and an error inside the ${r.stream ? "stream" : "body"}; SDKs see a success`, r.evidence);
        if (r.incomplete) return cutOff(t, r.label, r.incomplete, r.broken);
        if (r.choices.length === 0) return t.fail("a 4xx status before any stream", `${r.label}: the unknown model got 200 with no completion in it`, r.evidence);
        t.untestable("the backend served an unknown model name (it answers any model), so there was no error to report");
      }),
    );
    return { observe, finish: () => t.outcome(`the unknown model got ${status} with an error about the model, before any stream`, "the unknown-model probe was not answered") };
  }),
  serverCheck("openai-chat/errors/in-stream-shape", (t) => {
    let n = 0;
    const observe = onStreams<{ after: number; doneAfter: boolean; bad: boolean }>({
      start: () => ({ after: 0, doneAfter: false, bad: false }),
      only: ["error", "after"],
      event: (ev, v, s, st) => {
        if (v.phase === "error") {
          n++;
          // Not relaxed by any profile: clients must find error.message in the stream.
          const r = registry.validate("openai-chat", "error-response", v.payload.kind === "error" ? v.payload.value : undefined, "default");
          const problems: string[] = [];
          if (!r.ok) problems.push(formatSchemaErrors(r.errors));
          if (isObject((v.payload as { value?: unknown }).value) && "choices" in (v.payload as { value: Record<string, unknown> }).value) problems.push("it has choices");
          if (problems.length) {
            st.bad = true;
            t.fail('data: {"error": {"message", "type", "code"}}', `${eventWhere(ev)}: ${problems.join("; ")}: "${excerpt(ev.data, 60)}"`, eventEvidence(ev));
          }
          return;
        }
        if (v.phase !== "after" || !s.model.error || st.bad) return;
        if (v.payload.kind === "done" && !st.doneAfter) {
          st.doneAfter = true;
          return;
        }
        st.bad = true;
        t.fail("only [DONE] or the end of the body after an error", `${eventWhere(ev)} follows the error at event #${s.model.error.index}: "${excerpt(ev.data, 60)}"`, eventEvidence(ev));
      },
      end: (_ev, s, st) => {
        if (s.model.error && !st.bad) t.ok();
      },
    });
    return { observe, finish: () => (n === 0 ? notApplicable("no stream carried an error (errors were reported as HTTP status codes, or none occurred)") : t.outcome(`${n} in-stream error(s) had the ErrorResponse shape and ended the stream`)) };
  }),
  serverCheck("openai-chat/errors/bad-input-400", (t, ctx) => {
    const { badInputAllow422 } = readParams(ctx.params);
    const answered: string[] = [];
    const expected = badInputAllow422 ? "400 or 422 with an error body" : "400 with an error body";
    const judge = (x: Exchange) => {
      const name = x.label.slice("bad-input:".length);
      if (x.status === undefined || x.status === 429) return t.untestable(`${name} got ${x.status === 429 ? "429" : "no response"}`);
      answered.push(`${name} → ${x.status}`);
      const stream = mediaType(x.headers["content-type"]) === "text/event-stream";
      if ((x.status !== 400 && !(badInputAllow422 && x.status === 422)) || stream) {
        return t.fail(expected, `${name} got ${describe(x)}${stream ? ", an event stream" : ""}`, evidenceOf(x));
      }
      // The right status with a body that is no error answer: the shape rule's finding, not a second one here.
      if (!x.isJson || !isErrorLike(x.json)) return t.knockOn("openai-chat/errors/shape", x.label);
      t.ok();
    };
    const observe = onExchanges((x) => {
      if (isBadInputLabel(x.label)) judge(x);
    });
    const finish = () => {
      const o = t.outcome(`every bad request was refused (${answered.join(", ")})`, "no bad-input probe was answered");
      if (o.verdict === "pass" && answered.length < BAD_INPUT_NAMES.length) {
        return { verdict: "incomplete" as const, notExercised: true, message: `not exercised: only ${answered.length} of ${BAD_INPUT_NAMES.length} bad-input probes were answered (${answered.join(", ")})` };
      }
      return o;
    };
    return { observe, finish };
  }),
];

/** The message of an error answer: `error.message`, a string `error`, or a top-level `message` / `detail`. */
function errorMessage(x: Exchange): string | undefined {
  if (!x.isJson || !isObject(x.json)) return undefined;
  const e = x.json.error;
  if (typeof e === "string") return e;
  if (isObject(e) && typeof e.message === "string") return e.message;
  const m = x.json.message ?? x.json.detail;
  return typeof m === "string" ? m : undefined;
}

/** Whether an error answer is about the model: its code or param names it, or its message does. */
/** Statuses that refuse the caller, not the request: no verdict on how unknown models are answered. */
const NOT_ABOUT_THE_REQUEST: ReadonlySet<number> = new Set([401, 403, 407]);

function aboutModel(x: Exchange): boolean {
  if (!x.isJson || !isObject(x.json)) return false;
  const e = isObject(x.json.error) ? x.json.error : x.json;
  if (typeof e.code === "string" && /model/i.test(e.code)) return true;
  if (e.param === "model") return true;
  // The probe's own model name says "model": an answer that only repeats the request is not about the model.
  const message = errorMessage(x)?.replace(/agentwire-no-such-model[\w.-]*/g, "");
  return message !== undefined && /model/i.test(message);
}
