/** The proxy adapters by protocol id, each imported on first use. */
import type { ProxyAdapter } from "./adapter.js";

const ADAPTERS: Record<string, () => Promise<ProxyAdapter>> = {
  "mcp-chat": async () => (await import("../suites/mcp-chat/proxy.js")).mcpChatProxy,
  "openai-chat": async () => (await import("../suites/openai-chat/proxy.js")).openaiChatProxy,
  "pi-web": async () => (await import("../suites/pi-web/proxy.js")).piWebProxy,
  // A function: its classifier keeps per-proxy state (which subscription came first).
  "stagewise-chat": async () => (await import("../suites/stagewise-chat/proxy.js")).stagewiseChatProxy(),
  "continue-remote": async () => (await import("../suites/continue-remote/proxy.js")).continueRemoteProxy,
};

export const PROXIED_IDS = Object.keys(ADAPTERS);

export function loadProxyAdapter(id: string): Promise<ProxyAdapter> | undefined {
  return ADAPTERS[id]?.();
}
