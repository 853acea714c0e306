/**
 * Renders an Answer as the canonical stream of protocol doc §3.5, one step at a time:
 *   role chunk (or the first tool delta with the role) → reasoning deltas → content deltas →
 *   per call: `{index, id, type, function: {name, arguments: ""}}` then argument fragments →
 *   `delta: {}` with the finish reason → the usage chunk when asked → `[DONE]`.
 * An in-stream error replaces everything from the finish chunk on. Every chunk carries the same
 * id, created, model and system_fingerprint; `usage: null` when usage was requested.
 */
import { fragments, type Answer } from "./answer.js";
import type { OpenaiChatPacing } from "./pacing.js";
import { DONE, type Json, type Step } from "./steps.js";
import type { UsageMeter } from "./usage.js";

export const SYSTEM_FINGERPRINT = "fp_agentwire";

export interface Envelope {
  id: string;
  created: number;
  model: string;
  includeUsage: boolean;
}

export type ReasoningField = "reasoning_content" | "reasoning";

export function makeChunk(env: Envelope, delta: Json, finish: string | null = null): Json {
  return {
    id: env.id,
    object: "chat.completion.chunk",
    created: env.created,
    model: env.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(env.includeUsage ? { usage: null } : {}),
  };
}

/**
 * The JSON text of `makeChunk(env, delta, finish)`, the envelope written once per stream: the text
 * JSON.stringify gives the chunk, at a fraction of its cost per event (a long answer's chunks
 * differ only in their delta).
 */
export function chunkText(env: Envelope): (delta: Json, finish: string | null) => string {
  const { head, tail } = chunkParts(env);
  return (delta, finish) => `${head}${JSON.stringify(delta)},"logprobs":null,"finish_reason":${JSON.stringify(finish)}${tail}`;
}

/**
 * The JSON text of `makeChunk(env, {[field]: piece})` (a text or reasoning delta), everything but
 * the piece written once per stream.
 */
export function pieceText(env: Envelope, field: string): (piece: string) => string {
  const { head, tail } = chunkParts(env);
  const open = `${head}{${JSON.stringify(field)}:`;
  const close = `},"logprobs":null,"finish_reason":null${tail}`;
  return (piece) => open + JSON.stringify(piece) + close;
}

/** A chunk's JSON text before its delta and after its finish reason. */
function chunkParts(env: Envelope): { head: string; tail: string } {
  const head =
    `{"id":${JSON.stringify(env.id)},"object":"chat.completion.chunk","created":${JSON.stringify(env.created)},` +
    `"model":${JSON.stringify(env.model)},"system_fingerprint":${JSON.stringify(SYSTEM_FINGERPRINT)},"choices":[{"index":0,"delta":`;
  return { head, tail: env.includeUsage ? '}],"usage":null}' : "}]}" };
}

export function makeUsageChunk(env: Envelope, meter: UsageMeter): Json {
  return {
    id: env.id,
    object: "chat.completion.chunk",
    created: env.created,
    model: env.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [],
    usage: meter.usage(),
  };
}

export interface RenderOptions {
  env: Envelope;
  pacing: OpenaiChatPacing;
  meter: UsageMeter;
  reasoningField: ReasoningField;
  /** Text and reasoning steps carry their JSON text (`json`): only for a stream no hook rewrites. */
  withText?: boolean;
}

export function* answerSteps(answer: Answer, o: RenderOptions): Generator<Step> {
  const { env, pacing, meter } = o;
  const chunk = (delta: Json, finish: string | null = null) => makeChunk(env, delta, finish);
  const contentText = o.withText ? pieceText(env, "content") : undefined;
  const reasoningText = o.withText ? pieceText(env, o.reasoningField) : undefined;
  let roleSent = false;
  const role = () => {
    if (roleSent) return {};
    roleSent = true;
    return { role: "assistant" };
  };
  const startsWithCall = answer.reasoning === "" && answer.calls.length > 0 && isEmpty(answer.text);

  if (!startsWithCall) yield { kind: "role", data: chunk({ ...role(), content: "" }) };
  for (const piece of fragments(answer.reasoning, pacing.textFragment)) {
    meter.add(piece);
    const delta = { [o.reasoningField]: piece };
    yield reasoningText ? new TextStep("reasoning", reasoningText(piece), env, delta) : { kind: "reasoning", data: chunk(delta) };
  }
  for (const text of answer.text) {
    for (const piece of fragments(text, pacing.textFragment)) {
      meter.add(piece);
      yield contentText ? new TextStep("text", contentText(piece), env, { content: piece }) : { kind: "text", data: chunk({ content: piece }) };
    }
  }
  for (const [index, call] of answer.calls.entries()) {
    const ref = { index, id: call.id, name: call.name, arguments: call.arguments };
    const whole = pacing.argFragment <= 0;
    meter.add(call.name);
    if (whole) meter.add(call.arguments);
    const first = {
      index,
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: whole ? call.arguments : "" },
    };
    const head = roleSent ? {} : { ...role(), content: null };
    yield { kind: "tool", data: chunk({ ...head, tool_calls: [first] }), call: { ...ref, first: true } };
    if (whole) continue;
    for (const piece of fragments(call.arguments, pacing.argFragment)) {
      meter.add(piece);
      yield {
        kind: "tool",
        data: chunk({ tool_calls: [{ index, function: { arguments: piece } }] }),
        call: { ...ref, first: false },
      };
    }
  }
  if (answer.streamError) {
    yield { kind: "error", data: { error: { ...answer.streamError } } };
    return;
  }
  yield { kind: "finish", data: chunk({}, answer.finish) };
  if (env.includeUsage) yield { kind: "usage", data: makeUsageChunk(env, meter) };
  yield { kind: "done", data: DONE };
}

/** A delta step written from its JSON text: the chunk object is built only if something reads it. */
class TextStep implements Step {
  constructor(
    readonly kind: "reasoning" | "text",
    readonly json: string,
    private readonly env: Envelope,
    private readonly delta: Json,
  ) {}

  get data(): Json {
    return makeChunk(this.env, this.delta);
  }
}

/** True for an empty array; other iterables (lazy generators) are assumed to hold text. */
function isEmpty(text: Iterable<string>): boolean {
  return Array.isArray(text) && text.every((t) => t === "");
}
