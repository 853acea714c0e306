/**
 * The openai-chat protocol: OpenAI Chat Completions tool calling as an OpenAI-compatible backend
 * must serve it to Continue's built-in tools (seed 001).
 */
import { defineProtocol } from "../../core/run/define-protocol.js";
import { OPENAI_CHAT_MOCK_NAMES } from "../../mocks/openai-chat/index.js";
import { OPENAI_CHAT_SERVER_CHECKS } from "./checks/index.js";
import { OPENAI_CHAT_CLIENT_CHECKS } from "./client/index.js";
import * as mock from "./mock.js";
import * as params from "./params.js";
import * as probes from "./probes.js";
import { OPENAI_CHAT_PROFILES } from "./profiles.js";

export { OPENAI_CHAT_SERVER_CHECKS } from "./checks/index.js";
export { OPENAI_CHAT_PROFILES } from "./profiles.js";
export { DEFAULT_PARAMS as OPENAI_CHAT_DEFAULT_PARAMS } from "./params.js";
export { runProbes as runOpenaiChatProbes } from "./probes.js";

export const openaiChat = defineProtocol({
  id: "openai-chat",
  title: "OpenAI Chat Completions tool calling for Continue's built-in tools",
  seed: "001_ba8f1763064c3ebc.txt",
  suite: { params, probes, mock, profiles: OPENAI_CHAT_PROFILES, checks: [OPENAI_CHAT_SERVER_CHECKS, OPENAI_CHAT_CLIENT_CHECKS], names: OPENAI_CHAT_MOCK_NAMES },
  auth: { token: "bearer", env: "OPENAI_API_KEY" },
  // A profile chooses the tool catalogue; the mock takes its example arguments from the same one.
  mockSettingsFor: (profile) => (typeof profile.params?.catalogue === "string" ? { catalogue: profile.params.catalogue } : {}),
  // The client gets the key a token-protected mock requires (--token), else any key.
  clientEnv: (url, mock) => {
    const key = mock?.settings?.apiKey;
    return { OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: typeof key === "string" ? key : "agentwire-test-key" };
  },
});
