/** The continue-remote protocol: the Continue CLI's polled remote-server API (`cn serve`, seed 000). */
import type { ProtocolDef } from "../../core/protocol.js";
import { CONTINUE_REMOTE_FAULTS, CONTINUE_REMOTE_SCENARIOS, CONTINUE_REMOTE_VARIANTS } from "../../mocks/continue-remote/index.js";
import { CONTINUE_REMOTE_SERVER_CHECKS } from "./checks/index.js";
import { CONTINUE_REMOTE_CLIENT_CHECKS } from "./client/index.js";
import { DEFAULT_PORT, startMock } from "./mock.js";
import { DEFAULT_PARAMS, SELF_TEST } from "./params.js";
import { runProbes } from "./probes.js";
import { CONTINUE_REMOTE_PROFILES } from "./profiles.js";

export { CONTINUE_REMOTE_SERVER_CHECKS } from "./checks/index.js";
export { CONTINUE_REMOTE_CLIENT_CHECKS } from "./client/index.js";
export { CONTINUE_REMOTE_PROFILES, CN_SESSION, SEED_PROFILE } from "./profiles.js";
export { DEFAULT_PARAMS as CONTINUE_REMOTE_DEFAULT_PARAMS } from "./params.js";
export { runProbes as runContinueRemoteProbes } from "./probes.js";

export const continueRemote: ProtocolDef = {
  id: "continue-remote",
  title: "Continue CLI remote server (cn serve) polled API",
  seed: "000_7e761de32b24bfaa.txt",
  checks: [...CONTINUE_REMOTE_SERVER_CHECKS, ...CONTINUE_REMOTE_CLIENT_CHECKS],
  scenarios: CONTINUE_REMOTE_SCENARIOS,
  faults: CONTINUE_REMOTE_FAULTS,
  // The HTTP variants play the role of framings: how the same answers are put on the wire.
  framings: CONTINUE_REMOTE_VARIANTS,
  profiles: CONTINUE_REMOTE_PROFILES,
  defaultPort: DEFAULT_PORT,
  defaultParams: { ...DEFAULT_PARAMS },
  // §1 Kit timing: a 10 s request timeout; the turn timeout is the turnTimeoutMs parameter.
  timeouts: { request: 10_000, headers: 10_000, firstEvent: 10_000, idle: 10_000, stream: 120_000, close: 2_000 },
  selfTest: SELF_TEST,
  runProbes,
  startMock,
  // The mock plays either generation; `seed` is its default.
  mockSettingsFor: (profile) => (profile.name === "default" ? {} : { profile: profile.name }),
  // `agentwire test continue-remote --profile cn-session` judges the mock speaking that generation.
  selfTestMockFor: (profile) => (profile.name === "cn-session" ? { profile: "cn-session" } : {}),
  // The example client reads it (examples/continue-remote-client.mjs), besides AGENTWIRE_URL.
  clientEnv: (url) => ({ CONTINUE_REMOTE_URL: url }),
};
