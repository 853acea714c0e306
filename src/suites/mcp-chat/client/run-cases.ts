/**
 * The whole client side of the robustness run, for clients that consume streams through an
 * adapter: list servers, connect the first, fetch the kit's cases, run each through the adapter
 * with a deadline, and report each result. Browser-safe (fetch only), so a web frontend's test
 * harness can call it with its own adapter.
 */
import type { AdapterResult, McpChatAdapter } from "./adapters/types.js";
import { CASES_PATH, RESULTS_PATH, type WireCase } from "./cases.js";

export interface RunCasesOptions {
  /** Headers added to every request (e.g. Authorization). */
  headers?: Record<string, string>;
  /** Upper bound for any one case, over the case's own deadline (ms). */
  caseTimeoutMs?: number;
  /** Deadline for the JSON requests (servers, connect, cases, results), ms. */
  requestTimeoutMs?: number;
  /** Only these case ids (default: all the kit lists). */
  only?: string[];
  log?: (line: string) => void;
  fetch?: typeof fetch;
}

export interface CaseRun {
  case: string;
  result: AdapterResult;
}

// Time an adapter gets to unwind after its request is aborted, before the run stops waiting.
const ABORT_GRACE_MS = 1000;

export async function runMcpChatCases(
  baseUrl: string,
  adapter: McpChatAdapter,
  options: RunCasesOptions = {},
): Promise<CaseRun[]> {
  const base = baseUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;
  const log = options.log ?? (() => undefined);
  const json = { "Content-Type": "application/json", ...(options.headers ?? {}) };
  const requestTimeout = options.requestTimeoutMs ?? 10_000;
  const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const response = await doFetch(`${base}${path}`, {
      ...init,
      headers: { ...json, ...(init.headers as Record<string, string> | undefined) },
      signal: AbortSignal.timeout(requestTimeout),
    });
    if (!response.ok) {
      throw new Error(`${init.method ?? "GET"} ${path} answered ${response.status}: ${await response.text().catch(() => "")}`);
    }
    return response;
  };

  const servers = (await (await call("/servers")).json()) as { id?: unknown }[];
  const first = Array.isArray(servers) ? servers[0]?.id : undefined;
  if (typeof first !== "string") throw new Error("GET /servers listed no server to connect to");
  await call(`/connect/${encodeURIComponent(first)}`, { method: "POST" });
  log(`connected to ${first}`);

  const { cases } = (await (await call(CASES_PATH)).json()) as { cases: WireCase[] };
  const selected = options.only ? cases.filter((c) => options.only!.includes(c.id)) : cases;
  const runs: CaseRun[] = [];
  for (const c of selected) {
    const limit = Math.min(c.timeoutMs, options.caseTimeoutMs ?? Infinity);
    const result = await runCase(base, c, adapter, json, limit, doFetch);
    log(`${c.id}: ${result.outcome}${result.error !== undefined ? ` (${result.error})` : ""}`);
    const posted = await call(RESULTS_PATH, { method: "POST", body: JSON.stringify({ case: c.id, result }) });
    await posted.body?.cancel();
    runs.push({ case: c.id, result });
  }
  return runs;
}

/** One case: the request, then the adapter, both under one deadline. Never throws. */
async function runCase(
  base: string,
  c: WireCase,
  adapter: McpChatAdapter,
  headers: Record<string, string>,
  limit: number,
  doFetch: typeof fetch,
): Promise<AdapterResult> {
  const failed = (error: string): AdapterResult => ({ text: "", tools: [], outcome: "error", error });
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`no result within ${limit} ms`)), limit);
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  try {
    const response = await doFetch(`${base}${c.path}`, {
      method: c.method,
      headers,
      body: JSON.stringify(c.body),
      signal: abort.signal,
    });
    // An adapter that ignores the abort must not hang the run.
    const stuck = new Promise<AdapterResult>((resolve) => {
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
