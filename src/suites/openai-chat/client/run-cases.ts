/**
 * The whole client side of the robustness run, for clients that consume Chat Completions through
 * an adapter: fetch the kit's cases, send each request, read the response through the adapter
 * under a deadline, answer the tool loop's calls in a follow-up request built from what the adapter
 * assembled (seed §3), and report every result. Browser-safe (fetch only), so any client's own
 * test harness can call it with its own adapter.
 */
import { kitSession, runCaseRequest, type CaseRun as KitCaseRun, type RunCasesOptions as KitRunCasesOptions } from "../../../core/client-cases/run-cases.js";
import type { AdapterResult, AssembledCall, OpenaiChatAdapter } from "./adapters/types.js";
import type { WireCase, WireFollowUp } from "./cases.js";

export interface RunCasesOptions extends KitRunCasesOptions {
  /** The bearer key sent on every request (default "agentwire"). */
  apiKey?: string;
}

export type CaseRun = KitCaseRun<AdapterResult>;

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
  const common: Record<string, string> = {
    "Content-Type": "application/json",
    Authorization: `Bearer ${options.apiKey ?? "agentwire"}`,
    ...(options.headers ?? {}),
  };
  const kit = kitSession<AdapterResult>(base, common, options);
  const runs: CaseRun[] = [];
  for (const c of await kit.cases<WireCase>()) {
    const result = await runCase(`${base}${c.path}`, c.headers, c.body, c.stream, adapter, common, kit.limitOf(c.timeoutMs), kit.fetch);
    await kit.report(c.id, result);
    runs.push({ case: c.id, result });
    if (c.followUp) {
      const next = await followUp(base, c, c.followUp, result, adapter, common, kit.limitOf(c.followUp.timeoutMs), kit.fetch);
      await kit.report(c.followUp.id, next);
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
    return { text: "", toolCalls: [], outcome: "error", error: `no calls to answer: ${c.id} gave none` };
  }
  const body = followUpBody(c.body, first.toolCalls, next.toolResult);
  return runCase(`${base}${next.path}`, next.headers, body, c.stream, adapter, headers, limit, doFetch);
}

/** One request, then the adapter, both under one deadline. Never throws. */
function runCase(
  url: string,
  caseHeaders: Record<string, string>,
  body: unknown,
  stream: boolean,
  adapter: OpenaiChatAdapter,
  headers: Record<string, string>,
  limit: number,
  doFetch: typeof fetch,
): Promise<AdapterResult> {
  const init = {
    method: "POST",
    headers: { Accept: stream ? "text/event-stream" : "application/json", ...headers, ...caseHeaders },
    body: JSON.stringify(body),
  };
  return runCaseRequest(url, init, adapter, failed, limit, doFetch);
}

/** No response was read: nothing is known of reasoning, finish reason or usage, so they are left out. */
const failed = (error: string): AdapterResult => ({ text: "", toolCalls: [], outcome: "error", error });
