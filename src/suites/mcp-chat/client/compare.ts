/**
 * Reading and comparing adapter results: shape validation for what clients POST, and a
 * human-readable diff of an actual result against the expected one.
 */
import type { Parsed as KitParsed } from "../../../core/client-cases/judge.js";
import { canonicalJson, clip, diffOutcome, diffText, isObject } from "../../../core/client-cases/compare.js";
import { OUTCOMES, type AdapterResult, type AdapterTool } from "./adapters/types.js";

export { canonicalJson };

export type Parsed = KitParsed<AdapterResult>;

/** Validates an untrusted value as an AdapterResult. */
export function parseAdapterResult(value: unknown): Parsed {
  const bad = (error: string): Parsed => ({ ok: false, error });
  if (!isObject(value)) return bad("result must be an object {text, tools, outcome, error?}");
  if (typeof value.text !== "string") return bad("result.text must be a string");
  if (!Array.isArray(value.tools)) return bad("result.tools must be an array");
  if (!OUTCOMES.includes(value.outcome as AdapterResult["outcome"])) {
    return bad(`result.outcome must be one of ${OUTCOMES.join(", ")}`);
  }
  if (value.error !== undefined && typeof value.error !== "string") return bad("result.error must be a string");
  const tools: AdapterTool[] = [];
  for (const [i, t] of value.tools.entries()) {
    if (!isObject(t) || typeof t.id !== "string" || typeof t.name !== "string" || typeof t.ended !== "boolean") {
      return bad(`result.tools[${i}] must be {id: string, name: string, args?, ended: boolean}`);
    }
    tools.push({ id: t.id, name: t.name, ...(t.args !== undefined ? { args: t.args } : {}), ended: t.ended });
  }
  return {
    ok: true,
    result: {
      text: value.text,
      tools,
      outcome: value.outcome as AdapterResult["outcome"],
      ...(typeof value.error === "string" ? { error: value.error } : {}),
    },
  };
}

/**
 * Differences between expected and actual, one line each; empty when they agree. An error
 * message only has to carry the expected one (trimmed): clients may prefix or decorate it. A
 * card's `args`, which a result may leave out, is compared only when the client reported it.
 */
export function diffResults(expected: AdapterResult, actual: AdapterResult): string[] {
  const out = diffOutcome(expected, actual);
  const text = diffText("text", expected.text, actual.text);
  if (text) out.push(text);
  out.push(...diffTools(expected.tools, actual.tools));
  return out;
}

function diffTools(expected: AdapterTool[], actual: AdapterTool[]): string[] {
  const out: string[] = [];
  if (expected.length !== actual.length) {
    out.push(`tools: expected ${expected.length} cards ${ids(expected)}, got ${actual.length} ${ids(actual)}`);
  }
  const n = Math.min(expected.length, actual.length);
  for (let i = 0; i < n; i++) {
    const e = expected[i]!;
    const a = actual[i]!;
    for (const k of ["id", "name", "args", "ended"] as const) {
      if (k === "args" && a.args === undefined) continue;
      const [want, got] = [canonicalJson(e[k]), canonicalJson(a[k])];
      if (want !== got) out.push(`tools[${i}] (${e.id}).${k}: expected ${want}, got ${got}`);
    }
  }
  return out;
}

const ids = (tools: AdapterTool[]) => `[${tools.map((t) => `${t.id}${t.ended ? "" : " (open)"}`).join(", ")}]`;

/** One-line summary of a result for report fields. */
export function summariseResult(r: AdapterResult): string {
  const tools = r.tools.map((t) => `${t.id}:${t.name}${t.ended ? "" : "(open)"}`).join(",");
  const text = clip(r.text, 60);
  return `${r.outcome}${r.error !== undefined ? ` ${JSON.stringify(r.error)}` : ""}; text ${JSON.stringify(text)}; tools [${tools}]`;
}
