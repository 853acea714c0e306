/** The continue-remote reference mock: the §3 state machine behind the §1 routes, in both profiles. */
import { mockNames } from "../../core/mock/listing.js";
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

// The HTTP variants play the role of framings: how the same answers are put on the wire.
export const CONTINUE_REMOTE_MOCK_NAMES = mockNames({ scenarios: SCENARIOS, faults: FAULTS, framings: VARIANTS });
export const { scenarios: CONTINUE_REMOTE_SCENARIOS, faults: CONTINUE_REMOTE_FAULTS, framings: CONTINUE_REMOTE_VARIANTS } = CONTINUE_REMOTE_MOCK_NAMES;
