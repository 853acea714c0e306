/**
 * Renders an Answer as one `chat.completion` (protocol doc §3.11): the same text, calls and finish
 * reason as the stream, `content: null` when there are only calls, reasoning on the message, and
 * usage always present.
 */
import type { Answer } from "./answer.js";
import { SYSTEM_FINGERPRINT, type Envelope, type ReasoningField } from "./chunks.js";
import type { Json } from "./steps.js";
import type { UsageMeter } from "./usage.js";

export function completionBody(answer: Answer, env: Envelope, meter: UsageMeter, reasoningField: ReasoningField): Json {
  let text = "";
  for (const piece of answer.text) text += piece;
  meter.add(text);
  meter.add(answer.reasoning);
  for (const c of answer.calls) meter.add(c.name + c.arguments);
  const message: Json = {
    role: "assistant",
    content: answer.calls.length && text === "" ? null : text,
    ...(answer.reasoning ? { [reasoningField]: answer.reasoning } : {}),
    ...(answer.calls.length
      ? {
          tool_calls: answer.calls.map((c) => ({
            id: c.id,
            type: "function",
            function: { name: c.name, arguments: c.arguments },
          })),
        }
      : {}),
    refusal: null,
  };
  return {
    id: env.id,
    object: "chat.completion",
    created: env.created,
    model: env.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [{ index: 0, message, logprobs: null, finish_reason: answer.finish }],
    usage: meter.usage(),
  };
}
