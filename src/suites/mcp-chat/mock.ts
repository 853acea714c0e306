/**
 * The reference mock as the kit starts it: quick as the suite's own target, and serving the client
 * cases when it judges clients. Light on purpose: `agentwire mock` imports this and not the checks.
 */
import type { MockStartOptions, RunningMock } from "../../core/run/protocol.js";
import { MCP_CHAT_DEFAULT_PORT, startMcpChatMock } from "../../mocks/mcp-chat/server.js";
import { SELF_TEST_MOCK_PACE } from "./params.js";
import { TIME_SCALE_KEY, timeScaleOf } from "../../core/client-cases/time-scale.js";

export const DEFAULT_PORT = MCP_CHAT_DEFAULT_PORT;

export async function startMock(opts: MockStartOptions): Promise<RunningMock> {
  // The client cases (and their checks) load only when clients are judged.
  const timeScale = timeScaleOf(opts.settings?.[TIME_SCALE_KEY]);
  const routes = opts.bus ? (await import("./client/index.js")).createClientCaseRoutes(opts.bus, { timeScale }) : undefined;
  return startMcpChatMock({
    ...opts,
    // As the suite's own target the mock streams faster: the rules judge order and framing, not speed.
    ...(opts.suite ? { settings: { ...SELF_TEST_MOCK_PACE, ...opts.settings } } : {}),
    ...(routes ? { routes } : {}),
  });
}
