/**
 * The client side of a robustness run, shared by every protocol: the kit's JSON requests (cases,
 * results) under a deadline, and one case request read through the client's adapter under the
 * case's deadline, never throwing and never hanging on an adapter that ignores the abort. A
 * protocol supplies the order of requests (a connect first, a follow-up turn) and its empty
 * result. Browser-safe (fetch only).
 */
import { CASES_PATH, RESULTS_PATH } from "./case-table.js";
import type { OutcomeOf } from "./compare.js";

export interface RunCasesOptions {
  /** Headers added to every request (e.g. Authorization). */
  headers?: Record<string, string>;
  /** Upper bound for any one case, over the case's own deadline (ms). */
  caseTimeoutMs?: number;
  /** Deadline for the kit's JSON requests, ms. */
  requestTimeoutMs?: number;
  /** Only these case ids (default: all the kit lists). */
  only?: string[];
  log?: (line: string) => void;
  fetch?: typeof fetch;
}

export interface CaseRun<R> {
  case: string;
  result: R;
}

/** A response adapter: reads one response the way a client does. */
export type Adapter<R> = (response: Response) => Promise<R>;

// Time an adapter gets to unwind after its request is aborted, before the run stops waiting.
const ABORT_GRACE_MS = 1000;

/** The JSON side of a run against the kit, at `base`, with `headers` on every request. */
export function kitSession<R extends OutcomeOf>(base: string, headers: Record<string, string>, options: RunCasesOptions) {
  const doFetch = options.fetch ?? fetch;
  const log = options.log ?? (() => undefined);
  const requestTimeout = options.requestTimeoutMs ?? 10_000;
  const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const response = await doFetch(`${base}${path}`, { ...init, headers, signal: AbortSignal.timeout(requestTimeout) });
    if (!response.ok) {
      throw new Error(`${init.method ?? "GET"} ${path} answered ${response.status}: ${await response.text().catch(() => "")}`);
    }
    return response;
  };
  return {
    call,
    /** The cases the kit lists, narrowed to `options.only`. */
    async cases<W extends { id: string }>(): Promise<W[]> {
      const { cases } = (await (await call(CASES_PATH)).json()) as { cases: W[] };
      return options.only ? cases.filter((c) => options.only!.includes(c.id)) : cases;
    },
    /** Logs a case's result and posts it to the kit. */
    async report(id: string, result: R): Promise<void> {
      log(`${id}: ${result.outcome}${result.error !== undefined ? ` (${result.error})` : ""}`);
      const posted = await call(RESULTS_PATH, { method: "POST", body: JSON.stringify({ case: id, result }) });
      await posted.body?.cancel();
    },
    /** A case's deadline, bounded by `caseTimeoutMs`. */
    limitOf: (ms: number) => Math.min(ms, options.caseTimeoutMs ?? Infinity),
    log,
    fetch: doFetch,
  };
}

/**
 * One request, then the adapter, both under one deadline. Never throws: a failure is the result
 * `failed(message)` gives.
 */
export async function runCaseRequest<R>(
  url: string,
  init: { method: string; headers: Record<string, string>; body: string },
  adapter: Adapter<R>,
  failed: (error: string) => R,
  limit: number,
  doFetch: typeof fetch,
): Promise<R> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`no result within ${limit} ms`)), limit);
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  try {
    const response = await doFetch(url, { ...init, signal: abort.signal });
    // An adapter that ignores the abort must not hang the run.
    const stuck = new Promise<R>((resolve) => {
      giveUp = setTimeout(() => resolve(failed(`no result within ${limit} ms`)), limit + ABORT_GRACE_MS);
    });
    const read = adapter(response).catch((e: unknown) => failed(`adapter threw: ${(e as Error).message}`));
    return await Promise.race([read, stuck]);
  } catch (e) {
    return failed(`request failed: ${(e as Error).message}`);
  } finally {
    clearTimeout(timer);
    clearTimeout(giveUp);
    abort.abort();
  }
}
