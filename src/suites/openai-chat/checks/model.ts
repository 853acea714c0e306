/**
 * The response model the rules read: for each streamed answer, its choices and the tool calls
 * assembled incrementally per choice and per index; for each non-streamed answer, the same view
 * built from the JSON body.
 *
 * One model per stream is shared by every check of an evaluation (the stream view makes it when
 * the stream opens) and each SSE event is applied once (the view decodes it once for every check),
 * so twenty checks cost one assembly. State per call is its identity, counters and the joined arguments (capped), so memory
 * does not grow with the number of chunks.
 *
 * Grouping (§4): a tool-call delta starts a new call when its index is new, or when it carries a
 * non-empty `function.name` and an `id` different from the current call at that index; otherwise it
 * continues the latest call at its index (with no integer index, the latest call of the choice).
 * A choice without an integer `index` counts as choice 0. Events after `[DONE]` or after an
 * error-like payload are not applied.
 */
import { at, excerpt, type Evidence } from "../../../core/checks/check.js";
import { all, type Listen } from "../../../core/views/hooks.js";
import { sseStreamView, type StreamHooks } from "../../../core/views/sse-stream.js";
import { StreamJson } from "../../../core/transport/stream-json.js";
import { baseLabel, isChatLabel } from "../labels.js";
import {
  Tally,
  is2xx,
  isIndex,
  isObject,
  onExchanges,
  payloadOf,
  requestInfo,
  unanswered,
  type BodyEndEvent,
  type Payload,
  type RequestEvent,
  type RequestInfo,
  type ResponseEvent,
  type SseEventEvent,
} from "./support.js";

const MAX_CHOICES = 16;
const MAX_CALLS = 256;
/** Joined arguments beyond this are not kept (the call's argument rules become untestable). */
export const ARGS_CAP = 1024 * 1024;

export interface CallState {
  /** Order of first appearance in its choice, 0-based. */
  n: number;
  choice: number;
  /** The integer index it was started with, or the latest call's when the delta had none. */
  eff: number;
  indexValid: boolean;
  /** First non-empty id / name seen for the call. */
  id?: string;
  name?: string;
  /** The delta that started the call (streams). */
  firstEv?: SseEventEvent;
  args: string;
  argsCapped: boolean;
  /** A fragment (or the non-streamed arguments) was present and not a string, or missing (non-streamed). */
  argsNonString: boolean;
  fragments: number;
  deltas: number;
  idSends: number;
  typeSends: number;
  nameSends: number;
  /** A fragment started with all the text joined before it. */
  cumulative: boolean;
  /** Started at an integer index that an earlier call with another id already had. */
  reusedIndex: boolean;
  /** Its choice finished with "length" while this call was the latest. */
  lengthCut: boolean;
}

export interface ChoiceState {
  index: number;
  deltas: number;
  firstEv?: SseEventEvent;
  /** Non-null finish_reason values seen (streams: one per chunk that carried one). */
  finishes: number;
  finish?: { reason: unknown; ev?: SseEventEvent };
  calls: CallState[];
  byEff: Map<number, CallState>;
  latest?: CallState;
  /** Characters of string content. */
  contentChars: number;
  /** Content of the non-streamed message (sync only). */
  content?: unknown;
  callsOverflow: boolean;
}

export type Phase = "before" | "done" | "error" | "after";

export interface ToolDeltaView {
  raw: unknown;
  pos: number;
  /** Undefined when the entry is no object. */
  call?: CallState;
  isNew: boolean;
  /** First delta: identity fields missing or wrong ("id", "type", "function.name"). */
  missing: string[];
  /** Later delta: an id other than the call's. */
  idDiffers: boolean;
  /** Later delta: identity fields sent again. */
  repeats: string[];
  /** Later delta: identity fields sent as "". */
  empties: string[];
  argsNonString: boolean;
  /** Later delta continuing a call after a later call had started. */
  interleaved: boolean;
  /** The delta came in its choice's finish chunk. */
  inFinishChunk: boolean;
}

export interface ChoiceView {
  raw: unknown;
  /** Counted index (0 when missing or not an integer). */
  index: number;
  state?: ChoiceState;
  delta: unknown;
  /** The first delta of this choice in the stream. */
  first: boolean;
  /** The choice had already finished before this chunk. */
  afterFinish: boolean;
  tools: ToolDeltaView[];
}

export interface EventView {
  payload: Payload;
  phase: Phase;
  /** Chunks (phase "before") with a choices array: one view per entry. */
  choices: ChoiceView[];
}

export interface StreamModel {
  exchange: string;
  label: string;
  info: RequestInfo;
  choices: Map<number, ChoiceState>;
  chunks: number;
  done?: SseEventEvent;
  error?: SseEventEvent;
  end?: BodyEndEvent;
  /** The stream's payload parser (see StreamJson). */
  json: StreamJson;
}

function newModel(request: RequestEvent): StreamModel {
  return { exchange: request.exchange, label: request.label, info: requestInfo(request), choices: new Map(), chunks: 0, json: new StreamJson() };
}

function newChoice(index: number): ChoiceState {
  return { index, deltas: 0, finishes: 0, calls: [], byEff: new Map(), contentChars: 0, callsOverflow: false };
}

function choiceState(m: StreamModel, index: number): ChoiceState | undefined {
  let st = m.choices.get(index);
  if (!st && m.choices.size < MAX_CHOICES) {
    st = newChoice(index);
    m.choices.set(index, st);
  }
  return st;
}

function newCall(n: number, choice: number, eff: number, indexValid: boolean): CallState {
  return {
    n,
    choice,
    eff,
    indexValid,
    args: "",
    argsCapped: false,
    argsNonString: false,
    fragments: 0,
    deltas: 0,
    idSends: 0,
    typeSends: 0,
    nameSends: 0,
    cumulative: false,
    reusedIndex: false,
    lengthCut: false,
  };
}

/** The view of one SSE event of a stream, applying it to the model (once per event: the view's decode). */
export function analyse(m: StreamModel, ev: SseEventEvent): EventView {
  const payload = payloadOf(ev, m.json);
  let phase: Phase;
  if (m.done || m.error) phase = "after";
  else if (payload.kind === "done") {
    phase = "done";
    m.done = ev;
  } else if (payload.kind === "error") {
    phase = "error";
    m.error = ev;
  } else phase = "before";
  const chunk = phase === "before" && payload.kind === "chunk";
  const v: EventView = { payload, phase, choices: chunk ? [] : NONE };
  if (chunk) applyChunk(m, payload.value, ev, v);
  return v;
}

/**
 * The empty list of every event without choices and of every choice without tool-call deltas
 * (shared, not one per event; frozen, as the rules only read it).
 */
const NONE: never[] = Object.freeze([]) as unknown as never[];

function applyChunk(m: StreamModel, chunk: Record<string, unknown>, ev: SseEventEvent, v: EventView): void {
  m.chunks++;
  const choices = chunk.choices;
  if (!Array.isArray(choices)) return;
  for (const c of choices) {
    if (!isObject(c)) {
      v.choices.push({ raw: c, index: 0, delta: undefined, first: false, afterFinish: false, tools: NONE });
      continue;
    }
    const index = isIndex(c.index) ? c.index : 0;
    const st = choiceState(m, index);
    const cv: ChoiceView = { raw: c, index, delta: c.delta, first: !st || st.deltas === 0, afterFinish: !!st && st.finishes > 0, tools: NONE };
    v.choices.push(cv);
    if (!st) continue;
    cv.state = st;
    st.deltas++;
    st.firstEv ??= ev;
    const delta = c.delta;
    if (isObject(delta)) {
      if (typeof delta.content === "string") st.contentChars += delta.content.length;
      const finishing = c.finish_reason !== null && c.finish_reason !== undefined;
      const calls = delta.tool_calls;
      if (Array.isArray(calls)) {
        cv.tools = [];
        for (let pos = 0; pos < calls.length; pos++) cv.tools.push(applyTool(st, calls[pos], pos, ev, finishing));
      }
    }
    const reason = c.finish_reason;
    if (reason !== null && reason !== undefined) {
      st.finishes++;
      if (!st.finish) {
        st.finish = { reason, ev };
        if (reason === "length" && st.latest) st.latest.lengthCut = true;
      }
    }
  }
}

const sent = (v: unknown): boolean => v !== undefined && v !== null;

function applyTool(st: ChoiceState, raw: unknown, pos: number, ev: SseEventEvent, inFinishChunk: boolean): ToolDeltaView {
  const view: ToolDeltaView = { raw, pos, isNew: false, missing: [], idDiffers: false, repeats: [], empties: [], argsNonString: false, interleaved: false, inFinishChunk };
  if (!isObject(raw)) return view;
  const fn = isObject(raw.function) ? raw.function : undefined;
  const name = typeof fn?.name === "string" && fn.name !== "" ? fn.name : undefined;
  const id = typeof raw.id === "string" && raw.id !== "" ? raw.id : undefined;
  const valid = isIndex(raw.index);
  const eff = valid ? (raw.index as number) : (st.latest?.eff ?? 0);
  const cur = valid ? st.byEff.get(eff) : st.latest;
  const startsNew = !cur || (name !== undefined && id !== undefined && cur.id !== undefined && id !== cur.id);
  let call: CallState;
  if (startsNew && st.calls.length < MAX_CALLS) {
    call = newCall(st.calls.length, st.index, eff, valid);
    call.id = id;
    call.name = name;
    call.firstEv = ev;
    call.reusedIndex = !!cur && valid && cur.indexValid && cur.eff === eff;
    st.calls.push(call);
    st.byEff.set(eff, call);
    view.isNew = true;
    if (id === undefined) view.missing.push("id");
    if (raw.type !== "function") view.missing.push("type");
    if (name === undefined) view.missing.push("function.name");
    if (sent(raw.id)) call.idSends++;
    if (sent(raw.type)) call.typeSends++;
    if (fn && sent(fn.name)) call.nameSends++;
  } else {
    if (startsNew) st.callsOverflow = true;
    call = (cur ?? st.latest)!;
    // null counts as omitted, as the SDKs read it.
    view.idDiffers = sent(raw.id) && call.id !== undefined && raw.id !== call.id;
    if (sent(raw.id) && ++call.idSends > 1) view.repeats.push("id");
    if (sent(raw.type) && ++call.typeSends > 1) view.repeats.push("type");
    if (fn && sent(fn.name) && ++call.nameSends > 1) view.repeats.push("function.name");
    if (raw.id === "") view.empties.push("id");
    if (raw.type === "") view.empties.push("type");
    if (fn?.name === "") view.empties.push("function.name");
    call.id ??= id;
    call.name ??= name;
    view.interleaved = call.n < st.calls.length - 1;
  }
  view.call = call;
  call.deltas++;
  st.latest = call;
  if (fn && "arguments" in fn) {
    const a = fn.arguments;
    if (typeof a === "string") {
      if (a.length > call.args.length && call.args.length > 0 && a.startsWith(call.args)) call.cumulative = true;
      call.fragments++;
      if (call.args.length + a.length > ARGS_CAP) call.argsCapped = true;
      else call.args += a;
    } else {
      call.argsNonString = true;
      view.argsNonString = true;
    }
  }
  return view;
}

// ---------------------------------------------------------------------------------------------
// Stream scope

/** A stream: a 2xx answer to a chat POST with `stream: true` (read as SSE whatever its type). */
export interface Stream {
  exchange: string;
  label: string;
  request: RequestEvent;
  info: RequestInfo;
  head: ResponseEvent;
  model: StreamModel;
}

export type StreamHandlers<S> = StreamHooks<Stream, EventView, S>;

/**
 * What an event is to the rules, for hooks that read only some (`only`): before [DONE] or an error,
 * a chunk whose choices carry tool-call deltas (`tool`), another chunk (`chunk`), or a payload that is
 * no chunk (`other`); then the event that ends the stream (`done`, `error`) and what follows (`after`).
 */
export type EventTag = "tool" | "chunk" | "other" | Exclude<Phase, "before">;

function tagOf(v: EventView): EventTag {
  if (v.phase !== "before") return v.phase;
  if (v.payload.kind !== "chunk") return "other";
  for (const cv of v.choices) if (cv.tools.length > 0) return "tool";
  return "chunk";
}

/** The tags of the events whose choices a hook reads (`v.choices` is empty for every other event). */
export const CHUNKS: readonly EventTag[] = ["chunk", "tool"];

/** The streams of this suite, each event applied once to the stream's shared model. */
const STREAMS = sseStreamView<Stream, EventView>({
  name: "openai-chat/streams",
  select: (request) => isChatLabel(request.label) && requestInfo(request).stream,
  open: (request, head) => ({ exchange: head.exchange, label: head.label, request, info: requestInfo(request), head, model: newModel(request) }),
  decode: (ev, s) => analyse(s.model, ev),
  tag: tagOf,
  close(ev, s) {
    s.model.end = ev;
  },
});

/** Feeds every stream's events, applied to the shared model, to handlers with per-stream state. */
export function onStreams<S>(h: StreamHandlers<S>): Listen {
  return STREAMS.on(h);
}

/** Why a stream's calls and finish cannot be judged as a whole answer, or undefined. */
export function streamCut(s: Stream, ev: BodyEndEvent): string | undefined {
  if (s.model.done || ev.reason === "eof") return undefined;
  if (ev.reason === "error") return `${s.label}: the stream broke (${ev.error ?? "error"}) before [DONE]`;
  return `the kit stopped reading ${s.label} (${ev.reason}) before [DONE]`;
}

/** The check that judges a request reset or a stream broken off by the target. */
export const NOT_RESET = "openai-chat/request/not-reset";

/** Whether a stream was broken off by a transport error before [DONE] (a failed request, §1). */
export function streamBroken(s: Stream, ev: BodyEndEvent): boolean {
  return !s.model.done && ev.reason === "error";
}

/**
 * Records why an answer (or stream) cannot be judged whole: a break is request/not-reset's
 * finding, named as a knock-on; anything else (the kit stopped reading) leaves it untested.
 */
export function cutOff(t: Tally, label: string, why: string, broken: boolean | undefined): void {
  if (broken) t.knockOn(NOT_RESET, label);
  else t.untestable(why);
}

// ---------------------------------------------------------------------------------------------
// Whole answers, streamed or not

export interface ResponseView {
  exchange: string;
  label: string;
  /** The probe label without its attempt suffix. */
  base: string;
  stream: boolean;
  info: RequestInfo;
  choices: ChoiceState[];
  /** An error-like payload (stream) or body (2xx JSON) was the answer. */
  errored: boolean;
  /** Why this answer cannot be judged as a whole. */
  incomplete?: string;
  /** The stream broke off (a transport error before [DONE]): request/not-reset's finding. */
  broken?: boolean;
  /** The event that ended the answer. */
  evidence: Evidence;
}

/** Every call of a response, choice by choice. */
export const callsOf = (r: ResponseView): CallState[] => r.choices.flatMap((c) => c.calls);

/**
 * Calls `done` once per chat answer with a 2xx status: a finished stream (from the shared model) or
 * a non-streamed JSON body.
 */
export function onResponses(done: (r: ResponseView) => void): Listen {
  const streams = onStreams<undefined>({
    start: () => undefined,
    end: (ev, s) => {
      const cut = streamCut(s, ev);
      done({
        exchange: s.exchange,
        label: s.label,
        base: baseLabel(s.label),
        stream: true,
        info: s.info,
        choices: [...s.model.choices.values()],
        errored: !!s.model.error,
        ...(cut ? { incomplete: cut } : {}),
        ...(streamBroken(s, ev) ? { broken: true } : {}),
        evidence: at(ev),
      });
    },
  });
  const sync = onExchanges((x) => {
    if (!isChatLabel(x.label) || x.streamRead || !is2xx(x.status)) return;
    const info = requestInfo(x.request);
    if (info.stream) return;
    const why = unanswered(x);
    const r: ResponseView = {
      exchange: x.id,
      label: x.label,
      base: baseLabel(x.label),
      stream: false,
      info,
      choices: [],
      errored: false,
      evidence: at(x.end ?? x.request, x.text !== undefined ? { excerpt: excerpt(x.text) } : {}),
    };
    if (why) r.incomplete = why;
    else if (!x.isJson || !isObject(x.json)) r.incomplete = `${x.label}: the body is not a JSON object`;
    else if (x.json.error !== undefined && x.json.error !== null) r.errored = true;
    else r.choices = syncChoices(x.json);
    done(r);
  });
  return all(streams, sync);
}

/** The choices of a non-streamed completion, as the stream model would have assembled them. */
export function syncChoices(json: Record<string, unknown>): ChoiceState[] {
  const out: ChoiceState[] = [];
  if (!Array.isArray(json.choices)) return out;
  json.choices.slice(0, MAX_CHOICES).forEach((c, i) => {
    if (!isObject(c)) return;
    const st = newChoice(isIndex(c.index) ? c.index : i);
    st.deltas = 1;
    const msg = isObject(c.message) ? c.message : undefined;
    st.content = msg?.content;
    if (typeof msg?.content === "string") st.contentChars = msg.content.length;
    if (c.finish_reason !== null && c.finish_reason !== undefined) {
      st.finishes = 1;
      st.finish = { reason: c.finish_reason };
    }
    const calls = Array.isArray(msg?.tool_calls) ? msg.tool_calls : [];
    calls.slice(0, MAX_CALLS).forEach((t, k) => {
      const call = newCall(k, st.index, k, true);
      st.calls.push(call);
      if (!isObject(t)) {
        call.argsNonString = true;
        return;
      }
      const fn = isObject(t.function) ? t.function : undefined;
      if (typeof t.id === "string" && t.id !== "") call.id = t.id;
      if (typeof fn?.name === "string" && fn.name !== "") call.name = fn.name;
      call.deltas = 1;
      if (typeof fn?.arguments === "string") {
        call.fragments = 1;
        if (fn.arguments.length > ARGS_CAP) call.argsCapped = true;
        else call.args = fn.arguments;
      } else call.argsNonString = true;
      if (st.finish?.reason === "length" && k === calls.length - 1) call.lengthCut = true;
    });
    out.push(st);
  });
  return out;
}

/** "read_file (call_abc, forced-stream)" — how a call reads in a message. */
export function callName(c: CallState, label: string): string {
  return `${c.name === undefined ? "(no name)" : c.name} (${c.id === undefined ? "no id" : c.id}, call #${c.n} of ${label}${c.choice ? ` choice ${c.choice}` : ""})`;
}

/** Evidence for a call: where it started (streams) or the answer's end. */
export function callEvidence(c: CallState, r: ResponseView): Evidence {
  return c.firstEv ? at(c.firstEv, { excerpt: excerpt(c.firstEv.data) }) : r.evidence;
}
