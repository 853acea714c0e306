/** The stagewise-chat protocol: the stagewise toolbar ↔ agent interface with the chat capability (seed 003). */
import type { ProtocolDef } from "../../core/protocol.js";
import { STAGEWISE_SERVER_CHECKS } from "./checks/index.js";
import { STAGEWISE_CHAT_CLIENT_CHECKS } from "./client/index.js";
import { STAGEWISE_FAULTS, STAGEWISE_FRAMING_LIST, STAGEWISE_SCENARIOS } from "../../mocks/stagewise-chat/index.js";
import { DEFAULT_PORT, startMock } from "./mock.js";
import { DEFAULT_PARAMS, SELF_TEST } from "./params.js";
import { runProbes } from "./probes.js";
import { STAGEWISE_PROFILES } from "./profiles.js";

export { STAGEWISE_SERVER_CHECKS, STAGEWISE_SERVER_ORDER } from "./checks/index.js";
export { STAGEWISE_PROFILES } from "./profiles.js";
export { DEFAULT_PARAMS as STAGEWISE_DEFAULT_PARAMS } from "./params.js";
export { runProbes as runStagewiseProbes } from "./probes.js";

export const stagewiseChat: ProtocolDef = {
  id: "stagewise-chat",
  title: "stagewise agent interface with chat (tRPC over WebSocket)",
  seed: "003_69c02258757d0ed3.txt",
  checks: [...STAGEWISE_SERVER_CHECKS, ...STAGEWISE_CHAT_CLIENT_CHECKS],
  scenarios: STAGEWISE_SCENARIOS,
  faults: STAGEWISE_FAULTS,
  framings: STAGEWISE_FRAMING_LIST,
  profiles: STAGEWISE_PROFILES,
  defaultPort: DEFAULT_PORT,
  defaultParams: { ...DEFAULT_PARAMS },
  // §1: discovery answers within 2 s; the kit gives a mutation 10 s (trpc/mutation-answered); a
  // minute for a behaviour the probes asked for (§4); 2 s settle/close.
  timeouts: { request: 10_000, headers: 5_000, firstEvent: 10_000, idle: 60_000, stream: 120_000, close: 2_000 },
  selfTest: SELF_TEST,
  runProbes,
  startMock,
  auth: { token: "probes" },
  // The agent's origin: a toolbar asks discovery there and opens the socket on its WS path.
  clientEnv: (url) => ({ STAGEWISE_URL: url }),
};
