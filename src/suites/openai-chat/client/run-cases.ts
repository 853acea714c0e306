/**
 * The whole client side of the robustness run, for clients that consume Chat Completions through
 * an adapter: fetch the kit's cases, send each request, read the response through the adapter
 * under a deadline, answer the tool loop's calls in a follow-up request built from what the adapter
 * assembled (seed §3), and report every result. Browser-safe (fetch only), so any client's own
 * test harness can call it with its own adapter.
 */
import type { AdapterResult, AssembledCall, OpenaiChatAdapter } from "./adapters/types.js";
import { CASES_PATH, RESULTS_PATH, type WireCase, type WireFollowUp } from "./cases.js";

export interface RunCasesOptions {
  /** The bearer key sent on every request (default "agentwire"). */
  apiKey?: string;
  /** Headers added to every request. */
  headers?: Record<string, string>;
  /** Upper bound for any one case, over the case's own deadline (ms). */
  caseTimeoutMs?: number;
  /** Deadline for the kit's JSON requests (cases, results), ms. */
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

/**
 * The base URL a client would use: as given, with `/v1` added when it has no path (the mock
 * answers both forms).
 */
export function apiBase(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  try {
    const u = new URL(trimmed);
    return u.pathname === "/" || u.pathname === "" ? `${trimmed}/v1` : trimmed;
  } catch {
    return trimmed;
  }
}

export async function runOpenaiChatCases(baseUrl: string, adapter: OpenaiChatAdapter, options: RunCasesOptions = {}): Promise<CaseRun[]> {
  const base = apiBase(baseUrl);
  const doFetch = options.fetch ?? fetch;
  const log = options.log ?? (() => undefined);
  const common: Record<string, string> = {
    "Content-Type": "application/json",
    Authorization: `Bearer ${options.apiKey ?? "agentwire"}`,
    ...(options.headers ?? {}),
  };
  const requestTimeout = options.requestTimeoutMs ?? 10_000;
  const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const response = await doFetch(`${base}${path}`, { ...init, headers: common, signal: AbortSignal.timeout(requestTimeout) });
    if (!response.ok) {
      throw new Error(`${init.method ?? "GET"} ${path} answered ${response.status}: ${await response.text().catch(() => "")}`);
    }
    return response;
  };
  const report = async (id: string, result: AdapterResult) => {
    log(`${id}: ${result.outcome}${result.error !== undefined ? ` (${result.error})` : ""}`);
    const posted = await call(RESULTS_PATH, { method: "POST", body: JSON.stringify({ case: id, result }) });
    await posted.body?.cancel();
  };

  const { cases } = (await (await call(CASES_PATH)).json()) as { cases: WireCase[] };
  const selected = options.only ? cases.filter((c) => options.only!.includes(c.id)) : cases;
  const runs: CaseRun[] = [];
  const limitOf = (ms: number) => Math.min(ms, options.caseTimeoutMs ?? Infinity);
  for (const c of selected) {
    const result = await runCase(`${base}${c.path}`, c.headers, c.body, c.stream, adapter, common, limitOf(c.timeoutMs), doFetch);
    await report(c.id, result);
    runs.push({ case: c.id, result });
    if (c.followUp) {
      const next = await followUp(base, c, c.followUp, result, adapter, common, limitOf(c.followUp.timeoutMs), doFetch);
      await report(c.followUp.id, next);
      runs.push({ case: c.followUp.id, result: next });
    }
  }
  return runs;
}

/**
 * The next turn after a case's calls: the same request again, plus the assistant message with
 * the calls as the client assembled them (arguments as the same strings, seed §3) and one tool
 * message per call, in call order.
 */
export function followUpBody(body: unknown, calls: readonly AssembledCall[], toolResult: string): Record<string, unknown> {
  const first = (body ?? {}) as { messages?: unknown[] };
  return {
    ...(body as Record<string, unknown>),
    messages: [
      ...(first.messages ?? []),
      {
        role: "assistant",
        content: null,
        tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
      },
      ...calls.map((c) => ({ role: "tool", tool_call_id: c.id, content: toolResult })),
    ],
  };
}

async function followUp(
  base: string,
  c: WireCase,
  next: WireFollowUp,
  first: AdapterResult,
  adapter: OpenaiChatAdapter,
  headers: Record<string, string>,
  limit: number,
  doFetch: typeof fetch,
): Promise<AdapterResult> {
  if (first.toolCalls.length === 0) {
    return { text: "", reasoning: "", toolCalls: [], finishReason: null, usage: null, outcome: "error", error: `no calls to answer: ${c.id} gave none` };
  }
  const body = followUpBody(c.body, first.toolCalls, next.toolResult);
  return runCase(`${base}${next.path}`, next.headers, body, c.stream, adapter, headers, limit, doFetch);
}

/** One request, then the adapter, both under one deadline. Never throws. */
async function runCase(
  url: string,
  caseHeaders: Record<string, string>,
  body: unknown,
  stream: boolean,
  adapter: OpenaiChatAdapter,
  headers: Record<string, string>,
  limit: number,
  doFetch: typeof fetch,
): Promise<AdapterResult> {
  const failed = (error: string): AdapterResult => ({ text: "", reasoning: "", toolCalls: [], finishReason: null, usage: null, outcome: "error", error });
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`no result within ${limit} ms`)), limit);
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  try {
    const response = await doFetch(url, {
      method: "POST",
      headers: { Accept: stream ? "text/event-stream" : "application/json", ...headers, ...caseHeaders },
      body: JSON.stringify(body),
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
