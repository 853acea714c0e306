/**
 * Reading the mock's record of a continue-remote client: requests as they arrived (probe
 * "client"), and finished exchanges on an exchange view, each with the answer the client was
 * served (the mock records it in full), so rules can read the `/state` the client was shown.
 * Routes are matched as the server matches them (query ignored, trailing slash, any case).
 */
import type { TranscriptEvent } from "../../../core/transcript/transcript.js";
import { exchangeView, type Exchange } from "../../../core/views/exchange.js";
import { pollSeriesView } from "../../../core/views/poll-series.js";
import { matchRoute, type RouteName } from "../../../mocks/continue-remote/routes.js";

/** The mock records client traffic under this probe name. */
export const CLIENT_PROBE = "client";
export const SEED = "000_7e761de32b24bfaa.txt";

export type RequestEvent = Extract<TranscriptEvent, { kind: "http-request" }>;

/** Every exchange of a client with the mock, delivered when its answer has been recorded. */
export const clientExchanges = exchangeView({ name: "continue-remote-client-exchanges", errorBodyFromLines: () => false });

/** The harness's routes (reset, step, transcript): never the client's doing. */
export const isControlPath = (path: string): boolean => pathOf(path).toLowerCase().startsWith("/__agentwire/");

/** The path without its query. */
export const pathOf = (path: string): string => path.split("?")[0]!;

/** The route a path names, as the server routes it, under either profile (pause included). */
export function routeOf(path: string): RouteName | undefined {
  return matchRoute(pathOf(path), true)?.name;
}

/** The route and method a profile serves at `path`; undefined for a path it does not serve. */
export function profileRoute(path: string, cn: boolean): { name: RouteName; method: "GET" | "POST" } | undefined {
  if (isControlPath(path)) return undefined;
  return matchRoute(pathOf(path), cn);
}

export function isClientRequest(e: TranscriptEvent): e is RequestEvent {
  return e.kind === "http-request" && e.probe === CLIENT_PROBE && !isControlPath(e.path);
}

export const isClientExchange = (x: Exchange): boolean => x.request.probe === CLIENT_PROBE && !isControlPath(x.path);

export const isPoll = (method: string, path: string): boolean => method === "GET" && routeOf(path) === "state";

/** What a served `/state` told the client, as far as client rules need it. */
export interface ServedState {
  isProcessing: boolean;
  /** The pending permission's id; null when none was pending (or the field was absent). */
  pending: string | null;
  /** When the answer was recorded. */
  t: number;
  seq: number;
  exchange: string;
}

/**
 * The state a poll served: a 200 whose JSON body is an object with a boolean `isProcessing`.
 * Anything else (an error, a 304, a body that is no state) tells the client nothing new.
 */
export function servedState(x: Exchange): ServedState | undefined {
  if (!isPoll(x.method, x.path) || x.status !== 200 || !x.isJson || !x.end) return undefined;
  const body = x.json as { isProcessing?: unknown; pendingPermission?: { requestId?: unknown } | null } | null;
  if (!body || typeof body !== "object" || typeof body.isProcessing !== "boolean") return undefined;
  const id = body.pendingPermission?.requestId;
  return { isProcessing: body.isProcessing, pending: typeof id === "string" ? id : null, t: x.end.t, seq: x.end.seq, exchange: x.id };
}

/** The states the client was served, each decoded once for every check that reads them. */
export const servedStates = pollSeriesView<ServedState>(clientExchanges, {
  name: "continue-remote-served-states",
  series: (x) => (isClientExchange(x) && isPoll(x.method, x.path) ? "state" : undefined),
  decode: servedState,
});

/** The body of a request as JSON, or why it is not JSON. */
export function requestJson(req: RequestEvent): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(req.body ?? "") as unknown };
  } catch {
    return { ok: false };
  }
}

/** "POST /message (c3, at 1234 ms)": how a request reads in a message. */
export function where(req: RequestEvent): string {
  return `${req.method} ${req.path} (${req.exchange}, at ${Math.round(req.t)} ms)`;
}

export const ms = (n: number): string => `${Math.round(n)} ms`;
