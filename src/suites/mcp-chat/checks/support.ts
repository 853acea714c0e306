/**
 * What the mcp-chat checks share: the contract reference, a per-exchange view of the transcript
 * (request, head, end and — for JSON — the parsed body), the stream scope (which exchanges are
 * "streams", their events parsed once), SSE line classification and CORS header access.
 *
 * Everything here is incremental: an exchange's record lives from its request to its end, and a
 * stream keeps counters and the first sentinel, never its events.
 */
import { StreamJson } from "../../../core/transport/stream-json.js";
import { ownString } from "../../../core/transport/own-string.js";
import { excerpt, type CheckContext } from "../../../core/checks/check.js";
import { listFirst } from "../../../core/list-text.js";
import { serverCheckMaker } from "../../../core/checks/define-check.js";
import { describe, evidenceOf, lastEvent, type Exchange } from "../../../core/views/exchange.js";
import { exchangeChecks } from "../../../core/views/exchange-checks.js";
import { all, onNote, type Listen } from "../../../core/views/hooks.js";
import { sseStreamView } from "../../../core/views/sse-stream.js";
import { isStreamLabel, L, NOTE, SEED } from "../labels.js";
import { readParams } from "../params.js";

export { SEED } from "../labels.js";

/**
 * A CheckDef of this suite: full id, server side, and the seed reference as [section, quote].
 * When the probes stopped early, an incomplete outcome says so (the reason is a note event).
 */
export const serverCheck = serverCheckMaker(SEED, { stopped: NOTE.stopped, notApplicable: NOTE.notApplicable, knockOn: NOTE.knockOn });

export { all, describe, evidenceOf, lastEvent, onNote, type Exchange };

import type { BodyEndEvent, ChunkEvent, LineKind, RequestEvent, ResponseEvent, SseEventEvent, SseLineEvent } from "../../../core/checks/check-helpers.js";
export type { RequestEvent, ResponseEvent, BodyEndEvent, ErrorEvent, SseLineEvent, SseEventEvent, ChunkEvent, NoteEvent, LineKind } from "../../../core/checks/check-helpers.js";

/** Violations plus whether the rule was exercised (shared by every suite). */
import { Tally } from "../../../core/checks/check.js";
export { lineKind, dataStartsWith, dataValue, eventEvidence, eventWhere, is2xx, lineEvidence, lineWhere, mediaType, parseJson } from "../../../core/checks/check-helpers.js";
import { dataValue, eventWhere, lineWhere } from "../../../core/checks/check-helpers.js";
export { Tally };

// ---------------------------------------------------------------------------------------------
// Exchanges

/**
 * This suite's exchanges: a stream request's non-2xx answer is rebuilt from its lines. A body that
 * broke off is judged as it came; a 429 the probes retried, or a body the kit stopped reading (its
 * own time or size limit), cannot be judged.
 */
export const { onExchanges, unanswered, judgeExchanges } = exchangeChecks({
  name: "mcp-chat/exchanges",
  errorBodyFromLines: (request) => isStreamLabel(request.label),
  brokenBodyIsAnswer: true,
});

export const is4xx = (status: number | undefined): boolean => status !== undefined && status >= 400 && status < 500;

/**
 * What the 4xx statuses with a specific meaning say. A rejection counts only when its status can
 * mean what the rule asks for: judged by its class alone, a missing route (404) would pass as
 * input validation.
 */
const OTHER_MEANING: Record<number, string> = {
  401: "the request lacks credentials",
  403: "the caller is not allowed",
  404: "the route or resource does not exist",
  405: "the route does not take this method",
  409: "the request conflicts with the server's state",
  413: "the body is too large",
  415: "the body's content type is refused (the kit sends application/json)",
  422: "the request body is invalid",
};

/** Why `status` does not mean what a rejection should (`wanted` statuses mean it), else undefined. */
export function wrongMeaning(status: number, wanted: ReadonlySet<number>): string | undefined {
  if (wanted.has(status)) return undefined;
  return OTHER_MEANING[status] ? `${status} says ${OTHER_MEANING[status]}` : undefined;
}

/**
 * Chat while disconnected is probed only after /status confirmed the disconnect. When /status
 * still says connected, the disconnect's rule failed: a 200 disconnect that changed nothing is
 * disconnect/clears-state's failure, a refused one disconnect/success-shape's. `t` names it.
 */
export function disconnectKnockOn(t: Tally): Listen {
  let answer: Exchange | undefined;
  return onExchanges((x) => {
    if (x.label === L.disconnect) answer = unanswered(x) ? undefined : x;
    else if (x.label === L.statusAfterDisconnect && answer && statusView(x)?.connected === true) {
      if (answer.status === 200) t.knockOn("mcp-chat/disconnect/clears-state", x.label);
      else t.knockOn("mcp-chat/disconnect/success-shape", `${answer.method} ${answer.path} (${answer.status})`);
    }
  });
}

/** The body the contract gives every error: a JSON object with `detail` (its type is errors/detail-shape's). */
export const hasDetail = (x: Exchange): boolean => isObject(x.json) && "detail" in x.json;

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

import { toolNames } from "../listing.js";
export { toolNames };

export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}

// ---------------------------------------------------------------------------------------------
// Headers


/** Comma-separated header values as lower-case tokens. */
export function tokens(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "");
}

// ---------------------------------------------------------------------------------------------
// SSE payloads and lines

export type Terminal = "done" | "error";

export type Payload =
  /** `[DONE]`, or a data string starting with `[ERROR]` (its exact form is sentinel-format's). */
  | { kind: "terminal"; terminal: Terminal }
  /** Starts with "[" but is no sentinel: `[done]`, a JSON array... */
  | { kind: "bracket" }
  | { kind: "object"; value: Record<string, unknown>; type: unknown }
  | { kind: "not-object"; reason: string };

/**
 * What an event's data means. The stream view calls it once per event and hands the result to
 * every check, so it keeps no cache (a WeakMap entry per event cost more than the parse).
 */
export function payloadOf(ev: SseEventEvent, json?: StreamJson): Payload {
  return classifyPayload(ev.data, json);
}

/** `json`: the stream's parser, which builds the chunks of a long answer (one envelope, other text) from the last parse. */
export function classifyPayload(data: string, json?: StreamJson): Payload {
  if (data === "[DONE]") return { kind: "terminal", terminal: "done" };
  if (data.startsWith("[ERROR]")) return { kind: "terminal", terminal: "error" };
  if (data.startsWith("[")) return { kind: "bracket" };
  // JSON.parse directly, not parseJson: no result object per event.
  let value: unknown;
  try {
    value = json ? json.parse(data) : JSON.parse(data);
  } catch (e) {
    return { kind: "not-object", reason: `not JSON (${(e as Error).message})` };
  }
  if (!isObject(value)) return { kind: "not-object", reason: `JSON ${Array.isArray(value) ? "array" : typeof value}, not an object` };
  return { kind: "object", value, type: value.type };
}



// ---------------------------------------------------------------------------------------------
// Streams

/** A stream in progress: a 2xx response to a stream-labelled request. */
export interface Stream {
  exchange: string;
  label: string;
  request: RequestEvent;
  head: ResponseEvent;
  /** The first terminal sentinel, once seen; events after it are the stream's tail. */
  terminal?: { event: SseEventEvent; kind: Terminal };
  /** An event of a type the profile counts as an error (budget-master `{type:"error"}`) came first. */
  errorEvent?: SseEventEvent;
  /** Events dispatched so far. */
  events: number;
  /** The stream's first event. */
  first?: SseEventEvent;
  /** What the tool events before the sentinel showed, for checks that must say why they judged nothing. */
  tools: ToolFacts;
  /** A payload starting with "[" that is no sentinel (`[done]`), before any sentinel. */
  bracket?: SseEventEvent;
  /** The data line of an event not yet ended by its empty line (at the end: one never dispatched). */
  unended?: SseLineEvent;
}

/** Tool events of one stream up to its sentinel, as the tools/ and events/ rules see them. */
export interface ToolFacts {
  /** tool_start events with a string id. */
  starts: number;
  /**
   * Open tool ids → name: the one record of them, which the tools/ rules read instead of keeping
   * their own (a stream that starts tools and never ends them would hold each id once per rule).
   * Ids and names are kept as strings of their own (`ownString`), not as views of the stream's reads.
   */
  open: Map<string, unknown>;
  /**
   * The tool event being decoded, before it changed `open`: whether its id was open, and under
   * which name. Refilled for each tool event; a hook reads it only while it is its event's.
   */
  wasOpen: boolean;
  openName: unknown;
  /** The id of the tool_start being decoded as `open` keeps it: a rule that keeps ids keeps this one. */
  keptId: string;
  /** tool_end events that closed no open id (tools/end-matches-start's failures), and the first. */
  unmatched: number;
  firstUnmatched?: SseEventEvent;
  /** The first tool_start/tool_end without a string id (events/schema's failure). */
  idless?: SseEventEvent;
}

export type Phase = "before" | "terminal" | "after";

/**
 * What an event is to the rules, for hooks that read only some (`only`): before the sentinel a
 * `text` or a `tool` event (tool_start, tool_end), the first sentinel (`terminal`), any other JSON
 * object (`object`: other types, anything after the sentinel), or `other` (no object: a bracket
 * payload, a sentinel after the first, not JSON).
 */
export type EventTag = "text" | "tool" | "terminal" | "object" | "other";

export interface StreamHandlers<S> {
  /** Per-stream state, created at the response head. */
  start(s: Stream): S;
  event?(ev: SseEventEvent, p: Payload, phase: Phase, s: Stream, st: S): void;
  /** The events the event hook reads; absent: every event (a hook may see more than it reads, never less). */
  only?: readonly EventTag[];
  /** A raw line and its kind. */
  line?(ev: SseLineEvent, s: Stream, st: S, kind: LineKind): void;
  /** The line kinds the line hook reads; absent: every line. */
  lineKinds?: readonly LineKind[];
  chunk?(ev: ChunkEvent, s: Stream, st: S): void;
  /** The body ended (eof, timeout, reset...). */
  end?(ev: BodyEndEvent, s: Stream, st: S): void;
}

/** Decoded once per event for every check: its payload and its place around the sentinel. */
interface Decoded {
  p: Payload;
  phase: Phase;
  tag: EventTag;
}

/**
 * The streams of this suite (§4: the happy path and the disconnected probe, 2xx only — a 4xx JSON
 * answer is no stream). A [DONE] that follows a profile error event counts as an error terminal.
 */
const STREAMS = sseStreamView<Stream & { errorTypes: ReadonlySet<string>; decoded: Decoded; json: StreamJson }, Decoded>({
  name: "mcp-chat/streams",
  select: (request) => isStreamLabel(request.label),
  open: (request, head, ctx: CheckContext) => ({
    exchange: head.exchange,
    label: head.label,
    request,
    head,
    events: 0,
    tools: { starts: 0, open: new Map(), wasOpen: false, openName: undefined, keptId: "", unmatched: 0 },
    errorTypes: new Set(readParams(ctx.params).errorEventTypes),
    // One record per stream, refilled for each event: the hooks read it only while it is their event's.
    decoded: { p: { kind: "bracket" }, phase: "before", tag: "other" },
    json: new StreamJson(),
  }),
  decode(ev, s) {
    s.events++;
    s.first ??= ev;
    const p = payloadOf(ev, s.json);
    let phase: Phase = s.terminal ? "after" : "before";
    if (phase === "before") {
      if (p.kind === "terminal") {
        s.terminal = { event: ev, kind: p.terminal === "done" && !s.errorEvent ? "done" : "error" };
        phase = "terminal";
      } else if (p.kind === "object" && typeof p.type === "string" && s.errorTypes.has(p.type) && !s.errorEvent) {
        s.errorEvent = ev;
      } else if (p.kind === "bracket") s.bracket ??= ev;
      countTools(s.tools, ev, p);
    }
    const d = s.decoded;
    d.p = p;
    d.phase = phase;
    d.tag = tagOf(p, phase);
    return d;
  },
  tag: (d) => d.tag,
  line(ev, s, kind) {
    if (kind === "data") s.unended ??= ev;
    else if (kind === "blank") s.unended = undefined;
  },
});

function tagOf(p: Payload, phase: Phase): EventTag {
  if (phase === "terminal") return "terminal";
  if (p.kind !== "object") return "other";
  if (phase === "before") {
    if (p.type === "text") return "text";
    if (p.type === "tool_start" || p.type === "tool_end") return "tool";
  }
  return "object";
}

function countTools(f: ToolFacts, ev: SseEventEvent, p: Payload): void {
  if (p.kind !== "object" || (p.type !== "tool_start" && p.type !== "tool_end")) return;
  const te = toolEvent(p);
  if (!te) {
    f.idless ??= ev;
    return;
  }
  f.wasOpen = f.open.has(te.id);
  f.openName = f.wasOpen ? f.open.get(te.id) : undefined;
  if (te.kind === "start") {
    f.starts++;
    f.keptId = ownString(te.id);
    f.open.set(f.keptId, typeof te.name === "string" ? ownString(te.name) : te.name);
  } else if (f.wasOpen) f.open.delete(te.id);
  else {
    f.unmatched++;
    f.firstUnmatched ??= ev;
  }
}

/**
 * The rule that failed when a stream has no sentinel although one was sent: `[done]` is
 * terminal/sentinel-format's, a `[DONE]` never ended by its empty line (so never dispatched) is
 * sse/one-data-line-per-event's. Undefined when none was sent.
 */
export function missingSentinel(s: Stream): [string, string] | undefined {
  if (s.bracket) return ["mcp-chat/terminal/sentinel-format", eventWhere(s.bracket)];
  if (s.unended && dataValue(s.unended.line).startsWith("[")) return ["mcp-chat/sse/one-data-line-per-event", lineWhere(s.unended)];
  return undefined;
}

/**
 * For the rules about a completed answer: the happy-path stream ended with [ERROR] (legal, but no
 * answer to judge), said as the reason instead of "no stream ended with [DONE]".
 */
export function chatFailed(t: Tally, s: Stream): void {
  if (s.terminal?.kind === "error" && s.label === L.chatStream) t.untestable(`${s.label} ended with "${excerpt(s.terminal.event.data, 60)}": the chat failed, so there was no answer to judge`);
}

/** Why a tool rule has nothing to judge on an answer without tools (the stream grammar allows none). */
export const NO_TOOLS = "without a tool call: the model answered directly, which the contract allows";

/**
 * Says, at the end of a stream a check judged nothing on, why: another rule already failed on that
 * stream (a knock-on, named), or the model legally answered without calling a tool (`noTools`, for
 * the rules about tool calls; only the happy-path stream is asked for one). Otherwise it says
 * nothing, and the check's own reason stands.
 */
export function unjudgedStream(t: Tally, s: Stream, end: BodyEndEvent, noTools?: string): void {
  if (!s.terminal) {
    const why = missingSentinel(s);
    if (why) t.knockOn(...why);
    else if (end.reason === "eof" || end.reason === "error") t.knockOn("mcp-chat/terminal/required", s.label);
    return;
  }
  const f = s.tools;
  if (f.idless) t.knockOn("mcp-chat/events/schema", eventWhere(f.idless));
  else if (f.firstUnmatched) t.knockOn("mcp-chat/tools/end-matches-start", eventWhere(f.firstUnmatched));
  else if (f.open.size) t.knockOn(`mcp-chat/tools/all-ended-before-${s.terminal.kind}`, eventWhere(s.terminal.event));
  else if (noTools && f.starts === 0 && s.terminal.kind === "done" && s.label === L.chatStream) t.notApplicable(`${s.label} ended with [DONE] ${noTools}`);
}

/** Feeds the events of every stream to handlers with per-stream state. */
export function onStreams<S>(h: StreamHandlers<S>): Listen {
  const event = h.event;
  return STREAMS.on<S>({
    start: h.start,
    ...(event ? { event: (ev: SseEventEvent, d: Decoded, s: Stream, st: S) => event(ev, d.p, d.phase, s, st) } : {}),
    ...(h.only ? { only: h.only } : {}),
    ...(h.line ? { line: h.line } : {}),
    ...(h.lineKinds ? { lineKinds: h.lineKinds } : {}),
    ...(h.chunk ? { chunk: h.chunk } : {}),
    ...(h.end ? { end: h.end } : {}),
  });
}

// ---------------------------------------------------------------------------------------------
// Connection state as /status and /connect report it

export interface StatusView {
  connected: boolean;
  serverId: string | null;
  /** Tool names, sorted. */
  tools: string[];
}

/** A /status body reduced to what state checks compare; undefined when it says nothing clear. */
export function statusView(x: Exchange): StatusView | undefined {
  if (x.status !== 200 || !isObject(x.json) || typeof x.json.connected !== "boolean") return undefined;
  const id = x.json.server_id;
  return {
    connected: x.json.connected,
    serverId: typeof id === "string" ? id : null,
    tools: (toolNames(x.json.tools) ?? []).sort(),
  };
}

export function sameStatus(a: StatusView, b: StatusView): boolean {
  return a.connected === b.connected && a.serverId === b.serverId && sameSet(a.tools, b.tools);
}

export function showStatus(s: StatusView): string {
  return s.connected ? `connected to ${JSON.stringify(s.serverId)} with tools [${showTools(s.tools)}]` : "disconnected";
}

/** Tool names as a message lists them: a server may list tens of thousands, so the first ten and a count. */
export const showTools = (names: readonly string[]): string => listFirst(names, excerpt, 10);

/** The server id a POST /connect/{id} asked for. */
export function connectId(x: Exchange): string {
  const raw = x.path.split("?")[0]!.replace(/^\/connect\//, "");
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** A 200 connect answer: the id asked for and the tool names it returned (undefined if no array). */
export function connectView(x: Exchange): { id: string; tools: string[] | undefined } | undefined {
  if (x.status !== 200 || !isObject(x.json)) return undefined;
  return { id: connectId(x), tools: toolNames(x.json.tools) };
}

// ---------------------------------------------------------------------------------------------
// Tool events

export interface ToolEvent {
  kind: "start" | "end";
  id: string;
  name: unknown;
  value: Record<string, unknown>;
}

/** A tool_start/tool_end with a string id (others are events/schema's problem), else undefined. */
export function toolEvent(p: Payload): ToolEvent | undefined {
  if (p.kind !== "object" || (p.type !== "tool_start" && p.type !== "tool_end")) return undefined;
  const id = p.value.id;
  if (typeof id !== "string") return undefined;
  return { kind: p.type === "tool_start" ? "start" : "end", id, name: p.value.name, value: p.value };
}

export const isTextEvent = (p: Payload): boolean => p.kind === "object" && p.type === "text";
export const isToolEvent = (p: Payload): boolean => p.kind === "object" && (p.type === "tool_start" || p.type === "tool_end");
