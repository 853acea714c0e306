/** The stagewise-chat protocol: the stagewise toolbar ↔ agent interface with the chat capability (seed 003). */
import { defineProtocol } from "../../core/run/define-protocol.js";
import { STAGEWISE_SERVER_CHECKS } from "./checks/index.js";
import { STAGEWISE_CHAT_CLIENT_CHECKS } from "./client/index.js";
import { STAGEWISE_MOCK_NAMES } from "../../mocks/stagewise-chat/index.js";
import * as mock from "./mock.js";
import * as params from "./params.js";
import * as probes from "./probes.js";
import { STAGEWISE_PROFILES } from "./profiles.js";

export { STAGEWISE_SERVER_CHECKS, STAGEWISE_SERVER_ORDER } from "./checks/index.js";
export { STAGEWISE_PROFILES } from "./profiles.js";
export { DEFAULT_PARAMS as STAGEWISE_DEFAULT_PARAMS } from "./params.js";
export { runProbes as runStagewiseProbes } from "./probes.js";

export const stagewiseChat = defineProtocol({
  id: "stagewise-chat",
  title: "stagewise agent interface with chat (tRPC over WebSocket)",
  seed: "003_69c02258757d0ed3.txt",
  suite: { params, probes, mock, profiles: STAGEWISE_PROFILES, checks: [STAGEWISE_SERVER_CHECKS, STAGEWISE_CHAT_CLIENT_CHECKS], names: STAGEWISE_MOCK_NAMES },
  auth: { token: "probes" },
  // The agent's origin: a toolbar asks discovery there and opens the socket on its WS path.
  clientEnv: (url) => ({ STAGEWISE_URL: url }),
});
