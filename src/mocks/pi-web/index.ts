/**
 * The pi-web reference mock. The msw handlers live in ./msw.js only: msw is an optional peer
 * dependency and must not be pulled in by this entry.
 */
import { mockNames, namedItems } from "../../core/mock/listing.js";
import type { NamedItem } from "../../core/run/protocol.js";
import { FAULTS } from "./faults.js";
import { FRAMINGS } from "./framing.js";
import { PROFILES } from "./profiles.js";
import { SCENARIOS } from "./scenarios.js";

export {
  createPiWebEngine,
  type PiWebEngine,
  type PiWebEngineState,
  type PiWebConnectInfo,
  type PiWebConnection,
  type PiWebHttpResponse,
  type UpgradeDecision,
} from "./engine.js";
export type { PiWebTransport } from "./connection.js";
export { startPiWebMock, type PiWebStartOptions } from "./server.js";
export {
  resolvePiWebOptions,
  originAllowList,
  DEFAULT_TIMING as PI_WEB_DEFAULT_TIMING,
  PI_WEB_DEFAULT_PORT,
  PI_WEB_WS_PATH,
  type PiWebMockOptions,
  type ResolvedPiWebOptions,
  type PiWebTiming,
} from "./options.js";
export type { WireFormat as PiWebWireFormat } from "./framing.js";
export type { PiWebProfile } from "./profiles.js";
export type { PiWebFault } from "./faults.js";
export type { PiWebHooks } from "./hooks.js";
export type { PiWebScenario } from "./scenarios.js";
export type { AgentMessage as PiWebAgentMessage } from "./types.js";
export { BUSY_ERROR as PI_WEB_BUSY_ERROR } from "./commands.js";

export const PI_WEB_MOCK_NAMES = mockNames({ scenarios: SCENARIOS, faults: FAULTS, framings: FRAMINGS });
export const { scenarios: PI_WEB_SCENARIOS, faults: PI_WEB_FAULTS, framings: PI_WEB_FRAMINGS } = PI_WEB_MOCK_NAMES;
export const PI_WEB_PROFILES: NamedItem[] = namedItems(PROFILES);
