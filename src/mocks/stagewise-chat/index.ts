/**
 * The stagewise-chat reference mock: the kit's agent adapter playing the §6 scenarios, framings and §7 faults. The
 * msw handlers live in ./msw.js only (msw is an optional peer dependency).
 */
import { mockNames } from "../../core/mock/listing.js";
import { FAULTS } from "./faults.js";
import { STAGEWISE_FRAMINGS } from "./framing.js";
import { SCENARIOS } from "./scenarios.js";

export { createStagewiseEngine, type StagewiseEngine } from "./engine.js";
export { startStagewiseMock, type RunningStagewiseMock, type StagewiseStartOptions } from "./server.js";
export { resolveStagewiseOptions, type StagewiseMockOptions } from "./options.js";
export { DEFAULT_PACE, SELF_TEST_MOCK_PACE, STAGEWISE_DEFAULT_PORT, type Pace } from "./pace.js";
export type { StagewiseFault } from "./faults.js";

export const STAGEWISE_MOCK_NAMES = mockNames({ scenarios: SCENARIOS, faults: FAULTS, framings: STAGEWISE_FRAMINGS });
export const { scenarios: STAGEWISE_SCENARIOS, faults: STAGEWISE_FAULTS, framings: STAGEWISE_FRAMING_LIST } = STAGEWISE_MOCK_NAMES;
