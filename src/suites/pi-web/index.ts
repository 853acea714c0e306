/** The pi-web protocol: pi's coding-agent web mode over one WebSocket (seed 004). */
import { defineProtocol } from "../../core/run/define-protocol.js";
import { PI_WEB_MOCK_NAMES } from "../../mocks/pi-web/index.js";
import { PI_WEB_SERVER_CHECKS } from "./checks/index.js";
import { PI_WEB_CLIENT_CHECKS } from "./client/index.js";
import * as mock from "./mock.js";
import * as params from "./params.js";
import * as probes from "./probes.js";
import { PI_WEB_PROFILES } from "./profiles.js";

export { PI_WEB_SERVER_CHECKS, PI_WEB_SERVER_ORDER } from "./checks/index.js";
export { PI_WEB_PROFILES, PI_FORK_054 } from "./profiles.js";
export { DEFAULT_PARAMS as PI_WEB_DEFAULT_PARAMS } from "./params.js";
export { runProbes as runPiWebProbes } from "./probes.js";
export { resolveTarget as resolvePiWebTarget } from "./probe-client.js";

export const piWeb = defineProtocol({
  id: "pi-web",
  title: "pi coding-agent web mode (WebSocket)",
  seed: "004_88f3c17269c3c25a.txt",
  suite: { params, probes, mock, profiles: PI_WEB_PROFILES, checks: [PI_WEB_SERVER_CHECKS, PI_WEB_CLIENT_CHECKS], names: PI_WEB_MOCK_NAMES },
  auth: { token: "probes" },
  // The mock speaks the fork's wire under its profile (the profile names match the mock's).
  mockSettingsFor: (profile) => (profile.name === "default" ? {} : { profile: profile.name }),
  clientEnv: (url, mock) => {
    const token = mock?.settings?.token;
    // The example client (and any that follows it) adds PI_WEB_TOKEN as ?token=.
    return { PI_WEB_URL: `${url.replace(/^http/, "ws")}/ws`, ...(typeof token === "string" ? { PI_WEB_TOKEN: token } : {}) };
  },
});
