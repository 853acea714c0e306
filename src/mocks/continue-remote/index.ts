/** The continue-remote reference mock: the §3 state machine behind the §1 routes, in both profiles. */
import { faultInfos } from "../../core/mock/listing.js";
import type { FaultInfo, NamedItem } from "../../core/protocol.js";
import { FAULTS } from "./faults.js";
import { SCENARIOS } from "./scenarios.js";
import { VARIANTS } from "./variants.js";

export { createContinueRemoteEngine, type ContinueRemoteEngine, type TranscriptEntry } from "./engine.js";
export {
  startContinueRemoteMock,
  CONTINUE_REMOTE_DEFAULT_PORT,
  type ContinueRemoteStartOptions,
  type RunningContinueRemoteMock,
} from "./server.js";
export {
  resolveContinueRemoteOptions,
  DEFAULT_PACING as CONTINUE_REMOTE_DEFAULT_PACING,
  type ContinueRemoteMockOptions,
  type ContinueRemoteProfile,
  type ContinueRemoteClock,
  type ContinueRemotePacing,
  type ResolvedContinueRemoteOptions,
} from "./options.js";
export { ContinueRemoteMachine, SESSION_ID as CONTINUE_REMOTE_SESSION_ID } from "./machine.js";
export type { ContinueRemoteScenario } from "./scenarios.js";
export type { ContinueRemoteFault } from "./faults.js";
export type { ContinueRemoteHooks } from "./hooks.js";
export type { ContinueRemoteVariant } from "./variants.js";

export const CONTINUE_REMOTE_SCENARIOS: NamedItem[] = SCENARIOS.map(({ name, description }) => ({ name, description }));
export const CONTINUE_REMOTE_FAULTS: FaultInfo[] = faultInfos(FAULTS);
export const CONTINUE_REMOTE_VARIANTS: NamedItem[] = VARIANTS.map(({ name, description }) => ({ name, description }));
