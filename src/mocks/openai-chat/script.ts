/**
 * Scripted turns (`--scenario-file`, protocol doc §6): a zod-validated list of turns, each matched
 * by turn number (the number of assistant messages in the history plus one) or by a regular
 * expression on the last user text, and answered with text, reasoning, calls, a finish reason, an
 * in-stream error or an HTTP error. The first matching turn wins; no match falls back to the rules.
 */
import { z } from "zod";
import type { Answer } from "./answer.js";
import type { ApiError } from "./errors.js";
import { MockOptionError } from "../../core/protocol.js";

const FinishReason = z.enum(["stop", "length", "tool_calls", "content_filter", "function_call"]);

const ScriptAnswer = z.strictObject({
  text: z.string().optional(),
  reasoning: z.string().optional(),
  calls: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        /** An object (sent as its JSON text) or a raw string, sent as is (it may be invalid JSON). */
        arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
      }),
    )
    .optional(),
  finish: FinishReason.optional(),
  error: z.strictObject({ message: z.string(), type: z.string().optional(), code: z.string().nullable().optional() }).optional(),
  httpError: z
    .strictObject({
      status: z.number().int().min(400).max(599),
      message: z.string().optional(),
      type: z.string().optional(),
      code: z.string().nullable().optional(),
      retryAfter: z.number().nonnegative().optional(),
    })
    .optional(),
});

const ScriptTurn = z
  .strictObject({
    turn: z.number().int().min(1).optional(),
    /** A regular expression tested against the last user message's text. */
    match: z
      .string()
      .refine((s) => {
        try {
          new RegExp(s);
          return true;
        } catch {
          return false;
        }
      }, "not a valid regular expression")
      .optional(),
    answer: ScriptAnswer,
  })
  .refine((t) => t.turn !== undefined || t.match !== undefined, "a turn needs `turn` or `match`");

export const ScenarioScriptSchema = z.strictObject({
  description: z.string().optional(),
  turns: z.array(ScriptTurn).min(1),
});

export type ScenarioScript = z.infer<typeof ScenarioScriptSchema>;
export type ScriptAnswerT = z.infer<typeof ScriptAnswer>;

/** Validates a script; throws an Error naming what is wrong. */
export function parseScenarioScript(value: unknown): ScenarioScript {
  const r = ScenarioScriptSchema.safeParse(value);
  if (!r.success) throw new MockOptionError(`openai-chat mock: invalid scenario script: ${z.prettifyError(r.error)}`);
  return r.data;
}

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
