/**
 * Options of the stagewise-chat mock, their defaults, and up-front validation: an unknown scenario, fault or
 * framing, or a bad knob, fails loudly (naming the valid values) instead of serving the default. Browser-safe.
 */
import { checkedSelection, mockNames } from "../../core/mock/names.js";
import { givenNumbers, nonNegativeProblem, optionFailure } from "../../core/mock/option-checks.js";
import { FAULTS, findFault } from "./faults.js";
import { DEFAULT_FRAMING, findFraming, STAGEWISE_FRAMINGS } from "./framing.js";
import { DEFAULT_PACE, type Pace } from "./pace.js";
import { DEFAULT_SCENARIO, findScenario, SCENARIOS } from "./scenarios.js";

export interface StagewiseMockOptions extends Partial<Pace> {
  scenario?: string;
  faults?: string[];
  framing?: string;
}

export interface ResolvedStagewiseOptions extends Pace {
  scenario: string;
  faults: string[];
  framing: string;
}

export const fail = optionFailure("stagewise-chat");

export const NAMES = mockNames<"scenario" | "framing" | "fault">("stagewise-chat", {
  scenario: { find: findScenario, all: SCENARIOS },
  framing: { find: findFraming, all: STAGEWISE_FRAMINGS },
  fault: { find: findFault, all: FAULTS },
});

const PACE_KEYS = Object.keys(DEFAULT_PACE) as (keyof Pace)[];

export function resolveStagewiseOptions(options: StagewiseMockOptions = {}): ResolvedStagewiseOptions {
  const pace = { ...DEFAULT_PACE, ...givenNumbers(PACE_KEYS, options, nonNegativeProblem(), fail) };
  if (!Number.isInteger(pace.chunkSize) || pace.chunkSize < 1) fail(`chunkSize must be an integer >= 1, got ${pace.chunkSize}`);
  if (pace.pingMs < 100) fail(`pingMs must be at least 100, got ${pace.pingMs}`);
  const selection = checkedSelection(NAMES, options, { scenario: DEFAULT_SCENARIO, framing: DEFAULT_FRAMING });
  return { ...pace, ...selection };
}
