/**
 * What the continue-remote checks share: the contract reference and `serverCheck`, the exchange
 * view, the poll series of GET /state (each snapshot decoded once, then read per profile as a list
 * of normalised entries), and small helpers for the rules that compare snapshots.
 *
 * Semantic checks read only snapshots whose envelope passes `state/schema` (§4); entries are
 * normalised defensively, as an entry may still break `state/entry-schema`.
 */
import { at, excerpt, notApplicable, Tally, type CheckContext, type CheckObserver, type Evidence } from "../../../core/checks/check.js";
import { is2xx, mediaType, parseJson, ownEntry } from "../../../core/checks/check-helpers.js";
import { canonicalText, jsonEqual } from "../../../core/json-depth.js";
import { checkSpec, serverCheckMaker, type CheckArgs, type CheckSpec, type MakeCheck } from "../../../core/checks/define-check.js";
import type { ValidationResult } from "../../../core/schemas/schema-registry.js";
import { describe, evidenceOf, lastEvent, type Exchange } from "../../../core/views/exchange.js";
import { exchangeChecks } from "../../../core/views/exchange-checks.js";
import { all, onNote, type Listen } from "../../../core/views/hooks.js";
import { pollSeriesView } from "../../../core/views/poll-series.js";
import { isPollLabel, NOTE } from "../labels.js";
import { isCn } from "../profiles.js";

export const SEED = "000_7e761de32b24bfaa.txt";
export const ID = (rest: string): string => `continue-remote/${rest}`;

export { all, at, describe, evidenceOf, excerpt, is2xx, lastEvent, mediaType, onNote, parseJson, Tally, type Evidence, type Exchange, type Listen };

const maker = serverCheckMaker(SEED, { stopped: NOTE.stopped, notApplicable: NOTE.notApplicable, knockOn: NOTE.knockOn });

type Spec = CheckSpec & { only?: "seed" | "cn" };
/** A CheckDef of this suite; `only` limits it to one generation ([seed] / [cn] in §4). */
export const serverCheck: MakeCheck<Spec> = (...args: CheckArgs<Spec>) => {
  const spec = checkSpec(...args);
  const { only, ...rest } = spec;
  if (!only) return maker(rest);
  return maker({
    ...rest,
    create(ctx): CheckObserver {
      if (isCn(ctx.profile) === (only === "cn")) return spec.create(ctx);
      const why =
        only === "cn" ? "a cn-session rule ([cn] in §4); the run judges the seed profile" : "a seed rule ([seed] in §4); the run judges the cn-session profile";
      return { observe: all(), finish: () => notApplicable(why) };
    },
  });
};

// ---------------------------------------------------------------------------------------------
// Exchanges

/** A body that broke off is not an answer here: the rules judge whole answers. */
const EXCHANGES = exchangeChecks({ name: "continue-remote/exchanges", errorBodyFromLines: () => false, brokenBodyIsAnswer: false });
export const { onExchanges, unanswered, judgeExchanges } = EXCHANGES;

/** The request body parsed as JSON, or undefined. */
export function requestJson(x: Exchange): unknown {
  const body = x.request.body;
  if (body === undefined) return undefined;
  const p = parseJson(body);
  return p.ok ? p.value : undefined;
}

/** The `message` a POST /message sent, when it was a string. */
export function sentText(x: Exchange): string | undefined {
  const m = (requestJson(x) as { message?: unknown } | undefined)?.message;
  return typeof m === "string" ? m : undefined;
}

/** "/State/" → "/state": routes are case-insensitive and take a trailing slash (§1 Routing). */
export function route(x: Exchange): string {
  let p = (x.path.split("?")[0] ?? "").toLowerCase();
  if (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  return p;
}

/** When an exchange was sent and answered (ms since the run started). */
export const sentAt = (x: Exchange): number => x.request.t;
export const answeredAt = (x: Exchange): number => (x.end ?? x.response ?? x.error ?? x.request).t;

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------
// The poll series

/** A decoded poll: the body was a JSON object (whether it is a valid snapshot is judged per profile). */
export interface RawSnapshot {
  json: Record<string, unknown>;
  x: Exchange;
  /**
   * The snapshot before it in its series, while this one is the newest (the link is cut when the
   * next one comes, so no chain of snapshots stays alive): its entries lend theirs versions.
   */
  before?: RawSnapshot | undefined;
}

const POLLS = pollSeriesView<RawSnapshot>(EXCHANGES.view, {
  name: "continue-remote/state",
  series: (x) => (x.method === "GET" && isPollLabel(x.label) && route(x) === "/state" ? "state" : undefined),
  decode: (x) => (x.status === 200 && isObject(x.json) ? { json: x.json, x } : undefined),
});

export function onPolls(hooks: { snapshot?(next: RawSnapshot, n: number): void; miss?(x: Exchange): void }): Listen {
  return POLLS.on({
    snapshot: (next, prev) => {
      if (prev) prev.value.before = undefined;
      next.value.before = prev?.value;
      hooks.snapshot?.(next.value, next.n);
    },
    ...(hooks.miss ? { miss: (x) => hooks.miss!(x) } : {}),
  });
}

export type EntryKind = "user" | "assistant" | "system" | "tool-start" | "tool-result" | "tool-error" | "thinking" | "tool" | "other";

export interface ToolCallView {
  id: string;
  name: string;
  arguments: unknown;
}
export interface ToolStateView {
  id: string;
  status: string;
  output: unknown;
  parsedArgs: unknown;
}

/** One history entry of either generation, as the rules read it. */
export interface Entry {
  index: number;
  /**
   * Entries with the same version are deep-equal: an entry deep-equal to the one at its index in the
   * snapshot before keeps that one's version, so the rules that compare neighbours do not walk the
   * same unchanged entries again and again (different versions may still be equal: compare then).
   */
  version: number;
  role: string;
  /** The text: a seed entry's content, a cn message's string content (text parts joined). */
  content: string;
  kind: EntryKind;
  toolName?: string | undefined;
  toolResult?: string | undefined;
  /** seed: isStreaming is true. */
  streaming: boolean;
  /** cn: the message's toolCalls and the item's toolCallStates. */
  calls: ToolCallView[];
  states: ToolStateView[];
  raw: unknown;
}

/** A snapshot whose envelope passed state/schema, read for the active profile. */
export interface State {
  /** Position among the series' decoded snapshots. */
  n: number;
  x: Exchange;
  /** When the poll was answered (ms since the run started). */
  at: number;
  cn: boolean;
  isProcessing: boolean;
  queue: number | undefined;
  pending: Record<string, unknown> | null | undefined;
  pendingId: string | undefined;
  entries: Entry[];
  sessionId: unknown;
  json: Record<string, unknown>;
}

const envelopes = new WeakMap<object, Map<string, ValidationResult>>();

/**
 * The snapshot's envelope against the profile's `state-response`, with the history left out:
 * entries are state/entry-schema's, so one bad entry fails that rule and not this one too.
 */
export function envelope(ctx: CheckContext, raw: RawSnapshot): ValidationResult {
  let byProfile = envelopes.get(raw.json);
  if (!byProfile) envelopes.set(raw.json, (byProfile = new Map()));
  const hit = byProfile.get(ctx.profile.name);
  if (hit) return hit;
  const r = ctx.validate("state-response", withoutHistory(raw.json, isCn(ctx.profile)));
  byProfile.set(ctx.profile.name, r);
  return r;
}

function withoutHistory(json: Record<string, unknown>, cn: boolean): unknown {
  if (cn) return isObject(json.session) && Array.isArray(json.session.history) ? { ...json, session: { ...json.session, history: [] } } : json;
  return Array.isArray(json.chatHistory) ? { ...json, chatHistory: [] } : json;
}

const states = new WeakMap<object, Map<boolean, State>>();
let versions = 0;

export function readState(raw: RawSnapshot, n: number, cn: boolean): State {
  let byGen = states.get(raw.json);
  if (!byGen) states.set(raw.json, (byGen = new Map()));
  const hit = byGen.get(cn);
  if (hit) return { ...hit, n };
  const j = raw.json;
  const session = isObject(j.session) ? j.session : undefined;
  const list = (cn ? session?.history : j.chatHistory) as unknown;
  const before = raw.before && states.get(raw.before.json)?.get(cn)?.entries;
  const entries = (Array.isArray(list) ? list : []).map((e, i) => {
    const p = before?.[i];
    const version = p && sameJson(p.raw, e) ? p.version : ++versions;
    return cn ? cnEntry(e, i, version) : seedEntry(e, i, version);
  });
  const pending = j.pendingPermission === null ? null : isObject(j.pendingPermission) ? j.pendingPermission : undefined;
  const s: State = {
    n,
    x: raw.x,
    at: answeredAt(raw.x),
    cn,
    isProcessing: j.isProcessing === true,
    queue: typeof j.messageQueueLength === "number" ? j.messageQueueLength : undefined,
    pending,
    pendingId: pending && typeof pending.requestId === "string" ? pending.requestId : undefined,
    entries,
    sessionId: session?.sessionId,
    json: j,
  };
  byGen.set(cn, s);
  return s;
}

function seedEntry(raw: unknown, index: number, version: number): Entry {
  const e = isObject(raw) ? raw : {};
  const role = typeof e.role === "string" ? e.role : "";
  const type = e.messageType;
  const kind: EntryKind =
    type === "tool-start" || type === "tool-result" || type === "tool-error"
      ? type
      : role === "user" || role === "assistant" || role === "system"
        ? role
        : "other";
  // Every entry of every poll is read: one object shape, no spreads, shared empty lists (read only).
  return {
    index,
    version,
    role,
    content: typeof e.content === "string" ? e.content : "",
    kind,
    toolName: typeof e.toolName === "string" ? e.toolName : undefined,
    toolResult: typeof e.toolResult === "string" ? e.toolResult : undefined,
    streaming: e.isStreaming === true,
    calls: NO_CALLS,
    states: NO_STATES,
    raw,
  };
}

const NO_CALLS: ToolCallView[] = Object.freeze([]) as unknown as ToolCallView[];
const NO_STATES: ToolStateView[] = Object.freeze([]) as unknown as ToolStateView[];

function cnEntry(raw: unknown, index: number, version: number): Entry {
  const item = isObject(raw) ? raw : {};
  const m = isObject(item.message) ? item.message : {};
  const role = typeof m.role === "string" ? m.role : "";
  const kind: EntryKind = ["user", "assistant", "system", "thinking", "tool"].includes(role) ? (role as EntryKind) : "other";
  const calls = !Array.isArray(m.toolCalls) || m.toolCalls.length === 0 ? NO_CALLS : m.toolCalls.filter(isObject).map((c) => ({
    id: typeof c.id === "string" ? c.id : "",
    name: isObject(c.function) && typeof c.function.name === "string" ? c.function.name : "",
    arguments: isObject(c.function) ? c.function.arguments : undefined,
  }));
  const states = !Array.isArray(item.toolCallStates) || item.toolCallStates.length === 0 ? NO_STATES : item.toolCallStates.filter(isObject).map((s) => ({
    id: typeof s.toolCallId === "string" ? s.toolCallId : "",
    status: typeof s.status === "string" ? s.status : "",
    output: s.output,
    parsedArgs: s.parsedArgs,
  }));
  return { index, version, role, content: textOf(m.content), kind, streaming: false, calls, states, raw };
}

/** A cn message's content as text: a string, or its text parts joined. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((p) => (isObject(p) && typeof p.text === "string" ? p.text : "")).join("");
}

/**
 * Valid snapshots of the series for the run's profile, each with the previous valid one. Snapshots
 * that fail state/schema are skipped (`invalid` is told), as §4 asks of semantic checks.
 */
export function onStates(
  ctx: CheckContext,
  hooks: { state(next: State, prev: State | undefined): void; invalid?(raw: RawSnapshot): void; miss?(x: Exchange): void },
): Listen {
  const cn = isCn(ctx.profile);
  let prev: State | undefined;
  return onPolls({
    snapshot(raw, n) {
      if (!envelope(ctx, raw).ok) {
        hooks.invalid?.(raw);
        return;
      }
      const next = readState(raw, n, cn);
      hooks.state(next, prev);
      prev = next;
    },
    ...(hooks.miss ? { miss: hooks.miss } : {}),
  });
}

// ---------------------------------------------------------------------------------------------
// Comparing entries

const keys = new WeakMap<object, string>();

/** A canonical JSON text (sorted keys): two values deep-equal exactly when their keys are equal. Any depth. */
export const canon = canonicalText;

/** The canonical text of an entry, computed once per entry object. */
export function keyOf(e: Entry): string {
  if (!isObject(e.raw)) return canon(e.raw);
  let k = keys.get(e.raw);
  if (k === undefined) keys.set(e.raw, (k = canon(e.raw)));
  return k;
}

/**
 * Deep equality as `canon` sees it (key order and undefined members ignored), without building the
 * texts: neighbouring snapshots are fresh parses, so a cached key would be built once per entry per poll. Any depth.
 */
export const sameJson = (a: unknown, b: unknown): boolean => a === b || jsonEqual(a, b);

export const sameEntry = (a: Entry, b: Entry): boolean => a.version === b.version || sameJson(a.raw, b.raw);

/** cn: what §3.17 keeps fixed in an item (role, content, toolCalls). */
export function fixedOf(e: Entry): string {
  const m = isObject(e.raw) && isObject(e.raw.message) ? e.raw.message : {};
  return canon({ role: m.role, content: m.content, toolCalls: m.toolCalls });
}

/** `○ Read(README.md)` → {display: "Read", arg: "README.md"}; `● Read` → {display: "Read"}. */
export function toolLabel(content: string): { display: string; arg?: string } | undefined {
  const m = /^[○●] ([^\s(]+)(?:\(([\s\S]*)\))?$/.exec(content);
  if (!m) return undefined;
  return m[2] !== undefined ? { display: m[1]!, arg: m[2] } : { display: m[1]! };
}

/** The seed's name table (§2): display name → toolName. */
export const NAME_TABLE: Record<string, string> = {
  Read: "read_file",
  Write: "write_file",
  Bash: "run_terminal_command",
  List: "list_files",
  Search: "search_code",
  Diff: "view_diff",
  Fetch: "fetch",
  Exit: "exit",
};

/** Two toolNames of one tool: equal, or a display name and its table name (a wrong name is tools/name-map's). */
export function sameTool(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a === b || ownEntry(NAME_TABLE, a) === b || ownEntry(NAME_TABLE, b) === a;
}

export const UNSETTLED = new Set(["generating", "generated", "calling"]);
export const TERMINAL = new Set(["done", "errored", "canceled"]);

/** What shows a turn still open in a snapshot (§3.8's idle invariants, read the other way round). */
export function openSigns(s: State): string[] {
  const out: string[] = [];
  const last = s.entries.at(-1);
  for (const e of s.entries) {
    if (e.streaming) out.push(`entry ${e.index} is streaming`);
    for (const st of e.states) if (UNSETTLED.has(st.status)) out.push(`tool call ${st.id} of item ${e.index} is ${st.status}`);
  }
  if (!s.cn && last?.kind === "tool-start") out.push(`the last entry (${last.index}) is an unresolved tool-start`);
  if (s.pending) out.push(`permission ${s.pendingId ?? "?"} is pending`);
  return out;
}

/** "poll #3 (state:turn, x12)" — how a snapshot reads in a message. */
export const where = (s: { n: number; x: Exchange }): string => `poll #${s.n} (${s.x.label}, ${s.x.id})`;

/**
 * A before/after comparison needs the server at rest: a busy server's state moves on its own (a
 * server stuck busy, a turn it started itself). True, with the rule left unjudged, when the
 * snapshot before `what` said `isProcessing: true`.
 */
export function busyBefore(t: Tally, before: { raw: RawSnapshot; n: number }, what: string): boolean {
  if (before.raw.json.isProcessing !== true) return false;
  t.untestable(`${where({ n: before.n, x: before.raw.x })} said isProcessing: true: the server was busy before ${what}, so its state could change on its own`);
  return true;
}

/** Evidence for a snapshot: the poll's last event, and an excerpt of what the rule looked at. */
export function stateEvidence(s: { x: Exchange }, what?: unknown, note?: string): Evidence {
  return at(lastEvent(s.x), { ...(what !== undefined ? { excerpt: excerpt(what) } : {}), ...(note ? { note } : {}) });
}

/** Trimmed, NFC: how a text is recognised when it may have been altered (verbatim fidelity is judged elsewhere). */
export const loose = (s: string): string => s.trim().normalize("NFC");

/** Answers of the probes that must fail: a 2xx means the server took a bad request. */
export const tookIt = (x: Exchange): boolean => is2xx(x.status);

/** What a request without effect must leave alone: the history, the flag, the queue and the pending permission. */
export function stateOf(raw: RawSnapshot, cn: boolean): string {
  const j = raw.json;
  const session = isObject(j.session) ? j.session : undefined;
  return canon({ history: cn ? session?.history : j.chatHistory, isProcessing: j.isProcessing, queue: j.messageQueueLength, pending: j.pendingPermission });
}

/** How two snapshots differ, in a few words. */
export function stateChange(a: RawSnapshot, b: RawSnapshot, cn: boolean): string {
  const len = (r: RawSnapshot) => {
    const h = cn ? (isObject(r.json.session) ? r.json.session.history : undefined) : r.json.chatHistory;
    return Array.isArray(h) ? h.length : "?";
  };
  const parts: string[] = [];
  if (len(a) !== len(b)) parts.push(`history ${len(a)} → ${len(b)} entries`);
  if (a.json.isProcessing !== b.json.isProcessing) parts.push(`isProcessing ${String(a.json.isProcessing)} → ${String(b.json.isProcessing)}`);
  if (a.json.messageQueueLength !== b.json.messageQueueLength)
    parts.push(`messageQueueLength ${String(a.json.messageQueueLength)} → ${String(b.json.messageQueueLength)}`);
  if (canon(a.json.pendingPermission) !== canon(b.json.pendingPermission)) parts.push("pendingPermission changed");
  return parts.join(", ") || "an entry changed";
}
