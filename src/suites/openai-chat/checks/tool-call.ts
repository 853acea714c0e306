/**
 * Tool calls, streamed and non-streamed. Per-delta rules read the delta views of the shared model
 * (model.ts); whole-call rules read the assembled calls when the answer ends. One fault trips one
 * rule: a missing or non-integer index is index-integer's alone, non-string arguments are
 * arguments-string's alone (the argument rules skip such calls), a call without a name is
 * first-delta-complete's, an unknown name is name-in-request-tools'.
 */
import { excerpt, type CheckDef, type Evidence, type Outcome } from "../../../core/checks/check.js";
import { stringifyOrUndefined, tooDeep } from "../../../core/json-depth.js";
import { LISTED, listFirst } from "../../../core/list-text.js";
import { activeCatalogue, isParameterless, judgeArgs } from "../catalogue.js";
import { L } from "../labels.js";
import { readParams } from "../params.js";
import { callEvidence, callName, callsOf, cutOff, NOT_RESET, onResponses, onStreams, type CallState, type ResponseView } from "./model.js";
import { all, eventEvidence, eventWhere, isIndex, isObject, parseJson, serverCheck, Tally, typeName } from "./support.js";

/** A backend may answer parallel_tool_calls: true with one call: several are allowed, not required. */
const ONE_CALL = "parallel-stream was answered with one call (parallel_tool_calls: true allows several calls, it does not require them)";

/** The parsed arguments of a call, or why they cannot be judged as an object. */
type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; skip: string; knock?: string } | { ok: false; bad: string };

const ARGUMENTS_STRING = "openai-chat/tool-call/arguments-string";

function parsedArgs(c: CallState, r: ResponseView): Parsed {
  if (r.incomplete) return { ok: false, skip: r.incomplete, ...(r.broken ? { knock: NOT_RESET } : {}) };
  if (r.errored) return { ok: false, skip: `${r.label} ended with an error` };
  if (c.argsNonString) return { ok: false, skip: `${callName(c, r.label)} has non-string arguments`, knock: ARGUMENTS_STRING };
  if (c.argsCapped) return { ok: false, skip: `${callName(c, r.label)} has arguments too long to judge` };
  if (c.lengthCut) return { ok: false, skip: `${callName(c, r.label)} was cut by finish_reason "length"` };
  if (c.args === "") return { ok: true, value: {} };
  const p = parseJson(c.args);
  if (!p.ok) return { ok: false, bad: `not JSON (${p.error})` };
  if (!isObject(p.value)) return { ok: false, bad: `JSON ${typeName(p.value)}, not an object` };
  return { ok: true, value: p.value };
}

/** Why a call's arguments were not judged: another rule's finding (named) or untestable. */
function unjudged(t: Tally, p: { skip: string; knock?: string }, r: ResponseView): void {
  if (p.knock) t.knockOn(p.knock, r.label);
  else t.untestable(p.skip);
}

/** Names the usual way joined fragments go wrong. */
function diagnose(c: CallState): string {
  const a = c.args;
  if (c.cumulative) return "cumulative: each fragment repeats the text before it";
  const half = a.length / 2;
  if (a.length % 2 === 0 && a.slice(0, half) === a.slice(half)) return "repeated: the whole string was sent twice";
  if (a.startsWith("{}") && a.length > 2 && parseJson(a.slice(2)).ok) return 'placeholder: "{}" came before the real arguments';
  for (let i = a.indexOf("}{"); i > 0; i = a.indexOf("}{", i + 1)) {
    if (parseJson(a.slice(0, i + 1)).ok && parseJson(a.slice(i + 1)).ok) return "repeated: a second JSON text follows the first";
  }
  const p = parseJson(a);
  if (!p.ok && /end of (JSON )?input|Unterminated|Expected/.test(p.error) && a.trimStart().startsWith("{")) return "truncated: the JSON text stops early";
  return "not one JSON object";
}

/** Observer over every call of every finished answer. */
function onCalls(fn: (c: CallState, r: ResponseView) => void) {
  return onResponses((r) => {
    for (const c of callsOf(r)) fn(c, r);
  });
}

export const TOOL_CALL_CHECKS: CheckDef[] = [
  serverCheck("openai-chat/tool-call/index-integer", (t) => {
    let n = 0;
    const observe = onStreams({
      start: () => undefined,
      only: ["tool"],
      event: (ev, v) => {
        for (const cv of v.choices)
          for (const d of cv.tools) {
            if (!isObject(d.raw)) continue;
            n++;
            if (isIndex(d.raw.index)) t.ok();
            else t.fail("an integer index ≥ 0", `${eventWhere(ev)}: tool_calls[${d.pos}] has index ${d.raw.index === undefined ? "missing" : excerpt(d.raw.index, 20)}`, eventEvidence(ev));
          }
      },
    });
    return { observe, finish: () => t.outcome(`${n} tool-call delta(s) had an integer index`, "no streamed tool call was observed") };
  }),
  serverCheck("openai-chat/tool-call/first-delta-complete", (t) => {
    let n = 0;
    const observe = onStreams({
      start: () => undefined,
      only: ["tool"],
      event: (ev, v) => {
        for (const cv of v.choices)
          for (const d of cv.tools) {
            if (!d.isNew) continue;
            n++;
            if (d.missing.length === 0) t.ok();
            else t.fail('id, type "function" and function.name on the first delta', `${eventWhere(ev)}: the first delta of call #${d.call!.n} lacks ${d.missing.join(", ")}`, eventEvidence(ev));
          }
      },
    });
    return { observe, finish: () => t.outcome(`${n} call(s) began with id, type and name`, "no streamed tool call was observed") };
  }),
  serverCheck("openai-chat/tool-call/id-stable", (t) => {
    let n = 0;
    const observe = onStreams({
      start: () => undefined,
      only: ["tool"],
      event: (ev, v) => {
        for (const cv of v.choices)
          for (const d of cv.tools) {
            if (d.isNew || !d.call) continue;
            n++;
            if (d.idDiffers) t.fail(`id omitted or ${JSON.stringify(d.call.id)} again`, `${eventWhere(ev)}: a later delta of call #${d.call.n} has id ${excerpt((d.raw as { id?: unknown }).id, 40)}`, eventEvidence(ev));
            else t.ok();
          }
      },
    });
    return { observe, finish: () => t.outcome(`${n} later delta(s) kept their call's id`, "no call was streamed in more than one delta") };
  }),
  serverCheck("openai-chat/tool-call/identity-once", (t) => {
    let n = 0;
    const observe = onStreams({
      start: () => undefined,
      only: ["tool"],
      event: (ev, v) => {
        for (const cv of v.choices)
          for (const d of cv.tools) {
            if (!d.call) continue;
            n++;
            if (d.isNew) {
              t.ok();
              continue;
            }
            // An id sent again with another value is id-stable's finding, not a second one here.
            const repeats = d.idDiffers ? d.repeats.filter((f) => f !== "id") : d.repeats;
            const problems = [...repeats.map((f) => `${f} again`), ...d.empties.map((f) => `${f} as ""`)];
            if (problems.length === 0 && repeats.length < d.repeats.length) t.knockOn("openai-chat/tool-call/id-stable", eventWhere(ev));
            else if (problems.length === 0) t.ok();
            else t.fail("identity fields only on the first delta", `${eventWhere(ev)}: a later delta of call #${d.call.n} sends ${[...new Set(problems)].join(", ")}`, eventEvidence(ev));
          }
      },
    });
    return { observe, finish: () => t.outcome(`${n} tool-call delta(s) sent each identity field once`, "no streamed tool call was observed") };
  }),
  serverCheck("openai-chat/tool-call/ids-unique", (t) => {
    let n = 0;
    const observe = onResponses((r) => {
      const seen = new Map<string, CallState>();
      for (const c of callsOf(r)) {
        if (c.id === undefined) continue;
        n++;
        const prior = seen.get(c.id);
        if (prior) t.fail("a distinct id for every call of a response", `${r.label}: ${callName(c, r.label)} reuses the id of call #${prior.n}`, callEvidence(c, r));
        else {
          seen.set(c.id, c);
          t.ok();
        }
      }
    });
    return { observe, finish: () => t.outcome(`${n} call id(s) were unique in their responses`, "no tool call with an id was observed") };
  }),
  serverCheck("openai-chat/tool-call/arguments-string", (t) => {
    let n = 0;
    const observe = onStreams({
      start: () => undefined,
      only: ["tool"],
      event: (ev, v) => {
        for (const cv of v.choices)
          for (const d of cv.tools) {
            const fn = isObject(d.raw) && isObject(d.raw.function) ? d.raw.function : undefined;
            if (!fn || !("arguments" in fn)) continue;
            n++;
            if (d.argsNonString) t.fail("arguments as a string fragment", `${eventWhere(ev)}: tool_calls[${d.pos}].function.arguments is ${typeName(fn.arguments)} (${excerpt(fn.arguments, 40)})`, eventEvidence(ev));
            else t.ok();
          }
      },
    });
    const sync = onResponses((r) => {
      if (r.stream) return;
      for (const c of callsOf(r)) {
        n++;
        if (c.argsNonString) t.fail("arguments as a JSON string", `${r.label}: ${callName(c, r.label)} has arguments that are not a string`, r.evidence);
        else t.ok();
      }
    });
    return {
      observe: all(observe, sync),
      finish: () => t.outcome(`${n} argument value(s) were strings`, "no tool call was observed"),
    };
  }),
  serverCheck("openai-chat/tool-call/arguments-join-to-object", (t) => {
    let n = 0;
    const observe = onCalls((c, r) => {
      const p = parsedArgs(c, r);
      if (p.ok) {
        n++;
        return t.ok();
      }
      if ("skip" in p) return unjudged(t, p, r);
      t.fail("one JSON object", `${r.label}: ${callName(c, r.label)} joins to ${p.bad} — ${diagnose(c)}: "${excerpt(c.args, 80)}"`, callEvidence(c, r));
    });
    return { observe, finish: () => t.outcome(`${n} call(s) had arguments that parse as one JSON object`, "no complete tool call was observed") };
  }),
  ...argumentRules(),
  serverCheck("openai-chat/tool-call/no-arg-empty-object", (t, ctx) => {
    const catalogue = activeCatalogue(readParams(ctx.params).catalogue);
    let n = 0;
    const observe = onCalls((c, r) => {
      if (c.name === undefined) return;
      const tool = catalogue?.tools.find((x) => x.name === c.name);
      const parameterless = tool ? isParameterless(tool.parameters) : r.info.tools?.has(c.name) ? isParameterless(r.info.tools.get(c.name)) : false;
      if (!parameterless) return;
      if (r.incomplete) return cutOff(t, r.label, r.incomplete, r.broken);
      // Non-string arguments are arguments-string's finding alone.
      if (c.argsNonString) return t.knockOn(ARGUMENTS_STRING, r.label);
      if (c.lengthCut || c.argsCapped) return t.untestable(`${callName(c, r.label)} ${c.lengthCut ? 'was cut by finish_reason "length"' : "has arguments too long to judge"}`);
      n++;
      if (c.args.trim() === "") t.fail('arguments "{}"', `${r.label}: ${callName(c, r.label)} has arguments ${c.fragments ? '""' : "never sent"}`, callEvidence(c, r));
      else t.ok();
    });
    return { observe, finish: () => t.outcome(`${n} parameterless call(s) had arguments "{}"`, "no parameterless tool was called") };
  }),
  serverCheck("openai-chat/tool-call/name-in-request-tools", (t) => {
    let n = 0;
    const observe = onCalls((c, r) => {
      if (c.name === undefined) return;
      n++;
      if (r.info.tools?.has(c.name)) t.ok();
      else t.fail(r.info.tools ? "a name from the request's tools[]" : "no calls without tools", `${r.label}: calls ${JSON.stringify(c.name)}${r.info.tools ? `, which is not among the ${r.info.tools.size} offered tools` : ", but the request offered no tools"}`, callEvidence(c, r));
    });
    return { observe, finish: () => t.outcome(`${n} call(s) named offered tools`, "no named tool call was observed") };
  }),
  serverCheck("openai-chat/tool-call/parallel-distinct-indexes", (t) => {
    let multi = 0;
    const observe = onResponses((r) => {
      if (!r.stream) return;
      for (const ch of r.choices) {
        const calls = ch.calls;
        if (calls.length === 0 || calls.some((c) => !c.indexValid)) continue;
        const reused = calls.find((c) => c.reusedIndex);
        const misplaced = calls.find((c, k) => c.eff !== k);
        const bad = reused ?? misplaced;
        if (!bad && calls.length === 1 && r.base === L.parallelStream) t.notApplicable(ONE_CALL);
        if (bad) t.fail("indexes 0, 1, ... in order, one per call", `${r.label}: ${callName(bad, r.label)} ${reused ? `reuses index ${bad.eff} of an earlier call with another id` : `has index ${bad.eff}, expected ${bad.n}`} (indexes: ${calls.map((c) => c.eff).join(", ")})`, callEvidence(bad, r));
        else if (calls.length > 1) {
          multi++;
          t.ok();
        }
      }
    });
    return { observe, finish: () => t.outcome(`${multi} response(s) with several calls indexed them 0..n-1`, "no streamed response had two or more calls") };
  }),
  serverCheck("openai-chat/tool-call/parallel-sequential", (t) => {
    let multi = 0;
    const observe = onStreams<{ bad: boolean }>({
      start: () => ({ bad: false }),
      only: ["tool"],
      event: (ev, v, _s, st) => {
        for (const cv of v.choices)
          for (const d of cv.tools) {
            if (!d.interleaved || d.inFinishChunk || st.bad) continue;
            st.bad = true;
            t.fail("each call complete before the next begins", `${eventWhere(ev)}: a delta of call #${d.call!.n} comes after call #${cv.state!.calls.length - 1} began`, eventEvidence(ev));
          }
      },
      end: (_ev, s, st) => {
        if (!st.bad && s.label.startsWith(L.parallelStream) && [...s.model.choices.values()].some((c) => c.calls.length === 1)) t.notApplicable(ONE_CALL);
        if (st.bad || ![...s.model.choices.values()].some((c) => c.calls.length > 1)) return;
        multi++;
        t.ok();
      },
    });
    return { observe, finish: () => t.outcome(`${multi} stream(s) with several calls sent them one after the other`, "no streamed response had two or more calls") };
  }),
  serverCheck("openai-chat/tool-call/parallel-false-honoured", (t) => {
    let n = 0;
    const observe = onResponses((r) => {
      if (r.info.parallel !== false) return;
      for (const ch of r.choices) {
        if (ch.calls.length === 0) continue;
        n++;
        if (ch.calls.length === 1) t.ok();
        else t.fail("at most one call", `${r.label}: ${ch.calls.length} calls (${listFirst(ch.calls, (c) => (c.name === undefined ? "?" : excerpt(c.name, 60)))}) despite parallel_tool_calls: false`, callEvidence(ch.calls[1]!, r));
      }
    });
    return { observe, finish: () => t.outcome(`${n} response(s) to parallel_tool_calls: false had one call`, "no call was made in answer to parallel_tool_calls: false") };
  }),
  serverCheck("openai-chat/tool-call/exclusive-not-parallel", (t, ctx) => {
    const catalogue = activeCatalogue(readParams(ctx.params).catalogue);
    let n = 0;
    const observe = onResponses((r) => {
      for (const ch of r.choices) {
        if (ch.calls.length === 1 && r.base === L.parallelStream) t.notApplicable(ONE_CALL);
        if (ch.calls.length < 2) continue;
        if (!catalogue) return t.untestable("no catalogue (--catalogue none) says which tools are exclusive");
        n++;
        const excl = ch.calls.find((c) => catalogue.tools.some((x) => x.name === c.name && x.exclusive));
        if (excl) t.fail("an exclusive tool as the only call", `${r.label}: ${callName(excl, r.label)} is exclusive but shares its message with ${ch.calls.length - 1} other call(s)`, callEvidence(excl, r));
        else t.ok();
      }
    });
    return { observe, finish: () => t.outcome(`${n} message(s) with several calls had no exclusive tool among them`, "no response had two or more calls") };
  }),
  serverCheck("openai-chat/tool-call/honours-tool-choice", (t) => {
    const last = new Map<string, { ok: true; text: string } | { ok: false; expected: string; actual: string; ev: Evidence } | { skip: string; broken?: string }>();
    const observe = onResponses((r) => {
      const tc = r.info.toolChoice;
      if (tc.kind !== "named" && tc.kind !== "required") return;
      if (r.incomplete || r.errored) return void last.set(r.base, { skip: r.incomplete ?? `${r.label} ended with an error`, ...(r.broken ? { broken: r.label } : {}) });
      const calls = callsOf(r);
      const want = tc.kind === "named" ? `a call of ${tc.name}` : "at least one call";
      if (calls.length === 0) return void last.set(r.base, { ok: false, expected: want, actual: `${r.label}: no tool call (tool_choice ${tc.kind === "named" ? tc.name : '"required"'})`, ev: r.evidence });
      const other = tc.kind === "named" ? calls.find((c) => c.name !== undefined && c.name !== tc.name) : undefined;
      if (other) return void last.set(r.base, { ok: false, expected: `only ${(tc as { name: string }).name}`, actual: `${r.label}: calls ${other.name} although ${(tc as { name: string }).name} was forced`, ev: callEvidence(other, r) });
      last.set(r.base, { ok: true, text: `${r.base} → ${calls.map((c) => c.name ?? "?").join(", ")}` });
    });
    const finish = (): Outcome => {
      const passed: string[] = [];
      for (const v of last.values()) {
        if ("skip" in v) cutOff(t, v.broken ?? "", v.skip, v.broken !== undefined);
        else if (v.ok) {
          passed.push(v.text);
          t.ok();
        } else t.fail(v.expected, v.actual, v.ev);
      }
      return t.outcome(`forced probes were obeyed (${passed.join("; ")})`, "no forced probe was answered");
    };
    return { observe, finish };
  }),
  serverCheck({
    id: "openai-chat/tool-call/streaming-parity",
    create() {
      type Seen = { name?: string; args?: string; ev: Evidence; skip?: string; broken?: string };
      let stream: Seen | undefined;
      let sync: Seen | undefined;
      const observe = onResponses((r) => {
        if (r.base !== L.forcedStream && r.base !== L.forcedSync) return;
        const first = callsOf(r)[0];
        const seen: Seen = { ev: first ? callEvidence(first, r) : r.evidence };
        if (r.incomplete || r.errored) seen.skip = r.incomplete ?? `${r.label} ended with an error`;
        if (r.broken) seen.broken = r.label;
        if (first) {
          seen.name = first.name ?? "(no name)";
          seen.args = first.args;
        }
        if (r.base === L.forcedStream) stream = seen;
        else sync = seen;
      });
      const finish = (): Outcome => {
        const t = new Tally();
        const broken = [sync, stream].find((x) => x?.broken)?.broken;
        if (broken) {
          t.knockOn(NOT_RESET, broken);
          return t.outcome("");
        }
        if (!sync || sync.skip || sync.name === undefined) return t.outcome("", sync?.skip ?? "the non-streamed forced probe made no call");
        if (!stream || stream.skip) return t.outcome("", stream?.skip ?? "the streamed forced probe was not answered");
        if (stream.name !== sync.name) {
          t.fail(`the streamed answer calls ${sync.name} too`, `${L.forcedStream}: ${stream.name === undefined ? "no tool call" : `calls ${stream.name}`} where ${L.forcedSync} calls ${sync.name}`, stream.ev);
          return t.outcome("");
        }
        t.ok();
        const same = sameJson(stream.args, sync.args);
        const args = same === "too deep" ? `could not be compared (${tooDeep()})` : same ? "are equal" : `differ (${excerpt(stream.args ?? "", 60)} vs ${excerpt(sync.args ?? "", 60)})`;
        return t.outcome(`both answers call ${sync.name}; arguments ${args}`);
      };
      return { observe, finish };
    },
  }),
];

/** Whether two argument texts parse to the same JSON (key order counts), or "too deep" where one cannot be written again. */
function sameJson(a: string | undefined, b: string | undefined): boolean | "too deep" {
  const pa = parseJson(a || "{}");
  const pb = parseJson(b || "{}");
  if (!pa.ok || !pb.ok) return false;
  const ta = stringifyOrUndefined(pa.value);
  const tb = stringifyOrUndefined(pb.value);
  if (ta === undefined || tb === undefined) return "too deep";
  return ta === tb;
}

/** arguments-valid-for-tool and arguments-no-unknown-keys: one validation, two rules. */
function argumentRules(): CheckDef[] {
  const make = (kind: "valid" | "unknown"): CheckDef =>
    serverCheck({
      id: kind === "valid" ? "openai-chat/tool-call/arguments-valid-for-tool" : "openai-chat/tool-call/arguments-no-unknown-keys",
      create(ctx) {
        const catalogue = activeCatalogue(readParams(ctx.params).catalogue);
        const t = new Tally();
        let n = 0;
        const observe = onCalls((c, r) => {
          if (c.name === undefined) return;
          const p = parsedArgs(c, r);
          if (!p.ok) {
            if ("skip" in p) unjudged(t, p, r);
            return;
          }
          const j = judgeArgs(p.value, c.name, catalogue, r.info.tools?.get(c.name), !!r.info.tools?.has(c.name));
          if (!j) return t.untestable(`${c.name} is neither a catalogue tool nor offered with parameters`);
          n++;
          if (kind === "valid") {
            if (j.errors.length === 0) t.ok();
            else t.fail(`arguments valid against ${j.source}`, `${r.label}: ${callName(c, r.label)} ${excerpt(c.args, 60)}: ${listFirst(j.errors, String, LISTED, "; ")}`, callEvidence(c, r));
          } else if (j.unknownKeys.length === 0) t.ok();
          else t.fail("only properties the tool defines", `${r.label}: ${callName(c, r.label)} has unknown key(s) ${listFirst(j.unknownKeys, (k) => excerpt(k, 60))} (${excerpt(c.args, 60)})`, callEvidence(c, r));
        });
        return { observe, finish: () => t.outcome(kind === "valid" ? `${n} call(s) had arguments valid for their tool` : `${n} call(s) used only defined properties`, "no complete call of a known tool was observed") };
      },
    });
  return [make("valid"), make("unknown")];
}
