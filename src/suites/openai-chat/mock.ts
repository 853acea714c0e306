/**
 * The reference mock as the kit starts it: quick as the suite's own target, guarded by a key the
 * runner is told, and serving the client cases when it judges clients. Light on purpose:
 * `agentwire mock` imports this and not the checks.
 */
import type { MockStartOptions, RunningMock } from "../../core/run/protocol.js";
import { OPENAI_CHAT_DEFAULT_PORT, startOpenaiChatMock } from "../../mocks/openai-chat/server.js";
import type { ContentOptions } from "./client/index.js";
import { SELF_TEST_MOCK_PACE } from "./params.js";
import { TIME_SCALE_KEY, timeScaleOf } from "../../core/client-cases/time-scale.js";

export const DEFAULT_PORT = OPENAI_CHAT_DEFAULT_PORT;

/** Mock settings that change what the mock says, for the client cases' expected results. */
const CONTENT_KEYS = ["catalogue", "models", "anyModel", "reasoningField", "httpError", "created"] as const;

function contentOf(opts: MockStartOptions): ContentOptions {
  const out: Record<string, unknown> = {};
  for (const k of CONTENT_KEYS) if (opts.settings?.[k] !== undefined) out[k] = opts.settings[k];
  if (opts.seed !== undefined) out.seed = opts.seed;
  return out as ContentOptions;
}

/**
 * Starts the reference mock. In client mode (a bus) it also serves the client module's case routes.
 * As the suite's embedded target it requires a random API key and reports it, so the runner sends
 * it and the auth probes run against the mock too; a key given as settings.apiKey is used the same way.
 */
export async function startMock(opts: MockStartOptions): Promise<RunningMock> {
  const given = typeof opts.settings?.apiKey === "string" ? opts.settings.apiKey : undefined;
  const apiKey = given ?? (opts.suite ? `agentwire-mock-key-${Math.random().toString(36).slice(2, 12)}` : undefined);
  const { suite: _suite, ...rest } = opts;
  // The client cases (and their checks) load only when clients are judged.
  const timeScale = timeScaleOf(opts.settings?.[TIME_SCALE_KEY]);
  const routes = opts.bus ? (await import("./client/index.js")).createClientCaseRoutes(opts.bus, { content: contentOf(opts), timeScale }) : undefined;
  const mock = await startOpenaiChatMock({
    ...rest,
    // As the suite's own target the mock streams faster: the rules judge shape and order, not speed.
    ...(opts.suite ? { settings: { ...SELF_TEST_MOCK_PACE, ...opts.settings } } : {}),
    ...(routes ? { routes } : {}),
    ...(apiKey && !given ? { apiKey } : {}),
  });
  return { ...mock, close: () => mock.close(), ...(apiKey ? { token: apiKey } : {}) };
}
