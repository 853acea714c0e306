/**
 * The whole client side of the robustness run, for clients that consume streams through an
 * adapter: list servers, connect the first, fetch the kit's cases, run each through the adapter
 * with a deadline, and report each result. Browser-safe (fetch only), so a web frontend's test
 * harness can call it with its own adapter.
 */
import { kitSession, runCaseRequest, type CaseRun as KitCaseRun, type RunCasesOptions as KitRunCasesOptions } from "../../../core/client-cases/run-cases.js";
import type { AdapterResult, McpChatAdapter } from "./adapters/types.js";
import type { WireCase } from "./cases.js";

export type RunCasesOptions = KitRunCasesOptions;
export type CaseRun = KitCaseRun<AdapterResult>;

export async function runMcpChatCases(
  baseUrl: string,
  adapter: McpChatAdapter,
  options: RunCasesOptions = {},
): Promise<CaseRun[]> {
  const base = baseUrl.replace(/\/+$/, "");
  const json = { "Content-Type": "application/json", ...(options.headers ?? {}) };
  const kit = kitSession<AdapterResult>(base, json, options);

  const servers = (await (await kit.call("/servers")).json()) as { id?: unknown }[];
  const first = Array.isArray(servers) ? servers[0]?.id : undefined;
  if (typeof first !== "string") throw new Error("GET /servers listed no server to connect to");
  await kit.call(`/connect/${encodeURIComponent(first)}`, { method: "POST" });
  kit.log(`connected to ${first}`);

  const runs: CaseRun[] = [];
  for (const c of await kit.cases<WireCase>()) {
    const init = { method: c.method, headers: json, body: JSON.stringify(c.body) };
    const result = await runCaseRequest(`${base}${c.path}`, init, adapter, failed, kit.limitOf(c.timeoutMs), kit.fetch);
    await kit.report(c.id, result);
    runs.push({ case: c.id, result });
  }
  return runs;
}

const failed = (error: string): AdapterResult => ({ text: "", tools: [], outcome: "error", error });
