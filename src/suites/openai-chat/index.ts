/**
 * The openai-chat protocol: OpenAI Chat Completions tool calling as an OpenAI-compatible backend
 * must serve it to Continue's built-in tools (seed 001).
 */
import type { ProtocolDef } from "../../core/protocol.js";
import { OPENAI_CHAT_FAULTS, OPENAI_CHAT_FRAMINGS, OPENAI_CHAT_SCENARIOS } from "../../mocks/openai-chat/index.js";
import { OPENAI_CHAT_SERVER_CHECKS } from "./checks/index.js";
import { OPENAI_CHAT_CLIENT_CHECKS } from "./client/index.js";
import { DEFAULT_PORT, startMock } from "./mock.js";
import { DEFAULT_PARAMS, SELF_TEST } from "./params.js";
import { runProbes } from "./probes.js";
import { OPENAI_CHAT_PROFILES } from "./profiles.js";

export { OPENAI_CHAT_SERVER_CHECKS } from "./checks/index.js";
export { OPENAI_CHAT_PROFILES } from "./profiles.js";
export { DEFAULT_PARAMS as OPENAI_CHAT_DEFAULT_PARAMS } from "./params.js";
export { runProbes as runOpenaiChatProbes } from "./probes.js";

export const openaiChat: ProtocolDef = {
  id: "openai-chat",
  title: "OpenAI Chat Completions tool calling for Continue's built-in tools",
  seed: "001_ba8f1763064c3ebc.txt",
  checks: [...OPENAI_CHAT_SERVER_CHECKS, ...OPENAI_CHAT_CLIENT_CHECKS],
  scenarios: OPENAI_CHAT_SCENARIOS,
  faults: OPENAI_CHAT_FAULTS,
  framings: OPENAI_CHAT_FRAMINGS,
  profiles: OPENAI_CHAT_PROFILES,
  defaultPort: DEFAULT_PORT,
  defaultParams: { ...DEFAULT_PARAMS },
  // §1: 10 s for /models and rejections, 60 s to headers, to the first chunk and between events,
  // 300 s per stream, 2 s from [DONE] to the end of the body.
  timeouts: { request: 10_000, headers: 60_000, firstEvent: 60_000, idle: 60_000, stream: 300_000, close: 2_000 },
  selfTest: SELF_TEST,
  runProbes,
  startMock,
  auth: { token: "bearer", env: "OPENAI_API_KEY" },
  // A profile chooses the tool catalogue; the mock takes its example arguments from the same one.
  mockSettingsFor: (profile) => (typeof profile.params?.catalogue === "string" ? { catalogue: profile.params.catalogue } : {}),
  clientEnv: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: "agentwire-test-key" }),
};
