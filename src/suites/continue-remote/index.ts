/** The continue-remote protocol: the Continue CLI's polled remote-server API (`cn serve`, seed 000). */
import { defineProtocol } from "../../core/run/define-protocol.js";
import { CONTINUE_REMOTE_MOCK_NAMES } from "../../mocks/continue-remote/index.js";
import { CONTINUE_REMOTE_SERVER_CHECKS } from "./checks/index.js";
import { CONTINUE_REMOTE_CLIENT_CHECKS } from "./client/index.js";
import * as mock from "./mock.js";
import * as params from "./params.js";
import * as probes from "./probes.js";
import { CONTINUE_REMOTE_PROFILES } from "./profiles.js";

export { CONTINUE_REMOTE_SERVER_CHECKS } from "./checks/index.js";
export { CONTINUE_REMOTE_CLIENT_CHECKS } from "./client/index.js";
export { CONTINUE_REMOTE_PROFILES, CN_SESSION, SEED_PROFILE } from "./profiles.js";
export { DEFAULT_PARAMS as CONTINUE_REMOTE_DEFAULT_PARAMS } from "./params.js";
export { runProbes as runContinueRemoteProbes } from "./probes.js";

export const continueRemote = defineProtocol({
  id: "continue-remote",
  title: "Continue CLI remote server (cn serve) polled API",
  seed: "000_7e761de32b24bfaa.txt",
  suite: { params, probes, mock, profiles: CONTINUE_REMOTE_PROFILES, checks: [CONTINUE_REMOTE_SERVER_CHECKS, CONTINUE_REMOTE_CLIENT_CHECKS], names: CONTINUE_REMOTE_MOCK_NAMES },
  // The mock plays either generation; `seed` is its default.
  mockSettingsFor: (profile) => (profile.name === "default" ? {} : { profile: profile.name }),
  // `agentwire test continue-remote --profile cn-session` judges the mock speaking that generation.
  selfTestMockFor: (profile) => (profile.name === "cn-session" ? { profile: "cn-session" } : {}),
  // The example client reads them (examples/continue-remote-client.mjs), besides AGENTWIRE_URL; the
  // token the mock requires (--token) goes as a Bearer token.
  clientEnv: (url, mock) => {
    const token = mock?.settings?.token;
    return { CONTINUE_REMOTE_URL: url, ...(typeof token === "string" ? { CONTINUE_REMOTE_TOKEN: token } : {}) };
  },
});
