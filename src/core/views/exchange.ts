/**
 * The HTTP exchange view: one record per request, from the request to its end (body end or
 * transport error), with the response head and — for JSON — the body parsed once. Checks receive
 * each finished exchange; the view keeps only the exchanges in flight.
 */
import { at, excerpt, type Evidence } from "../checks/check.js";
import { is2xx, parseJson } from "../checks/check-helpers.js";
import type { BodyEndReason, TranscriptEvent } from "../transcript/transcript.js";
import { each, type Guard, type Listen, on, type ViewDef } from "./hooks.js";

type Ev<K extends TranscriptEvent["kind"]> = Extract<TranscriptEvent, { kind: K }>;
export type RequestEvent = Ev<"http-request">;
export type ResponseEvent = Ev<"http-response">;
export type BodyEndEvent = Ev<"body-end">;
export type ErrorEvent = Ev<"http-error">;

/** One finished exchange as the checks see it. */
export interface Exchange {
  id: string;
  label: string;
  method: string;
  path: string;
  /** The Origin the request carried. */
  origin: string | undefined;
  request: RequestEvent;
  response?: ResponseEvent;
  status?: number;
  /** Response headers (lower-case names), {} without a response. */
  headers: Record<string, string>;
  end?: BodyEndEvent;
  error?: ErrorEvent;
  /** Body text: every non-stream body; for a body read as SSE, a non-2xx one rebuilt from its lines. */
  text?: string;
  /** Parsed body, when `text` is JSON. */
  json?: unknown;
  isJson: boolean;
  /** The body was read as SSE (raw lines were recorded). */
  streamRead: boolean;
}

export interface ExchangeOptions {
  name: string;
  /**
   * Whether a non-2xx body read as SSE is rebuilt from its lines (an error answer to a stream
   * request is usually JSON). `streamRead` says whether any line was seen.
   */
  errorBodyFromLines(request: RequestEvent, streamRead: boolean): boolean;
}

/**
 * The last body parsed, by its event: a view derived from the exchange view (the poll series) reads the exchanges
 * through an instance of its own, and both meet each body-end event in turn, in one call. One slot, emptied once
 * that call is over, so no body outlives its turn here.
 */
let lastBody: { ev: BodyEndEvent; parsed: ReturnType<typeof parseJson> } | undefined;
const forgetBody = (): void => {
  lastBody = undefined;
};

function bodyJson(ev: BodyEndEvent, text: string): ReturnType<typeof parseJson> {
  if (lastBody?.ev === ev) return lastBody.parsed;
  if (!lastBody) queueMicrotask(forgetBody);
  lastBody = { ev, parsed: parseJson(text) };
  return lastBody.parsed;
}

/** A non-2xx body read as SSE is rebuilt from its lines up to this size. */
const ERROR_BODY_CAP = 64 * 1024;

export type ExchangeHook = (x: Exchange) => void;

export type ExchangeView = ViewDef<ExchangeHook> & { on(fn: ExchangeHook): Listen };

/** Defines a protocol's exchange view. `on(view, fn)` (or `view.on(fn)`) subscribes a check. */
export function exchangeView(opts: ExchangeOptions): ExchangeView {
  const view: ViewDef<ExchangeHook> = {
    name: opts.name,
    kinds: ["http-request", "http-response", "sse-line", "http-error", "body-end"],
    create() {
      const subs: { hooks: ExchangeHook; guard: Guard }[] = [];
      const open = new Map<string, Exchange & { parts?: string[]; size?: number }>();
      /** The exchange of the previous line, while it is open. */
      let lastLine: (Exchange & { parts?: string[]; size?: number }) | undefined;
      const done = (x: Exchange) => each(subs, (fn) => fn(x));
      return {
        add(hooks, guard) {
          subs.push({ hooks, guard });
        },
        observe(ev) {
          switch (ev.kind) {
            case "http-request":
              if (lastLine?.id === ev.exchange) lastLine = undefined;
              open.set(ev.exchange, {
                id: ev.exchange,
                label: ev.label,
                method: ev.method,
                path: ev.path,
                origin: ev.headers["origin"],
                request: ev,
                headers: {},
                isJson: false,
                streamRead: false,
              });
              return;
            case "http-response": {
              const x = open.get(ev.exchange);
              if (!x) return;
              x.response = ev;
              x.status = ev.status;
              x.headers = ev.headers;
              if (!is2xx(ev.status)) {
                x.parts = [];
                x.size = 0;
              }
              return;
            }
            case "sse-line": {
              // A stream's lines come in runs of one exchange: most of them need no lookup.
              let x: (Exchange & { parts?: string[]; size?: number }) | undefined;
              if (ev.exchange === lastLine?.id) x = lastLine;
              else {
                x = open.get(ev.exchange);
                if (!x) return;
                lastLine = x;
              }
              x.streamRead = true;
              if (!x.parts || x.size! >= ERROR_BODY_CAP) return;
              x.parts.push(ev.line, ev.eol);
              x.size! += ev.line.length + ev.eol.length;
              return;
            }
            case "http-error":
            case "body-end": {
              const x = open.get(ev.exchange);
              if (!x) return;
              open.delete(ev.exchange);
              if (x === lastLine) lastLine = undefined;
              if (ev.kind === "http-error") x.error = ev;
              else {
                x.end = ev;
                const fromLines = x.parts && opts.errorBodyFromLines(x.request, x.streamRead) ? x.parts.join("") : undefined;
                const text = ev.text ?? fromLines;
                if (text !== undefined) {
                  x.text = text;
                  const parsed = text === ev.text ? bodyJson(ev, text) : parseJson(text);
                  if (parsed.ok) {
                    x.json = parsed.value;
                    x.isJson = true;
                  }
                }
              }
              delete x.parts;
              delete x.size;
              done(x);
              return;
            }
            default:
              return;
          }
        },
      };
    },
  };
  return Object.assign(view, { on: (fn: ExchangeHook) => on(view, fn) });
}

export interface AnswerRules {
  /** A body that broke off (reset) is still an answer the rules judge. */
  brokenBodyIsAnswer: boolean;
}

const READ_TO_THE_END = new Set<BodyEndReason>(["eof", "close-timeout"]);

/**
 * Why an exchange's answer cannot be judged, or undefined when it can: no response head, a 429
 * the probes retried, or a body the kit stopped reading (its own time or size limit).
 */
export function unanswered(x: Exchange, rules: AnswerRules): string | undefined {
  const what = `${x.method} ${x.path} (${x.label})`;
  if (x.status === undefined) return `${what} got no response (${x.error?.error ?? "no head"})`;
  if (x.status === 429) return `${what} was rate-limited (429)`;
  const reason = x.end?.reason;
  if (reason && !READ_TO_THE_END.has(reason) && !(reason === "error" && rules.brokenBodyIsAnswer)) {
    return `the kit stopped reading ${what}: ${reason}`;
  }
  return undefined;
}

/** "GET /status → 200 application/json, 45 bytes" — how an exchange reads in a message. */
export function describe(x: Exchange): string {
  const what = `${x.method} ${x.path}`;
  if (x.status === undefined) return `${what} → no response (${x.error?.error ?? x.end?.reason ?? "unknown"})`;
  const type = x.headers["content-type"] ? ` ${x.headers["content-type"]}` : "";
  const bytes = x.end ? `, ${x.end.bytes} bytes` : "";
  const cut = x.end && x.end.reason !== "eof" ? `, body ended by ${x.end.reason}` : "";
  return `${what} → ${x.status}${type}${bytes}${cut}`;
}

/** The last event of an exchange, for evidence. */
export function lastEvent(x: Exchange): TranscriptEvent {
  return x.end ?? x.error ?? x.response ?? x.request;
}

/** Evidence for an exchange: its last event, and the body (when read) as the excerpt. */
export function evidenceOf(x: Exchange, extra: Partial<Evidence> = {}): Evidence {
  const body = x.text !== undefined ? excerpt(x.text) : undefined;
  return at(lastEvent(x), { ...(body !== undefined ? { excerpt: body } : {}), ...extra });
}
