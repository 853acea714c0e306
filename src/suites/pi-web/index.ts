/** The pi-web protocol: pi's coding-agent web mode over one WebSocket (seed 004). */
import type { ProtocolDef } from "../../core/protocol.js";
import { PI_WEB_FAULTS, PI_WEB_FRAMINGS, PI_WEB_SCENARIOS } from "../../mocks/pi-web/index.js";
import { PI_WEB_SERVER_CHECKS } from "./checks/index.js";
import { PI_WEB_CLIENT_CHECKS } from "./client/index.js";
import { DEFAULT_PORT, startMock } from "./mock.js";
import { DEFAULT_PARAMS, SELF_TEST } from "./params.js";
import { runProbes } from "./probes.js";
import { PI_WEB_PROFILES } from "./profiles.js";

export { PI_WEB_SERVER_CHECKS, PI_WEB_SERVER_ORDER } from "./checks/index.js";
export { PI_WEB_PROFILES, PI_FORK_054 } from "./profiles.js";
export { DEFAULT_PARAMS as PI_WEB_DEFAULT_PARAMS } from "./params.js";
export { runProbes as runPiWebProbes } from "./probes.js";
export { resolveTarget as resolvePiWebTarget } from "./probe-client.js";

export const piWeb: ProtocolDef = {
  id: "pi-web",
  title: "pi coding-agent web mode (WebSocket)",
  seed: "004_88f3c17269c3c25a.txt",
  checks: [...PI_WEB_SERVER_CHECKS, ...PI_WEB_CLIENT_CHECKS],
  scenarios: PI_WEB_SCENARIOS,
  faults: PI_WEB_FAULTS,
  framings: PI_WEB_FRAMINGS,
  profiles: PI_WEB_PROFILES,
  defaultPort: DEFAULT_PORT,
  defaultParams: { ...DEFAULT_PARAMS },
  // §1: the client gives up on a command after 30 s; 10 s to the 101 and to agent_start
  // (cmd/prompt-accepted); a minute of silence inside a run; 5 min per run; 2 s settle/close.
  timeouts: { request: 30_000, headers: 10_000, firstEvent: 10_000, idle: 60_000, stream: 300_000, close: 2_000 },
  selfTest: SELF_TEST,
  runProbes,
  startMock,
  auth: { token: "probes" },
  // The mock speaks the fork's wire under its profile (the profile names match the mock's).
  mockSettingsFor: (profile) => (profile.name === "default" ? {} : { profile: profile.name }),
  clientEnv: (url, mock) => {
    const token = mock?.settings?.token;
    // The example client (and any that follows it) adds PI_WEB_TOKEN as ?token=.
    return { PI_WEB_URL: `${url.replace(/^http/, "ws")}/ws`, ...(typeof token === "string" ? { PI_WEB_TOKEN: token } : {}) };
  },
};
