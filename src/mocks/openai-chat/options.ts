/**
 * Options of the openai-chat mock engine, their defaults, and up-front validation: a mock started
 * with an unknown scenario, fault, framing or catalogue must fail loudly instead of serving the
 * default.
 */
import type { TranscriptBus } from "../../core/transcript/transcript.js";
import { DEFAULT_CATALOGUE, findCatalogue, NO_CATALOGUE, OPENAI_CHAT_CATALOGUES, type CatalogueName } from "./catalogues.js";
import type { ReasoningField } from "./chunks.js";
import { FAULTS, findFault } from "./faults.js";
import { DEFAULT_FRAMING, findFraming, FRAMINGS } from "./framing.js";
import { PACING_KEYS, pacingProblem, type OpenaiChatPacing } from "./pacing.js";
import { DEFAULT_SCENARIO, findScenario, SCENARIOS } from "./scenarios.js";
import type { ScenarioScript } from "./script.js";
import { checkedSelection, mockNames } from "../../core/mock/names.js";
import { givenNumbers, optionFailure } from "../../core/mock/option-checks.js";
import { normalBasePath } from "../../core/mock/paths.js";
import { isTimeScale } from "../../core/client-cases/time-scale.js";

export interface OpenaiChatMockOptions extends Partial<OpenaiChatPacing> {
  /** Default scenario (auto). */
  scenario?: string;
  /** Faults active on every request. */
  faults?: string[];
  /** Default framing (canonical). */
  framing?: string;
  /** Seed of the random framing, the jitter and the random ids of faults (default 1). */
  seed?: number;
  /** Which catalogue gives example arguments and exclusive flags (default seed; none: no catalogue). */
  catalogue?: CatalogueName | "none";
  /** Model ids served (default agentwire-mock, gpt-4.1-agentwire). */
  models?: string[];
  /** Accept any model name instead of 404 model_not_found. */
  anyModel?: boolean;
  /** Require `Authorization: Bearer <apiKey>` (401 otherwise). Unset: any key, or none, is accepted. */
  apiKey?: string;
  /** Field of reasoning deltas (default reasoning_content). */
  reasoningField?: ReasoningField;
  /** Status of the http-error scenario (default 429). */
  httpError?: 429 | 500 | 503;
  /** Answer 400 to histories with orphan results, unanswered calls or duplicate ids (as OpenAI does). */
  rejectInvalidHistory?: boolean;
  /** Fixed `created` (seconds) of every completion; default: the request time. */
  created?: number;
  /** Scripted turns (the parsed form of a scenario file). */
  script?: ScenarioScript;
  /** Path prefix stripped before routing (e.g. "/openai" for http://host/openai/v1). */
  basePath?: string;
  /**
   * Factor on the waits scenarios, framings and faults impose (the slow scenario's late first
   * chunk, streams held open after [DONE]); default 1. Quick test runs shrink it.
   */
  timeScale?: number;
  /** Records client traffic as http-request / http-response events (probe "client"). */
  bus?: TranscriptBus;
  /** Extension point consulted before the normal routes (e.g. /__agentwire/* endpoints); not recorded. */
  routes?: (request: Request) => Promise<Response | undefined>;
}

export interface ResolvedOpenaiChatOptions {
  scenario: string;
  faults: string[];
  framing: string;
  seed: number;
  catalogue: CatalogueName | "none";
  models: string[];
  anyModel: boolean;
  apiKey?: string;
  reasoningField: ReasoningField;
  httpError: 429 | 500 | 503;
  rejectInvalidHistory: boolean;
  created?: number;
  script?: ScenarioScript;
  basePath: string;
  timeScale: number;
  /** Only the pacing knobs given explicitly (defaults live in pacing.ts). */
  pacing: Partial<OpenaiChatPacing>;
  bus?: TranscriptBus;
  routes?: (request: Request) => Promise<Response | undefined>;
}

export const DEFAULT_MODELS = ["agentwire-mock", "gpt-4.1-agentwire"];

const fail = optionFailure("openai-chat");

/** Validates a scenario script (`parseScenarioScript` of script.ts, which loads zod). */
export type ScriptParser = (value: unknown) => ScenarioScript;

/**
 * Fills defaults and checks every name and number; throws an Error naming what is wrong. A script
 * is checked with `parseScript`, which a caller that may pass one gives (engine.ts does).
 */
export function resolveOpenaiChatOptions(options: OpenaiChatMockOptions = {}, parseScript?: ScriptParser): ResolvedOpenaiChatOptions {
  const pacing: Partial<OpenaiChatPacing> = givenNumbers(PACING_KEYS, options, pacingProblem, fail);
  const { scenario, framing, faults } = checkedSelection(NAMES, options, { scenario: DEFAULT_SCENARIO, framing: DEFAULT_FRAMING });
  const catalogue = options.catalogue ?? DEFAULT_CATALOGUE;
  checkName("catalogue", catalogue);
  const models = options.models ?? [...DEFAULT_MODELS];
  if (!Array.isArray(models) || models.length === 0 || models.some((m) => typeof m !== "string" || m === "")) {
    fail("models must be a non-empty list of non-empty model ids");
  }
  const reasoningField = options.reasoningField ?? "reasoning_content";
  if (reasoningField !== "reasoning_content" && reasoningField !== "reasoning") {
    fail(`reasoningField must be "reasoning_content" or "reasoning", got "${String(reasoningField)}"`);
  }
  const httpError = options.httpError ?? 429;
  if (![429, 500, 503].includes(httpError)) fail(`httpError must be 429, 500 or 503, got ${String(httpError)}`);
  if (options.apiKey !== undefined && (typeof options.apiKey !== "string" || options.apiKey === "")) {
    fail("apiKey must be a non-empty string");
  }
  if (options.created !== undefined && !(Number.isInteger(options.created) && options.created >= 0)) {
    fail(`created must be an integer number of seconds, got ${String(options.created)}`);
  }
  if (options.timeScale !== undefined && !isTimeScale(options.timeScale)) fail(`timeScale must be a number > 0, got ${String(options.timeScale)}`);
  const seed = options.seed ?? 1;
  if (!Number.isFinite(seed)) fail(`seed must be a number, got ${String(seed)}`);
  return {
    scenario,
    faults,
    framing,
    seed,
    catalogue,
    models: [...models],
    anyModel: options.anyModel ?? false,
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    reasoningField,
    httpError,
    rejectInvalidHistory: options.rejectInvalidHistory ?? false,
    ...(options.created !== undefined ? { created: options.created } : {}),
    ...(options.script !== undefined ? { script: checkedScript(options.script, parseScript) } : {}),
    basePath: normalBasePath(options.basePath),
    timeScale: options.timeScale ?? 1,
    pacing,
    ...(options.bus ? { bus: options.bus } : {}),
    ...(options.routes ? { routes: options.routes } : {}),
  };
}

export type NameKind = "scenario" | "framing" | "fault" | "catalogue";

const NAMES = mockNames<NameKind>("openai-chat", {
  scenario: { find: findScenario, all: SCENARIOS },
  framing: { find: findFraming, all: FRAMINGS },
  fault: { find: findFault, all: FAULTS },
  catalogue: { find: (n) => (n === NO_CATALOGUE.name ? NO_CATALOGUE : findCatalogue(n)), all: [...OPENAI_CHAT_CATALOGUES, NO_CATALOGUE] },
});

export const { unknownNameMessage } = NAMES;
const { checkName } = NAMES;

function checkedScript(script: unknown, parseScript: ScriptParser | undefined): ScenarioScript {
  // Only a caller that cannot pass a script leaves the validator out.
  if (!parseScript) throw new Error("openai-chat mock: a scenario script was given without its validator");
  return parseScript(script);
}
