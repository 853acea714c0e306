/**
 * Playing a validated scenario script (script.ts validates it): the first turn that matches the
 * turn number and the last user text, and its Answer. No zod here, so the engine loads none.
 */
import type { Answer } from "./answer.js";
import type { ApiError } from "./errors.js";
import type { ScenarioScript, ScriptAnswerT } from "./script.js";

export function matchScript(script: ScenarioScript, turn: number, userText: string): ScriptAnswerT | undefined {
  for (const t of script.turns) {
    if (t.turn !== undefined && t.turn !== turn) continue;
    if (t.match !== undefined && !new RegExp(t.match).test(userText)) continue;
    return t.answer;
  }
  return undefined;
}

/**
 * The Answer of a scripted turn. Calls get fresh ids; a call of a tool the request does not offer is
 * refused in text, as everywhere in the mock.
 */
export function scriptAnswer(
  a: ScriptAnswerT,
  env: { offered: ReadonlySet<string>; newCallId: () => string },
): Answer {
  if (a.httpError) {
    const h = a.httpError;
    const httpError: ApiError = {
      status: h.status,
      source: "scenario",
      error: {
        message: h.message ?? `Scripted HTTP error ${h.status}`,
        type: h.type ?? (h.status >= 500 ? "server_error" : "invalid_request_error"),
        param: null,
        code: h.code ?? null,
      },
      ...(h.retryAfter !== undefined ? { headers: { "retry-after": String(h.retryAfter) } } : {}),
    };
    return { rule: "script", reasoning: "", text: [], calls: [], finish: "stop", httpError };
  }
  const missing = (a.calls ?? []).find((c) => !env.offered.has(c.name));
  if (missing) {
    return {
      rule: "refused",
      reasoning: "",
      text: [`The scripted turn calls ${missing.name}, which this request does not offer in tools[].`],
      calls: [],
      finish: "stop",
    };
  }
  const calls = (a.calls ?? []).map((c) => ({
    id: env.newCallId(),
    name: c.name,
    arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
  }));
  return {
    rule: "script",
    reasoning: a.reasoning ?? "",
    text: a.text ? [a.text] : [],
    calls,
    finish: a.finish ?? (calls.length ? "tool_calls" : "stop"),
    ...(a.error
      ? { streamError: { message: a.error.message, type: a.error.type ?? "server_error", param: null, code: a.error.code ?? null } }
      : {}),
  };
}
