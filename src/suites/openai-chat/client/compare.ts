/**
 * Reading and comparing adapter results: shape validation for what clients POST, and a
 * human-readable diff of an actual result against the expected one.
 */
import type { Parsed as KitParsed } from "../../../core/client-cases/judge.js";
import { canonicalJson, clip, diffOutcome, diffText, isObject, quote } from "../../../core/client-cases/compare.js";
import { OUTCOMES, type AdapterResult, type AdapterUsage, type AssembledCall } from "./adapters/types.js";

export { canonicalJson };

export type Parsed = KitParsed<AdapterResult>;

const SHAPE = "{text, reasoning, toolCalls: [{id, name, arguments}], finishReason, usage, outcome, error?}";

/**
 * Validates an untrusted value as an AdapterResult. `reasoning`, `finishReason` and `usage` may be
 * omitted: an omitted one stays absent (not reported, so not compared), unlike a reported null.
 */
export function parseAdapterResult(value: unknown): Parsed {
  const bad = (error: string): Parsed => ({ ok: false, error });
  if (!isObject(value)) return bad(`result must be an object ${SHAPE}`);
  if (typeof value.text !== "string") return bad("result.text must be a string");
  if (value.reasoning !== undefined && typeof value.reasoning !== "string") return bad("result.reasoning must be a string");
  if (!Array.isArray(value.toolCalls)) return bad("result.toolCalls must be an array");
  if (!(value.finishReason === null || value.finishReason === undefined || typeof value.finishReason === "string")) {
    return bad("result.finishReason must be a string or null");
  }
  if (!OUTCOMES.includes(value.outcome as AdapterResult["outcome"])) return bad(`result.outcome must be one of ${OUTCOMES.join(", ")}`);
  if (value.error !== undefined && typeof value.error !== "string") return bad("result.error must be a string");
  const toolCalls: AssembledCall[] = [];
  for (const [i, t] of value.toolCalls.entries()) {
    if (!isObject(t) || typeof t.id !== "string" || typeof t.name !== "string" || typeof t.arguments !== "string") {
      return bad(`result.toolCalls[${i}] must be {id: string, name: string, arguments: string}`);
    }
    toolCalls.push({ id: t.id, name: t.name, arguments: t.arguments });
  }
  let usage: AdapterUsage | null | undefined = value.usage === null ? null : undefined;
  if (value.usage !== undefined && value.usage !== null) {
    const u = value.usage;
    if (!isObject(u) || !["prompt_tokens", "completion_tokens", "total_tokens"].every((k) => typeof u[k] === "number")) {
      return bad("result.usage must be null or {prompt_tokens, completion_tokens, total_tokens} numbers");
    }
    usage = { prompt_tokens: u.prompt_tokens as number, completion_tokens: u.completion_tokens as number, total_tokens: u.total_tokens as number };
  }
  return {
    ok: true,
    result: {
      text: value.text,
      ...(typeof value.reasoning === "string" ? { reasoning: value.reasoning } : {}),
      toolCalls,
      ...(value.finishReason !== undefined ? { finishReason: value.finishReason as string | null } : {}),
      ...(usage !== undefined ? { usage } : {}),
      outcome: value.outcome as AdapterResult["outcome"],
      ...(typeof value.error === "string" ? { error: value.error } : {}),
    },
  };
}

export type ResultField = "text" | "reasoning" | "finishReason" | "usage";

export interface DiffOptions {
  /** Compare call ids only for being present and distinct (quirks that change ids). */
  looseIds?: boolean;
  /** Fields left out of the comparison. */
  ignore?: readonly ResultField[];
}

/** Which optional fields a case has something to compare in: finish reason unless it ends in an error, usage when requested. */
function comparable(expected: AdapterResult, ignored: ReadonlySet<ResultField>): Record<"reasoning" | "finishReason" | "usage", boolean> {
  return {
    reasoning: !ignored.has("reasoning"),
    finishReason: !ignored.has("finishReason") && expected.outcome !== "error",
    usage: !ignored.has("usage") && !!expected.usage,
  };
}

/**
 * Differences between expected and actual, one line each; empty when they agree. An error message
 * only has to carry the expected one (trimmed): clients may prefix or decorate it. Usage is
 * compared only when the expected result has one (the request asked for it). An optional field the
 * client left out (`reasoning`, `finishReason`, `usage`) is not compared: see `unreportedFields`.
 */
export function diffResults(expected: AdapterResult, actual: AdapterResult, options: DiffOptions = {}): string[] {
  const out = diffOutcome(expected, actual);
  const ignored = new Set(options.ignore ?? []);
  const compare = comparable(expected, ignored);
  const text = ignored.has("text") ? undefined : diffText("text", expected.text, actual.text);
  if (text) out.push(text);
  const reasoning = compare.reasoning && actual.reasoning !== undefined ? diffText("reasoning", expected.reasoning ?? "", actual.reasoning) : undefined;
  if (reasoning) out.push(reasoning);
  out.push(...diffCalls(expected.toolCalls, actual.toolCalls, options));
  const finish = expected.finishReason ?? null;
  if (compare.finishReason && actual.finishReason !== undefined && finish !== actual.finishReason) {
    out.push(`finishReason: expected ${quote(finish)}, got ${quote(actual.finishReason)}`);
  }
  if (compare.usage && actual.usage !== undefined && canonicalJson(expected.usage) !== canonicalJson(actual.usage)) {
    out.push(`usage: expected ${canonicalJson(expected.usage)}, got ${canonicalJson(actual.usage)}`);
  }
  return out;
}

/**
 * The optional fields this case would have compared but the client left out of its result: not
 * judged (neither passed nor failed). Reasoning counts only where the case streams some.
 */
export function unreportedFields(expected: AdapterResult, actual: AdapterResult, options: Pick<DiffOptions, "ignore"> = {}): ResultField[] {
  const compare = comparable(expected, new Set(options.ignore ?? []));
  const out: ResultField[] = [];
  if (compare.reasoning && !!expected.reasoning && actual.reasoning === undefined) out.push("reasoning");
  if (compare.finishReason && actual.finishReason === undefined) out.push("finishReason");
  if (compare.usage && actual.usage === undefined) out.push("usage");
  return out;
}

function diffCalls(expected: AssembledCall[], actual: AssembledCall[], options: DiffOptions): string[] {
  const out: string[] = [];
  if (expected.length !== actual.length) {
    out.push(`toolCalls: expected ${expected.length} call(s) ${names(expected)}, got ${actual.length} ${names(actual)}`);
  }
  const n = Math.min(expected.length, actual.length);
  for (let i = 0; i < n; i++) {
    const e = expected[i]!;
    const a = actual[i]!;
    if (options.looseIds) {
      if (a.id === "") out.push(`toolCalls[${i}].id: expected a non-empty id, got ""`);
      else if (actual.findIndex((x) => x.id === a.id) !== i) out.push(`toolCalls[${i}].id: ${quote(a.id)} is not unique`);
    } else if (e.id !== a.id) out.push(`toolCalls[${i}].id: expected ${quote(e.id)}, got ${quote(a.id)}`);
    if (e.name !== a.name) out.push(`toolCalls[${i}].name: expected ${quote(e.name)}, got ${quote(a.name)}`);
    if (e.arguments !== a.arguments) {
      const d = diffText(`toolCalls[${i}].arguments`, e.arguments, a.arguments);
      if (d) out.push(d);
    }
  }
  return out;
}

const names = (calls: AssembledCall[]) => `[${calls.map((c) => `${c.id}:${c.name}`).join(", ")}]`;

/** One-line summary of a result for report fields. */
export function summariseResult(r: AdapterResult): string {
  const calls = r.toolCalls.map((c) => `${c.id}:${c.name}(${clip(c.arguments, 40)})`).join(", ");
  const text = clip(r.text, 60);
  const reasoning = r.reasoning ? `; reasoning ${JSON.stringify(clip(r.reasoning, 30))}` : "";
  const usage = r.usage ? `; usage ${r.usage.total_tokens}` : "";
  const finish = r.finishReason === undefined ? "not reported" : (r.finishReason ?? "none");
  return `${r.outcome}${r.error !== undefined ? ` ${JSON.stringify(r.error)}` : ""}; finish ${finish}; text ${JSON.stringify(text)}${reasoning}; calls [${calls}]${usage}`;
}
