/**
 * The openai-chat protocol: OpenAI Chat Completions tool calling as an OpenAI-compatible backend
 * must serve it to Continue's built-in tools (seed 001).
 */
import type { MockStartOptions, ProtocolDef, RunningMock } from "../../core/protocol.js";
import { OPENAI_CHAT_FAULTS, OPENAI_CHAT_FRAMINGS, OPENAI_CHAT_SCENARIOS, startOpenaiChatMock } from "../../mocks/openai-chat/index.js";
import { OPENAI_CHAT_SERVER_CHECKS } from "./checks/index.js";
import { createClientCaseRoutes, OPENAI_CHAT_CLIENT_CHECKS, type ContentOptions } from "./client/index.js";
import { DEFAULT_PARAMS, SELF_TEST, SELF_TEST_MOCK_PACE } from "./params.js";
import { runProbes } from "./probes.js";
import { OPENAI_CHAT_PROFILES } from "./profiles.js";

export { OPENAI_CHAT_SERVER_CHECKS } from "./checks/index.js";
export { OPENAI_CHAT_PROFILES } from "./profiles.js";
export { DEFAULT_PARAMS as OPENAI_CHAT_DEFAULT_PARAMS } from "./params.js";
export { runProbes as runOpenaiChatProbes } from "./probes.js";

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
async function startMock(opts: MockStartOptions): Promise<RunningMock> {
  const given = typeof opts.settings?.apiKey === "string" ? opts.settings.apiKey : undefined;
  const apiKey = given ?? (opts.suite ? `agentwire-mock-key-${Math.random().toString(36).slice(2, 12)}` : undefined);
  const { suite: _suite, ...rest } = opts;
  const mock = await startOpenaiChatMock({
    ...rest,
    // As the suite's own target the mock streams faster: the rules judge shape and order, not speed.
    ...(opts.suite ? { settings: { ...SELF_TEST_MOCK_PACE, ...opts.settings } } : {}),
    ...(opts.bus ? { routes: createClientCaseRoutes(opts.bus, { content: contentOf(opts) }) } : {}),
    ...(apiKey && !given ? { apiKey } : {}),
  });
  return { url: mock.url, close: () => mock.close(), ...(apiKey ? { token: apiKey } : {}) };
}

export const openaiChat: ProtocolDef = {
  id: "openai-chat",
  title: "OpenAI Chat Completions tool calling for Continue's built-in tools",
  seed: "001_ba8f1763064c3ebc.txt",
  checks: [...OPENAI_CHAT_SERVER_CHECKS, ...OPENAI_CHAT_CLIENT_CHECKS],
  scenarios: OPENAI_CHAT_SCENARIOS,
  faults: OPENAI_CHAT_FAULTS,
  framings: OPENAI_CHAT_FRAMINGS,
  profiles: OPENAI_CHAT_PROFILES,
  defaultPort: 8000,
  defaultParams: { ...DEFAULT_PARAMS },
  // §1: 10 s for /models and rejections, 60 s to headers, to the first chunk and between events,
  // 300 s per stream, 2 s from [DONE] to the end of the body.
  timeouts: { request: 10_000, headers: 60_000, firstEvent: 60_000, idle: 60_000, stream: 300_000, close: 2_000 },
  selfTest: SELF_TEST,
  runProbes,
  startMock,
  auth: { token: "bearer", env: "OPENAI_API_KEY" },
  clientEnv: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: "agentwire-test-key" }),
};
