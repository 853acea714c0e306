/**
 * Every fault of the mcp-chat contract (protocol doc §7). Each one breaks exactly one rule of the
 * canonical mock and names, in `violates`, the full ids of the checks it must make fail. A fault is
 * a record of hooks (see hooks.ts); the engine applies whatever hooks the active faults carry.
 */
import type { FaultInfo } from "../../core/run/protocol.js";
import { bufferAll } from "../../core/mock/sse-writes.js";
import { concatBytes, splitJsonLines } from "../../core/transport/sse-framing.js";
import { eventJson } from "./event-json.js";
import {
  afterSentinel,
  done,
  dropSteps,
  failure,
  isEvent,
  isSentinel,
  mapEvents,
  mapSteps,
  prependSteps,
  replaceSentinel,
  text,
  DONE,
  type Step,
} from "./events.js";
import type { Chunk, Hooks, Json } from "./hooks.js";

export interface McpChatFault extends FaultInfo, Hooks {}


export const FAULTS: readonly McpChatFault[] = [
  // --- listing and connection state ---
  {
    name: "servers-missing-path",
    description: "GET /servers leaves out `path`",
    violates: ["mcp-chat/servers/list-shape"],
    transformServers: (list) => list.map(({ path: _path, ...rest }) => rest),
  },
  {
    name: "servers-duplicate-id",
    description: "GET /servers lists `weather` twice",
    violates: ["mcp-chat/servers/list-shape"],
    transformServers: (list) => {
      const twin = list.find((s) => s.id === "weather") ?? list[0];
      return twin ? [...list, { ...twin }] : list;
    },
  },
  {
    name: "servers-empty",
    description: "GET /servers returns []",
    violates: ["mcp-chat/servers/non-empty"],
    transformServers: () => [],
  },
  {
    name: "connect-missing-server-name",
    description: "The connect response has no `server_name`",
    violates: ["mcp-chat/connect/success-shape"],
    transformConnect: ({ server_name: _name, ...rest }) => rest,
  },
  {
    name: "connect-wrong-server-name",
    description: "The connect response's `server_name` differs from the listed name",
    violates: ["mcp-chat/connect/matches-listing"],
    transformConnect: (body) => ({ ...body, server_name: `${String(body.server_name)} (renamed)` }),
  },
  {
    name: "tool-description-null",
    description: "The first tool has `description: null` (connect and status)",
    violates: ["mcp-chat/connect/tool-shape"],
    transformTools: (tools) => tools.map((t, i) => (i === 0 ? { ...t, description: null } : t)),
  },
  {
    name: "connect-unknown-200",
    description: "Connecting an unlisted id answers 200 (the state is left alone)",
    violates: ["mcp-chat/connect/unknown-id-4xx"],
    state: { acceptUnknownIds: true },
  },
  {
    name: "connect-unknown-drops-state",
    description: "Connect disconnects before looking the id up, so an unknown id loses the connection",
    violates: ["mcp-chat/connect/unknown-id-keeps-state"],
    state: { dropStateOnUnknownId: true },
  },
  {
    name: "status-empty-tools",
    description: "GET /status always reports `tools: []`",
    violates: ["mcp-chat/status/connected-shape"],
    transformStatus: (body) => (body.connected ? { ...body, tools: [] } : body),
  },
  {
    name: "status-disconnected-keeps-id",
    description: "GET /status reports `connected: false` with the last connected id",
    violates: ["mcp-chat/status/disconnected-shape"],
    transformStatus: (body, { state }) =>
      !body.connected && state.lastId ? { ...body, server_id: state.lastId } : body,
  },
  {
    name: "multi-connection",
    description: "After connect A then B, GET /status lists A's tools as well",
    // status/connected-shape names state/single-connection as the rule A's tools break.
    violates: ["mcp-chat/state/single-connection"],
    transformStatus: (body, { state, servers }) => {
      if (!body.connected) return body;
      const tools = [...((body.tools as Json[] | undefined) ?? [])];
      for (const id of state.sessionIds) {
        for (const t of servers.find((s) => s.id === id)?.tools ?? []) {
          if (!tools.some((x) => x.name === t.name)) tools.push({ ...t });
        }
      }
      return { ...body, tools };
    },
  },
  {
    name: "reconnect-409",
    description: "Connecting the already connected id answers 409",
    violates: ["mcp-chat/state/reconnect-same-id"],
    state: { reconnectStatus: 409 },
  },
  {
    name: "disconnect-no-success",
    description: "POST /disconnect returns {}",
    violates: ["mcp-chat/disconnect/success-shape"],
    transformDisconnect: () => ({}),
  },
  {
    name: "disconnect-noop",
    description: "POST /disconnect answers {success: true} but stays connected",
    violates: ["mcp-chat/disconnect/clears-state"],
    state: { disconnectKeepsState: true },
  },
  {
    name: "disconnect-idle-404",
    description: "POST /disconnect answers 404 when already disconnected",
    violates: ["mcp-chat/disconnect/idempotent"],
    state: { idleDisconnectStatus: 404 },
  },
  // --- CORS ---
  {
    name: "cors-no-preflight",
    description: "OPTIONS answers 405",
    violates: ["mcp-chat/cors/preflight"],
    cors: { preflightStatus: 405 },
  },
  {
    name: "cors-missing-on-stream",
    description: "The SSE response has no Access-Control-Allow-Origin",
    violates: ["mcp-chat/cors/allow-origin"],
    cors: { omitOnStream: true },
  },
  {
    name: "cors-wildcard",
    description: "Actual responses carry Access-Control-Allow-Origin `*` with Allow-Credentials true",
    violates: ["mcp-chat/cors/credentials"],
    cors: { wildcard: true },
  },
  {
    name: "cors-reflect-any",
    description: "Any Origin is echoed (with credentials), foreign ones included",
    violates: ["mcp-chat/cors/foreign-origin"],
    cors: { reflectAny: true },
  },
  // --- SSE framing ---
  {
    name: "sse-wrong-content-type",
    description: "The stream is sent as text/plain",
    violates: ["mcp-chat/sse/content-type"],
    streamContentType: "text/plain; charset=utf-8",
  },
  {
    name: "sse-no-space",
    description: "Data lines are `data:{…}` without the space",
    violates: ["mcp-chat/sse/data-lines-only"],
    sse: { dataPrefix: "data:" },
  },
  {
    name: "sse-multiline-json",
    description: "Pretty-printed JSON spread over several `data:` lines",
    violates: ["mcp-chat/sse/one-data-line-per-event"],
    transformEvents: mapSteps((s) => (isEvent(s.data) ? { ...s, data: JSON.stringify(s.data, null, 2) } : s)),
    sse: { dataLines: splitJsonLines },
  },
  {
    name: "sse-no-final-blank",
    description: "The last event ends with a single LF",
    // A parser discards that unended [DONE]; terminal/required names the framing rule as the cause.
    violates: ["mcp-chat/sse/one-data-line-per-event"],
    sse: { noFinalBlank: true },
  },
  {
    name: "sse-crlf",
    description: "CRLF line ends",
    violates: ["mcp-chat/sse/lf-only"],
    sse: { eol: "\r\n" },
  },
  {
    name: "sse-non-json",
    description: "A `data: Thinking...` event first",
    violates: ["mcp-chat/sse/json-payload"],
    transformEvents: prependSteps({ data: "Thinking..." }),
  },
  {
    name: "sse-invalid-utf8",
    description: "A lone 0xFF byte inside the first text event",
    violates: ["mcp-chat/sse/utf8"],
    transformEvents: onFirst(
      (s) => isEvent(s.data, "text"),
      (s) => ({ ...s, data: withStrayByte(eventJson(s.data)) }),
    ),
  },
  {
    name: "split-events",
    description: "Each event in two writes 50 ms apart",
    violates: ["mcp-chat/sse/event-per-write"],
    transformChunks: splitEachChunk(50),
  },
  // --- events and tools ---
  {
    name: "unknown-event-type",
    description: 'A {"type": "status"} event first',
    violates: ["mcp-chat/events/known-type"],
    transformEvents: prependSteps({ data: { type: "status" } }),
  },
  {
    name: "tool-args-string",
    description: "tool_start `args` sent as a JSON string",
    violates: ["mcp-chat/events/schema"],
    transformEvents: mapEvents("tool_start", (e) => ({ ...e, args: JSON.stringify(e.args) })),
  },
  {
    name: "duplicate-tool-id",
    description: "The two-tools scenario with both calls using id tc-1",
    violates: ["mcp-chat/tools/unique-ids"],
    scenario: "two-tools",
    transformEvents: mapSteps((s) =>
      (isEvent(s.data, "tool_start") || isEvent(s.data, "tool_end")) && s.data.id === "tc-2"
        ? { ...s, data: { ...s.data, id: "tc-1" } }
        : s,
    ),
  },
  {
    name: "tool-end-wrong-name",
    description: "The tool_end of tc-1 is named get_forecast",
    violates: ["mcp-chat/tools/end-matches-start"],
    transformEvents: mapEvents("tool_end", (e) => (e.id === "tc-1" ? { ...e, name: "get_forecast" } : e)),
  },
  {
    name: "tool-never-ended",
    description: "No tool_end before [DONE]",
    violates: ["mcp-chat/tools/all-ended-before-done"],
    transformEvents: dropSteps((s) => isEvent(s.data, "tool_end")),
  },
  {
    name: "error-with-open-tool",
    description: "tool_start, then [ERROR] without the tool_end",
    violates: ["mcp-chat/tools/all-ended-before-error"],
    transformEvents: function* (steps) {
      for (const s of steps) {
        yield s;
        if (isEvent(s.data, "tool_start")) {
          yield failure(`Tool ${String(s.data.name)} raised an exception`, "tool");
          return;
        }
      }
    },
  },
  {
    name: "tool-not-listed",
    description: "tc-1 is a call of delete_everything, a tool the server does not list",
    violates: ["mcp-chat/tools/name-in-tool-list"],
    transformEvents: mapSteps((s) =>
      (isEvent(s.data, "tool_start") || isEvent(s.data, "tool_end")) && s.data.id === "tc-1"
        ? { ...s, data: { ...s.data, name: "delete_everything" } }
        : s,
    ),
  },
  {
    name: "empty-args",
    description: "tool_start with `args: {}` (legal, only reported)",
    violates: ["mcp-chat/tools/call-profile"],
    transformEvents: mapEvents("tool_start", (e) => ({ ...e, args: {} })),
  },
  // --- text and terminal ---
  {
    name: "intermediate-text",
    description: 'Text "Let me check that for you..." before the tool_start',
    violates: ["mcp-chat/text/final-answer-only"],
    transformEvents: prependSteps(text("Let me check that for you... ")),
  },
  {
    name: "no-answer-text",
    description: "[DONE] with no text event",
    violates: ["mcp-chat/text/answer-present"],
    transformEvents: dropSteps((s) => isEvent(s.data, "text")),
  },
  {
    name: "missing-terminal",
    description: "EOF right after the text, no sentinel",
    violates: ["mcp-chat/terminal/required"],
    transformEvents: dropSteps((s) => isSentinel(s.data)),
  },
  {
    name: "events-after-done",
    description: "A text event after [DONE]",
    violates: ["mcp-chat/terminal/last-event"],
    transformEvents: afterSentinel(text(" Anything else?")),
  },
  {
    name: "error-then-done",
    description: "[ERROR] Something went wrong, then [DONE]",
    violates: ["mcp-chat/terminal/last-event"],
    transformEvents: replaceSentinel((_, s) => [{ ...s, data: "[ERROR] Something went wrong" }, done()]),
  },
  {
    name: "done-variant",
    description: "[done] instead of [DONE]",
    // terminal/required names sentinel-format as the cause of the missing sentinel.
    violates: ["mcp-chat/terminal/sentinel-format"],
    transformEvents: replaceSentinel((d, s) => [d === DONE ? { ...s, data: "[done]" } : s]),
  },
  {
    name: "error-multiline",
    description: "[ERROR] with a raw newline in its message (a second line without `data:`)",
    // sse/data-lines-only names sentinel-format for the continuation line.
    violates: ["mcp-chat/terminal/sentinel-format"],
    transformEvents: replaceSentinel((_, s) => [
      { ...s, data: "[ERROR] get_weather failed\nTraceback (most recent call last)" },
    ]),
  },
  {
    name: "hold-open-after-done",
    description: "The body stays open 30 s after the sentinel",
    violates: ["mcp-chat/terminal/connection-closes"],
    timing: { closeDelay: 30_000 },
  },
  {
    name: "buffered-stream",
    description: "The whole stream is written at once at the end",
    violates: ["mcp-chat/timing/streams-incrementally"],
    transformChunks: bufferAll,
  },
  // --- chat requests ---
  {
    name: "chat-accepts-bad-input",
    description: 'Streams an answer for {} and {"message": 42} (no request validation)',
    violates: ["mcp-chat/chat/bad-input-4xx"],
    chat: { acceptBadInput: true },
  },
  {
    name: "chat-disconnected-answers",
    description: "Answers normally while disconnected",
    violates: ["mcp-chat/chat/disconnected-rejected"],
    chat: { answerWhileDisconnected: true },
  },
  {
    name: "detail-not-string",
    description: 'Errors as {"detail": [{"msg": …}]} (FastAPI validation style)',
    violates: ["mcp-chat/errors/detail-shape"],
    errorBody: (detail) => ({ detail: [{ loc: ["body"], msg: detail, type: "value_error" }] }),
  },
  {
    name: "chat-sync-wrong-shape",
    description: 'POST /chat returns {"text": …}',
    violates: ["mcp-chat/chat-sync/shape"],
    transformChatSync: (body) => ({ text: body.response }),
  },
];

export function findFault(name: string): McpChatFault | undefined {
  return FAULTS.find((f) => f.name === name);
}

/** Rewrites only the first step that matches. */
function onFirst(match: (s: Step) => boolean, fn: (s: Step) => Step) {
  return function* (steps: Iterable<Step>): Iterable<Step> {
    let hit = false;
    for (const s of steps) {
      if (!hit && match(s)) {
        hit = true;
        yield fn(s);
      } else yield s;
    }
  };
}

/** UTF-8 of a JSON text event with 0xFF just before its closing quote. */
function withStrayByte(json: string): Uint8Array {
  const enc = new TextEncoder();
  const cut = json.lastIndexOf('"');
  return concatBytes([enc.encode(json.slice(0, cut)), new Uint8Array([0xff]), enc.encode(json.slice(cut))]);
}

function splitEachChunk(gap: number) {
  return function* (chunks: Iterable<Chunk>): Iterable<Chunk> {
    for (const c of chunks) {
      if (c.bytes.length < 2) {
        yield c;
        continue;
      }
      const half = Math.floor(c.bytes.length / 2);
      yield { bytes: c.bytes.slice(0, half), delay: c.delay };
      yield { bytes: c.bytes.slice(half), delay: gap };
    }
  };
}
