/**
 * The exchanges a report shows next to a failure: the request, the response head (and a short
 * body), and the events or frames around the offending one. Built after the run from the
 * transcript (a saved file, or the heads a run keeps for this), only for the failures' evidence.
 */
import type { Evidence } from "../checks/check.js";
import type { CheckResult, ExchangeRecord, ExchangeEventLine } from "./result.js";
import type { TranscriptEvent } from "../transcript/transcript.js";

/** Events shown before and after the offending one. */
const WINDOW = 3;
const TEXT_CAP = 400;
const BODY_CAP = 4000;
/** Requests are kept whole up to this size, so curl can send them again (tool catalogues are long). */
const REQUEST_CAP = 256 * 1024;

/** The checks whose evidence a report explains with its exchange. */
export const explained = (c: CheckResult): boolean => c.verdict === "fail" || c.verdict === "warn";

const groupOf = (ev: TranscriptEvent): string | undefined =>
  "exchange" in ev && typeof ev.exchange === "string" ? ev.exchange : "connection" in ev && typeof ev.connection === "string" ? ev.connection : undefined;

/** Event kinds shown around the offending one (raw chunks and lines only when they are the offence). */
const SHOWN = new Set(["sse-event", "ws-frame", "body-end", "ws-close", "http-error"]);

/**
 * Records for the exchanges the failures of `checks` point at. `events` is the run's transcript (or
 * any part of it holding the heads); it is read twice, so pass an array.
 */
export function exchangeRecords(events: readonly TranscriptEvent[], checks: readonly CheckResult[]): ExchangeRecord[] {
  const evidence: Evidence[] = checks.filter(explained).flatMap((c) => c.evidence);
  if (evidence.length === 0) return [];
  const offending = new Set(evidence.map((e) => e.seq).filter((s): s is number => s !== undefined));
  const wanted = new Set(evidence.map((e) => e.exchange).filter((x): x is string => !!x));
  for (const ev of events) {
    if (offending.has(ev.seq)) {
      const g = groupOf(ev);
      if (g) wanted.add(g);
    }
  }
  const records = new Map<string, ExchangeRecord & { all: TranscriptEvent[] }>();
  for (const ev of events) {
    const g = groupOf(ev);
    if (!g || !wanted.has(g)) continue;
    let r = records.get(g);
    if (!r) {
      r = { id: g, kind: ev.kind.startsWith("ws-") ? "ws" : "http", probe: ev.probe, all: [] };
      records.set(g, r);
    }
    switch (ev.kind) {
      case "http-request":
        r.label = ev.label;
        r.request = { method: ev.method, url: ev.url, headers: ev.headers, ...(ev.body !== undefined ? { body: cap(ev.body, REQUEST_CAP) } : {}) };
        break;
      case "http-response":
        r.response = { status: ev.status, headers: ev.headers };
        break;
      case "ws-open":
        if (ev.label) r.label = ev.label;
        r.request = { method: "GET", url: ev.url, headers: ev.headers ?? {} };
        if (ev.responseHeaders) r.response = { status: 101, headers: ev.responseHeaders };
        break;
      case "ws-reject":
        if (ev.label) r.label = ev.label;
        r.request = { method: "GET", url: ev.url, headers: ev.headers ?? {} };
        if (ev.status !== undefined) r.response = { status: ev.status, headers: ev.responseHeaders ?? {}, ...(ev.body ? { body: cap(ev.body, BODY_CAP) } : {}) };
        if (ev.error) r.error = ev.error;
        break;
      case "http-error":
        r.error = ev.error;
        break;
      case "body-end":
        if (ev.text !== undefined && r.response) r.response.body = cap(ev.text, BODY_CAP);
        break;
    }
    if (SHOWN.has(ev.kind) || offending.has(ev.seq)) r.all.push(ev);
  }
  return [...records.values()].map(({ all, ...r }) => {
    const lines = around(all, offending);
    return lines.length ? { ...r, events: lines } : r;
  });
}

/** The shown events within WINDOW of an offending one (the first few when none is marked). */
function around(all: TranscriptEvent[], offending: ReadonlySet<number>): ExchangeEventLine[] {
  const hits = all.flatMap((ev, i) => (offending.has(ev.seq) ? [i] : []));
  const keep = new Set<number>();
  if (hits.length === 0) for (let i = 0; i < Math.min(all.length, WINDOW * 2); i++) keep.add(i);
  for (const h of hits.slice(0, 5)) for (let i = Math.max(0, h - WINDOW); i <= Math.min(all.length - 1, h + WINDOW); i++) keep.add(i);
  return [...keep]
    .sort((a, b) => a - b)
    .map((i) => {
      const ev = all[i]!;
      return { seq: ev.seq, t: ev.t, kind: ev.kind, text: describe(ev), ...(offending.has(ev.seq) ? { offending: true } : {}) };
    });
}

function describe(ev: TranscriptEvent): string {
  switch (ev.kind) {
    case "sse-event":
      return cap(`${ev.event ? `event: ${ev.event} ` : ""}data: ${ev.data}`, TEXT_CAP);
    case "sse-line":
      return cap(JSON.stringify(ev.line + ev.eol), TEXT_CAP);
    case "ws-frame":
      return cap(`${ev.direction === "out" ? "→" : "←"} ${ev.binary ? "(binary) " : ""}${ev.data}`, TEXT_CAP);
    case "ws-close":
      return `closed${ev.code !== undefined ? ` ${ev.code}` : ""}${ev.reason ? ` "${ev.reason}"` : ""}${ev.by ? ` by ${ev.by}` : ""}${ev.cause ? ` (${ev.cause})` : ""}`;
    case "body-end":
      return `end of body: ${ev.reason}, ${ev.bytes} bytes${ev.error ? ` (${ev.error})` : ""}`;
    case "body-chunk":
      return cap(`chunk #${ev.index}: ${JSON.stringify(new TextDecoder().decode(ev.bytes))}`, TEXT_CAP);
    case "http-error":
      return `request failed: ${ev.error}`;
    case "note":
      return cap(`note ${ev.name}: ${JSON.stringify(ev.value)}`, TEXT_CAP);
    default:
      return ev.kind;
  }
}

function cap(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}… (${s.length - n} more characters)` : s;
}

/** The event kinds a run keeps, besides a saved transcript, so failures can show their request. */
export const HEAD_KINDS = new Set<TranscriptEvent["kind"]>(["http-request", "http-response", "http-error", "ws-open", "ws-reject"]);

/** Keeps the heads of every exchange (small), plus short non-stream bodies. */
export class HeadLog {
  readonly events: TranscriptEvent[] = [];
  observe = (ev: TranscriptEvent): void => {
    if (ev.kind === "http-request" && ev.body !== undefined && ev.body.length > REQUEST_CAP) this.events.push({ ...ev, body: cap(ev.body, REQUEST_CAP) });
    else if (HEAD_KINDS.has(ev.kind)) this.events.push(ev);
    else if (ev.kind === "body-end" && ev.text !== undefined) this.events.push({ ...ev, text: cap(ev.text, BODY_CAP) });
  };
}
