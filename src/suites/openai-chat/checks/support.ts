/**
 * What the openai-chat checks share: the check record helper, a verdict tally, a per-exchange view
 * of the transcript, the parsed request of each chat POST, the classification of SSE payloads, and
 * the stream scope (which exchanges are streams, and their events in order).
 *
 * Everything is incremental: an exchange's record lives from its request to its end; a stream keeps
 * per-stream counters, never its events. Parsed requests are cached on the request events (a
 * WeakMap) and each SSE payload is decoded once by the stream view, so every check reads one parse.
 */
import { StreamJson } from "../../../core/transport/stream-json.js";
import type { Outcome } from "../../../core/checks/check.js";
import { serverCheckMaker } from "../../../core/checks/define-check.js";
import { describe, evidenceOf, lastEvent, type Exchange } from "../../../core/views/exchange.js";
import { exchangeChecks } from "../../../core/views/exchange-checks.js";
import { all, onNote, type Observe } from "../../../core/views/hooks.js";
import { NOTE, SEED } from "../labels.js";

export { SEED } from "../labels.js";
export const PROTOCOL = "openai-chat";

import type { RequestEvent, SseEventEvent } from "../../../core/checks/check-helpers.js";
export type { RequestEvent, ResponseEvent, BodyEndEvent, ErrorEvent, SseLineEvent, SseEventEvent, ChunkEvent, NoteEvent, LineKind } from "../../../core/checks/check-helpers.js";
export type { Observe };

/** Why a --max-requests budget left checks untested. */
function budgetReason(value: unknown): string {
  const v = value as { max?: number; unsent?: string[] };
  const unsent = v.unsent ?? [];
  const list = unsent.length > 6 ? `${unsent.slice(0, 6).join(", ")} and ${unsent.length - 6} more` : unsent.join(", ");
  return `--max-requests ${v.max ?? "?"} was reached; not sent: ${list || "nothing"}`;
}

/**
 * A CheckDef of this suite: full id, server side, the seed reference as [section, quote]. When the
 * probes stopped early or ran out of --max-requests, an incomplete outcome says so.
 */
export const serverCheck = serverCheckMaker(SEED, { stopped: NOTE.stopped, knockOn: NOTE.reset, reasons: { [NOTE.budget]: budgetReason } });

/** Violations plus whether the rule was exercised (shared by every suite). */
import { Tally } from "../../../core/checks/check.js";
export { lineKind, dataIs, dataValue, eventEvidence, eventWhere, is2xx, lineEvidence, lineWhere, mediaType, parseJson } from "../../../core/checks/check-helpers.js";
import { parseJson } from "../../../core/checks/check-helpers.js";
export { Tally, all, onNote, describe, evidenceOf, lastEvent, type Exchange };

export const skip = (message: string): Outcome => ({ verdict: "skip", message });

// ---------------------------------------------------------------------------------------------
// JSON and headers

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
export const isIndex = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;




/** A value's type for messages: "null", "array", "string"... */
export const typeName = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/**
 * §3.10: a payload is error-like when it has a top-level `error`, or `object: "error"`, or a
 * top-level `message` and no `choices`.
 */
export function isErrorLike(v: unknown): boolean {
  if (!isObject(v)) return false;
  return (v.error !== undefined && v.error !== null) || v.object === "error" || ("message" in v && !("choices" in v));
}

// ---------------------------------------------------------------------------------------------
// Requests

export type ToolChoice =
  | { kind: "absent" | "none" | "auto" | "required" | "other" }
  | { kind: "named"; name: string };

/** A chat POST as the rules need it. */
export interface RequestInfo {
  body: Record<string, unknown> | undefined;
  stream: boolean;
  includeUsage: boolean;
  toolChoice: ToolChoice;
  /** parallel_tool_calls as sent (undefined when absent or not a boolean). */
  parallel: boolean | undefined;
  /** Offered tools, name → parameters; undefined when the request has no tools. */
  tools: Map<string, unknown> | undefined;
  /** `n` as sent. */
  n: unknown;
}

const requests = new WeakMap<RequestEvent, RequestInfo>();

export function requestInfo(ev: RequestEvent): RequestInfo {
  let info = requests.get(ev);
  if (!info) {
    info = parseRequest(ev.body);
    requests.set(ev, info);
  }
  return info;
}

function parseRequest(text: string | undefined): RequestInfo {
  const parsed = text === undefined ? undefined : parseJson(text);
  const body = parsed?.ok && isObject(parsed.value) ? parsed.value : undefined;
  const so = body?.stream_options;
  const tc = body?.tool_choice;
  let toolChoice: ToolChoice = { kind: "absent" };
  if (tc === "none" || tc === "auto" || tc === "required") toolChoice = { kind: tc };
  else if (isObject(tc) && isObject(tc.function) && typeof tc.function.name === "string") toolChoice = { kind: "named", name: tc.function.name };
  // null is the same as absent, as OpenAI reads it.
  else if (tc !== undefined && tc !== null) toolChoice = { kind: "other" };
  let tools: Map<string, unknown> | undefined;
  if (Array.isArray(body?.tools) && body.tools.length > 0) {
    tools = new Map();
    for (const t of body.tools) {
      if (isObject(t) && isObject(t.function) && typeof t.function.name === "string") tools.set(t.function.name, t.function.parameters);
    }
  }
  return {
    body,
    stream: body?.stream === true,
    includeUsage: isObject(so) && so.include_usage === true,
    toolChoice,
    parallel: typeof body?.parallel_tool_calls === "boolean" ? body.parallel_tool_calls : undefined,
    tools,
    n: body?.n,
  };
}

// ---------------------------------------------------------------------------------------------
// Exchanges

/**
 * This suite's exchanges: a non-2xx body read as SSE (an error to a stream request) is rebuilt from
 * its lines. A stream that broke off is not a whole answer here (the stream rules judge the break).
 */
export const { onExchanges, unanswered } = exchangeChecks({
  name: "openai-chat/exchanges",
  errorBodyFromLines: (_request, streamRead) => streamRead,
  brokenBodyIsAnswer: false,
});

// ---------------------------------------------------------------------------------------------
// SSE payloads and lines

export type Payload =
  | { kind: "done" }
  /** An error-like JSON payload (§3.10). */
  | { kind: "error"; value: unknown }
  /** A JSON object that is not error-like: a chunk. */
  | { kind: "chunk"; value: Record<string, unknown> }
  /** Valid JSON, but no object. */
  | { kind: "json"; value: unknown }
  | { kind: "invalid"; reason: string };

/**
 * What an event's data means (the stream view decodes each event once, so nothing is cached). `json` is the stream's
 * parser: a long answer's chunks differ only in their text, and it builds those from the last parse.
 */
export function payloadOf(ev: SseEventEvent, json?: StreamJson): Payload {
  return classify(ev.data, json);
}

function classify(data: string, json: StreamJson | undefined): Payload {
  if (data === "[DONE]") return { kind: "done" };
  // JSON.parse directly, not parseJson: no result object per event.
  let value: unknown;
  try {
    value = json ? json.parse(data) : JSON.parse(data);
  } catch (e) {
    return { kind: "invalid", reason: `not JSON (${(e as Error).message})` };
  }
  if (isErrorLike(value)) return { kind: "error", value };
  if (isObject(value)) return { kind: "chunk", value };
  return { kind: "json", value };
}

/** What the exchange treats as the end of a stream: [DONE], or an error-like payload. */
export function isTerminalData(data: string): boolean {
  if (data === "[DONE]") return true;
  if (!data.includes("error") && !data.includes("message")) return false;
  const parsed = parseJson(data);
  return parsed.ok && isErrorLike(parsed.value);
}






