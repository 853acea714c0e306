/**
 * Renders an Answer as the canonical stream of protocol doc §3.5, one step at a time:
 *   role chunk (or the first tool delta with the role) → reasoning deltas → content deltas →
 *   per call: `{index, id, type, function: {name, arguments: ""}}` then argument fragments →
 *   `delta: {}` with the finish reason → the usage chunk when asked → `[DONE]`.
 * An in-stream error replaces everything from the finish chunk on. Every chunk carries the same
 * id, created, model and system_fingerprint; `usage: null` when usage was requested.
 */
import { encodeUtf8, type PayloadBytes } from "../../core/mock/sse-writes.js";
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
 * The JSON of `makeChunk(env, {[field]: piece})` (a text or reasoning delta), everything but the
 * piece rendered once per stream: as text, or as UTF-8 bytes around the piece's own.
 */
class DeltaJson {
  private readonly open: string;
  private readonly close: string;
  private head: Uint8Array | undefined;
  private tail: Uint8Array | undefined;

  constructor(env: Envelope, field: string) {
    const { head, tail } = chunkParts(env);
    this.open = `${head}{${JSON.stringify(field)}:`;
    this.close = `},"logprobs":null,"finish_reason":null${tail}`;
  }

  text(piece: string): string {
    return this.open + JSON.stringify(piece) + this.close;
  }

  bytes(piece: string): PayloadBytes {
    this.head ??= encodeUtf8(this.open);
    this.tail ??= encodeUtf8(this.close);
    return { head: this.head, body: pieceJsonBytes(piece), tail: this.tail };
  }
}

/** Short pieces' JSON bytes, kept across streams: a long answer's pieces repeat, and every request for it. */
const PIECE_JSON = new Map<string, Uint8Array>();
/** Entries kept at most: past this the memo starts again. With the length cap, memory stays bounded. */
const PIECE_JSON_MAX = 4096;
/** Pieces longer than this (a large textFragment) are encoded each time, not kept. */
const PIECE_JSON_CHARS = 64;

function pieceJsonBytes(piece: string): Uint8Array {
  if (piece.length > PIECE_JSON_CHARS) return encodeUtf8(JSON.stringify(piece));
  let bytes = PIECE_JSON.get(piece);
  if (bytes === undefined) {
    if (PIECE_JSON.size >= PIECE_JSON_MAX) PIECE_JSON.clear();
    bytes = encodeUtf8(JSON.stringify(piece));
    PIECE_JSON.set(piece, bytes);
  }
  return bytes;
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
  /** Text and reasoning steps carry their JSON (`json`, `jsonBytes`): only for a stream no hook rewrites. */
  withText?: boolean;
}

export function* answerSteps(answer: Answer, o: RenderOptions): Generator<Step> {
  const { env, pacing, meter } = o;
  const chunk = (delta: Json, finish: string | null = null) => makeChunk(env, delta, finish);
  const contentJson = o.withText ? new DeltaJson(env, "content") : undefined;
  const reasoningJson = o.withText ? new DeltaJson(env, o.reasoningField) : undefined;
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
    yield reasoningJson
      ? new TextStep("reasoning", piece, reasoningJson, env, o.reasoningField)
      : { kind: "reasoning", data: chunk({ [o.reasoningField]: piece }) };
  }
  const textStep = (piece: string): Step => {
    meter.add(piece);
    return contentJson ? new TextStep("text", piece, contentJson, env, "content") : { kind: "text", data: chunk({ content: piece }) };
  };
  for (const text of answer.text) {
    // A piece no longer than a fragment is one delta (as fragments gives it), with no generator.
    if (text !== "" && text.length <= pacing.textFragment) yield textStep(text);
    else for (const piece of fragments(text, pacing.textFragment)) yield textStep(piece);
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

/** A delta step written from its JSON (text or bytes): the chunk object is built only if something reads it. */
class TextStep implements Step {
  constructor(
    readonly kind: "reasoning" | "text",
    private readonly piece: string,
    private readonly render: DeltaJson,
    private readonly env: Envelope,
    private readonly field: string,
  ) {}

  get json(): string {
    return this.render.text(this.piece);
  }

  get jsonBytes(): PayloadBytes {
    return this.render.bytes(this.piece);
  }

  get data(): Json {
    return makeChunk(this.env, { [this.field]: this.piece });
  }
}

/** True for an empty array; other iterables (lazy generators) are assumed to hold text. */
function isEmpty(text: Iterable<string>): boolean {
  return Array.isArray(text) && text.every((t) => t === "");
}
