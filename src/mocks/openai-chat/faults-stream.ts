/**
 * Faults of the stream's events (protocol doc §7): data payloads, `[DONE]`, the chunk envelope,
 * choices and deltas, finish reasons, usage, and in-stream errors. Each rewrites the step sequence
 * of a stream; state lives inside each run of a transform, never in the record.
 */
import { concatBytes } from "../../core/transport/sse-framing.js";
import type { FaultHooks } from "./faults-http.js";
import type { StreamContext } from "./hooks.js";
import {
  deltaOf,
  dropKind,
  editChunk,
  isChunk,
  mapKind,
  mapSteps,
  prependSteps,
  type Json,
  type Step,
} from "./steps.js";


const isTextAnswer = (ctx: StreamContext) => ctx.answer.calls.length === 0;

/** Rewrites the finish step of text answers only (calls keep theirs). */
function onTextFinish(fn: (step: Step, ctx: StreamContext) => Step | Step[]) {
  return mapKind<StreamContext>("finish", (s, ctx) => (isTextAnswer(ctx) ? fn(s, ctx) : s));
}

const setFinish = (reason: string | null) => (s: Step) =>
  editChunk(s, (_c, _d, choice) => {
    choice.finish_reason = reason;
  });

/** Ends a text stream with `payload` where the finish chunk was: no finish, no usage chunk. */
function endTextWithError(payload: (ctx: StreamContext) => Json, after: (ctx: StreamContext) => Step[] = () => []) {
  return function* (steps: Iterable<Step>, ctx: StreamContext): Iterable<Step> {
    if (!isTextAnswer(ctx)) {
      yield* steps;
      return;
    }
    for (const s of steps) {
      if (s.kind === "finish") {
        yield { kind: "error", data: payload(ctx) };
        yield* after(ctx);
      } else if (s.kind !== "usage") yield s;
    }
  };
}

/** JSON of the chunk with a 0xFF byte just inside the opening quote of its content. */
function withStrayByte(chunk: Json): Uint8Array {
  const json = JSON.stringify(chunk);
  const enc = new TextEncoder();
  const marker = '"content":"';
  const at = json.indexOf(marker) + marker.length;
  return concatBytes([enc.encode(json.slice(0, at)), new Uint8Array([0xff]), enc.encode(json.slice(at))]);
}

export const STREAM_FAULTS: Record<string, FaultHooks> = {
  "keepalive-as-data": {
    description: "Sends `data: : OPENROUTER PROCESSING` before the first chunk",
    violates: ["openai-chat/sse/data-json"],
    transformSteps: prependSteps<StreamContext>({ kind: "extra", data: ": OPENROUTER PROCESSING" }),
  },
  "sse-invalid-utf8": {
    description: "A lone 0xFF byte in the first content delta",
    violates: ["openai-chat/sse/utf8"],
    transformSteps: function* (steps) {
      let hit = false;
      for (const s of steps) {
        if (!hit && s.kind === "text" && isChunk(s.data)) {
          hit = true;
          yield { ...s, data: withStrayByte(s.data) };
        } else yield s;
      }
    },
  },
  "no-done": {
    description: "EOF after the last chunk, without [DONE]",
    violates: ["openai-chat/done/present"],
    transformSteps: dropKind<StreamContext>("done"),
  },
  "events-after-done": {
    description: "A content chunk after [DONE]",
    violates: ["openai-chat/done/last-event"],
    transformSteps: mapKind<StreamContext>("done", (s, ctx) => [
      s,
      { kind: "extra", data: ctx.chunk({ content: " Anything else?" }) },
    ]),
  },
  "chunk-id-per-chunk": {
    description: "A new `id` on every chunk",
    violates: ["openai-chat/envelope/fields"],
    transformSteps: function* (steps) {
      let n = 0;
      for (const s of steps) {
        if (isChunk(s.data) && typeof s.data.id === "string") {
          const k = n++;
          yield k === 0 ? s : editChunk(s, (c) => void (c.id = `${String(c.id)}-${k}`));
        } else yield s;
      }
    },
  },
  "chunk-wrong-object": {
    description: 'Chunks say `object: "chat.completion"`',
    violates: ["openai-chat/envelope/fields"],
    transformSteps: mapSteps<StreamContext>((s) =>
      isChunk(s.data) && s.data.object === "chat.completion.chunk"
        ? editChunk(s, (c) => void (c.object = "chat.completion"))
        : s,
    ),
  },
  "usage-choices-null": {
    description: "The usage chunk has `choices: null`",
    violates: ["openai-chat/chunk/choices-array"],
    transformSteps: mapKind<StreamContext>("usage", (s) => editChunk(s, (c) => void (c.choices = null))),
  },
  "usage-choices-missing": {
    description: "The usage chunk has no `choices`",
    violates: ["openai-chat/chunk/choices-array"],
    transformSteps: mapKind<StreamContext>("usage", (s) => editChunk(s, (c) => void delete c.choices)),
  },
  "choice-index-missing": {
    description: "Choices without `index`",
    violates: ["openai-chat/chunk/choice-index"],
    transformSteps: mapSteps<StreamContext>((s) =>
      deltaOf(s) ? editChunk(s, (_c, _d, choice) => void delete choice.index) : s,
    ),
  },
  "content-not-string": {
    description: '`delta.content` as an array (["text"]) in content deltas',
    violates: ["openai-chat/delta/shape"],
    transformSteps: mapKind<StreamContext>("text", (s) => editChunk(s, (_c, d) => void (d.content = [d.content]))),
  },
  "missing-role": {
    description: "No `role` anywhere",
    violates: ["openai-chat/delta/role-first"],
    transformSteps: mapSteps<StreamContext>((s) =>
      deltaOf(s) && "role" in (deltaOf(s) as Json) ? editChunk(s, (_c, d) => void delete d.role) : s,
    ),
  },
  "role-empty-string": {
    description: '`role: ""` in the first delta',
    violates: ["openai-chat/delta/role-first"],
    transformSteps: mapSteps<StreamContext>((s) =>
      deltaOf(s) && "role" in (deltaOf(s) as Json) ? editChunk(s, (_c, d) => void (d.role = "")) : s,
    ),
  },
  "empty-tool-calls-array": {
    description: "`tool_calls: []` on every content delta",
    violates: ["openai-chat/delta/no-empty-tool-calls"],
    transformSteps: mapKind<StreamContext>("text", (s) => editChunk(s, (_c, d) => void (d.tool_calls = []))),
  },
  "content-with-tool-call": {
    description: '"Let me read it." in the same delta as the first tool-call delta',
    violates: ["openai-chat/delta/content-with-tool-calls"],
    transformSteps: mapKind<StreamContext>("tool", (s) =>
      s.call?.first && s.call.index === 0 ? editChunk(s, (_c, d) => void (d.content = "Let me read it.")) : s,
    ),
  },
  "missing-finish-reason": {
    description: "Never sets `finish_reason` (the final chunk keeps null)",
    violates: ["openai-chat/finish/exactly-once"],
    transformSteps: mapKind<StreamContext>("finish", setFinish(null)),
  },
  "finish-reason-nonstandard": {
    description: '`finish_reason: "end_turn"` on text answers',
    violates: ["openai-chat/finish/exactly-once"],
    transformSteps: onTextFinish(setFinish("end_turn")),
  },
  "finish-reason-twice": {
    description: 'A second `{}` chunk with "stop" after the finish chunk of text answers',
    violates: ["openai-chat/finish/exactly-once"],
    transformSteps: onTextFinish((s, ctx) => [s, { kind: "extra", data: ctx.chunk({}, "stop") }]),
  },
  "stop-instead-of-tool-calls": {
    description: '`finish_reason: "stop"` on answers with calls',
    violates: ["openai-chat/finish/matches-tool-calls"],
    transformSteps: mapKind<StreamContext>("finish", (s, ctx) => (ctx.answer.calls.length ? setFinish("stop")(s) : s)),
  },
  "tool-calls-reason-on-text": {
    description: '`finish_reason: "tool_calls"` on text answers',
    violates: ["openai-chat/finish/matches-tool-calls"],
    transformSteps: onTextFinish(setFinish("tool_calls")),
  },
  "usage-every-chunk": {
    description: "A running `usage` on every chunk when usage is requested",
    violates: ["openai-chat/usage/only-final-chunk"],
    transformSteps: mapSteps<StreamContext>((s, ctx) =>
      ctx.includeUsage && s.kind !== "usage" && isChunk(s.data) && "usage" in s.data
        ? editChunk(s, (c) => void (c.usage = ctx.meter.usage()))
        : s,
    ),
  },
  "usage-chunk-missing": {
    description: "No usage chunk despite `include_usage`",
    violates: ["openai-chat/usage/matches-request"],
    transformSteps: dropKind<StreamContext>("usage"),
  },
  "usage-unrequested": {
    description: "A usage chunk although `include_usage` was not asked for",
    violates: ["openai-chat/usage/matches-request"],
    transformSteps: mapKind<StreamContext>("finish", (s, ctx) =>
      ctx.includeUsage ? s : [s, { kind: "usage", data: ctx.usageChunk() }],
    ),
  },
  "stream-error-vllm-object": {
    description: 'Ends text streams with {"object": "error", "message": ...} in place of the finish chunk',
    violates: ["openai-chat/errors/in-stream-shape"],
    transformSteps: endTextWithError(() => ({
      object: "error",
      message: "The model failed to generate a response",
      type: "InternalServerError",
      param: null,
      code: 500,
    })),
  },
  "stream-error-then-content": {
    description: "Ends text streams with an error event in place of the finish chunk, then sends more content",
    violates: ["openai-chat/errors/in-stream-shape"],
    transformSteps: endTextWithError(
      () => ({ error: { message: "The model failed mid-answer", type: "server_error", param: null, code: "upstream_error" } }),
      (ctx) => [{ kind: "extra", data: ctx.chunk({ content: " (continued after the error)" }) }],
    ),
  },
};
