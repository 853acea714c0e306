/**
 * Scripted turns (`--scenario-file`, protocol doc §6): a zod-validated list of turns, each matched
 * by turn number (the number of assistant messages in the history plus one) or by a regular
 * expression on the last user text, and answered with text, reasoning, calls, a finish reason, an
 * in-stream error or an HTTP error. The first matching turn wins; no match falls back to the rules.
 * Here the validation (zod, slow to load: imported only where a script comes in); playing a script
 * is in script-turns.ts.
 */
import * as z from "zod/mini";
import { MockOptionError } from "../../core/run/protocol.js";
import { ENGLISH } from "../../core/mock/zod-english.js";

// zod/mini, the tree-shakable build: a script can be given to the msw handlers in the browser.
const FinishReason = z.enum(["stop", "length", "tool_calls", "content_filter", "function_call"]);
const maybeCode = z.optional(z.nullable(z.string()));

const ScriptAnswer = z.strictObject({
  text: z.optional(z.string()),
  reasoning: z.optional(z.string()),
  calls: z.optional(
    z.array(
      z.strictObject({
        name: z.string().check(z.minLength(1)),
        /** An object (sent as its JSON text) or a raw string, sent as is (it may be invalid JSON). */
        arguments: z.optional(z.union([z.record(z.string(), z.unknown()), z.string()])),
      }),
    ),
  ),
  finish: z.optional(FinishReason),
  error: z.optional(z.strictObject({ message: z.string(), type: z.optional(z.string()), code: maybeCode })),
  httpError: z.optional(
    z.strictObject({
      status: z.number().check(z.int(), z.gte(400), z.lte(599)),
      message: z.optional(z.string()),
      type: z.optional(z.string()),
      code: maybeCode,
      retryAfter: z.optional(z.number().check(z.gte(0))),
    }),
  ),
});

const ScriptTurn = z
  .strictObject({
    turn: z.optional(z.number().check(z.int(), z.gte(1))),
    /** A regular expression tested against the last user message's text. */
    match: z.optional(
      z.string().check(
        z.refine((s) => {
          try {
            new RegExp(s);
            return true;
          } catch {
            return false;
          }
        }, "not a valid regular expression"),
      ),
    ),
    answer: ScriptAnswer,
  })
  .check(z.refine((t) => t.turn !== undefined || t.match !== undefined, "a turn needs `turn` or `match`"));

export const ScenarioScriptSchema = z.strictObject({
  description: z.optional(z.string()),
  turns: z.array(ScriptTurn).check(z.minLength(1)),
});

export type ScenarioScript = z.infer<typeof ScenarioScriptSchema>;
export type ScriptAnswerT = z.infer<typeof ScriptAnswer>;

/** Validates a script; throws an Error naming what is wrong. */
export function parseScenarioScript(value: unknown): ScenarioScript {
  const r = ScenarioScriptSchema.safeParse(value, ENGLISH);
  if (!r.success) throw new MockOptionError(`openai-chat mock: invalid scenario script: ${z.prettifyError(r.error)}`);
  return r.data;
}
