/**
 * Faults of the request/response level (protocol doc §7): auth, /models, error bodies, bad input,
 * non-streamed bodies, follow-up handling, and the stream's transport (content type, SSE framing,
 * holding the body open, buffering).
 */
import { textAnswer } from "./answer.js";
import { isFollowUp } from "./history.js";
import type { Hooks } from "./hooks.js";
import type { Json } from "./steps.js";
import { bufferAll } from "./stream.js";

export type FaultHooks = Hooks & { description: string; violates: string[] };


export const HTTP_FAULTS: Record<string, FaultHooks> = {
  "auth-missing-accepted": {
    description: "With an API key configured, answers requests that carry no Authorization",
    violates: ["openai-chat/auth/rejects-unauthenticated"],
    auth: { acceptMissing: true },
  },
  "auth-invalid-accepted": {
    description: "With an API key configured, accepts any bearer key",
    violates: ["openai-chat/auth/rejects-unauthenticated"],
    auth: { acceptAnyKey: true },
  },
  "models-bare-array": {
    description: "GET /models returns a bare array of models",
    violates: ["openai-chat/models/list-shape"],
    transformModels: (body) => body.data,
  },
  "sse-wrong-content-type": {
    description: "Streams are sent as application/json",
    violates: ["openai-chat/sse/content-type"],
    streamContentType: "application/json",
  },
  "sse-no-space": {
    description: "Data lines are `data:{...}` without the space",
    violates: ["openai-chat/sse/canonical-framing"],
    sse: { dataPrefix: "data:" },
  },
  "sse-crlf": {
    description: "CRLF line endings",
    violates: ["openai-chat/sse/canonical-framing"],
    sse: { eol: "\r\n" },
  },
  "sse-event-field": {
    description: "An `event: message` line before each data line",
    violates: ["openai-chat/sse/canonical-framing"],
    sse: { linesBefore: () => ["event: message"] },
  },
  "stream-reset": {
    description: "Every stream breaks off (the connection is dropped) after its second write",
    violates: ["openai-chat/request/not-reset"],
    *transformChunks(chunks) {
      let n = 0;
      for (const c of chunks) {
        if (n++ === 2) throw new Error("stream-reset fault: the connection is dropped");
        yield c;
      }
    },
  },
  "hold-open-after-done": {
    description: "Keeps the body open 30 s after [DONE]",
    violates: ["openai-chat/done/connection-closes"],
    pacing: { closeDelayMs: 30_000 },
  },
  "error-string": {
    description: 'Error bodies are {"error": "<message>"}',
    violates: ["openai-chat/errors/shape"],
    errorBody: (e) => ({ error: e.error.message }),
  },
  "error-as-200-stream": {
    description: "An unknown model with `stream: true` gets a 200 stream carrying an error event",
    violates: ["openai-chat/errors/pre-stream-status"],
    unknownModelAsStream: true,
  },
  "accepts-bad-input": {
    description: "Answers invalid requests (malformed JSON, missing fields, bad roles) with 200",
    violates: ["openai-chat/errors/bad-input-400"],
    input: { lenient: true },
  },
  "bad-input-500": {
    description: "Malformed JSON gets 500",
    violates: ["openai-chat/errors/bad-input-400"],
    input: { malformedStatus: 500 },
  },
  "bad-input-422-detail": {
    description: 'Bad input gets 422 {"detail": [...]} (FastAPI validation style)',
    violates: ["openai-chat/errors/bad-input-400", "openai-chat/errors/shape"],
    input: {
      badInput: (e) => ({
        status: 422,
        body: {
          detail: [
            {
              type: "value_error",
              loc: ["body", ...(e.error.param ? e.error.param.split(".") : [])],
              msg: e.error.message,
            },
          ],
        },
      }),
    },
  },
  "sync-wrong-content-type": {
    description: "Non-streamed completions are sent as text/plain",
    violates: ["openai-chat/sync/response-shape"],
    syncContentType: "text/plain; charset=utf-8",
  },
  "sync-role-missing": {
    description: "Non-streamed messages have no `role`",
    violates: ["openai-chat/sync/response-shape"],
    transformCompletion: (body) => {
      for (const c of (body.choices as Json[] | undefined) ?? []) delete (c.message as Json).role;
      return body;
    },
  },
  "reject-null-assistant-content": {
    description: "400 for an assistant message with `content: null`",
    violates: ["openai-chat/turn/follow-up-accepted"],
    input: {
      rejectMessage: (m) =>
        m.role === "assistant" && m.content === null ? "assistant messages must have a string `content`" : null,
    },
  },
  "follow-up-empty-answer": {
    description: 'After tool results, answers with `content: ""`',
    violates: ["openai-chat/turn/follow-up-final-answer"],
    transformAnswer: (answer, ctx) => (isFollowUp(ctx.request) ? textAnswer("", answer.rule) : answer),
  },
  "reject-space-content": {
    description: 'A 400 for an assistant message with `content: " "`',
    violates: ["openai-chat/request/continue-shape-accepted"],
    input: {
      rejectMessage: (m) =>
        m.role === "assistant" && m.content === " " ? "assistant `content` must not be blank" : null,
    },
  },
  "stream-needs-accept": {
    description: "406 (ErrorResponse) for streaming requests whose Accept lacks text/event-stream",
    violates: ["openai-chat/request/continue-shape-accepted"],
    input: { requireStreamAccept: true },
  },
  "buffered-stream": {
    description: "Holds every chunk until the answer is complete, then writes all at once",
    violates: ["openai-chat/timing/streams-incrementally"],
    transformChunks: bufferAll,
  },
};
