/**
 * The openai-chat reference mock. The msw handlers live in ./msw.js only: msw is an optional peer
 * dependency and must not be pulled in by this entry.
 */
import { mockNames } from "../../core/mock/listing.js";
import { FAULTS } from "./faults.js";
import { FRAMINGS } from "./framing.js";
import { SCENARIOS } from "./scenarios.js";

export { createOpenaiChatEngine, type OpenaiChatEngine } from "./engine.js";
export { startOpenaiChatMock, OPENAI_CHAT_DEFAULT_PORT, type OpenaiChatStartOptions } from "./server.js";
export {
  resolveOpenaiChatOptions,
  DEFAULT_MODELS as OPENAI_CHAT_DEFAULT_MODELS,
  type OpenaiChatMockOptions,
  type ResolvedOpenaiChatOptions,
} from "./options.js";
export { DEFAULT_PACING as OPENAI_CHAT_DEFAULT_PACING, type OpenaiChatPacing } from "./pacing.js";
export {
  OPENAI_CHAT_CATALOGUES,
  OPENAI_CHAT_CATALOGUE_TOOLS,
  DEFAULT_CATALOGUE as OPENAI_CHAT_DEFAULT_CATALOGUE,
  findCatalogue as findOpenaiChatCatalogue,
  kebabName as openaiChatToolKebabName,
  type Catalogue as OpenaiChatCatalogue,
  type CatalogueName as OpenaiChatCatalogueName,
  type CatalogueTool as OpenaiChatCatalogueTool,
  type ToolParameters as OpenaiChatToolParameters,
  type ToolPolicy as OpenaiChatToolPolicy,
} from "./catalogues.js";
export { parseScenarioScript as parseOpenaiChatScript, type ScenarioScript as OpenaiChatScript } from "./script.js";
export { parseDirectives as parseOpenaiChatDirectives } from "./directives.js";
export { toolScenarioName as openaiChatToolScenarioName } from "./scenarios.js";
export { HEADER_FAULT, HEADER_FRAMING, HEADER_SCENARIO } from "./engine.js";
export type { Answer as OpenaiChatAnswer, PlannedCall as OpenaiChatPlannedCall, FinishReason } from "./answer.js";
export type { EmittedCall as OpenaiChatEmittedCall } from "./state.js";
export type { Hooks as OpenaiChatHooks, StreamContext as OpenaiChatStreamContext } from "./hooks.js";
export type { Step as OpenaiChatStep } from "./steps.js";
export type { OpenaiChatFault } from "./faults.js";
export type { OpenaiChatFraming } from "./framing.js";
export type { OpenaiChatScenario } from "./scenarios.js";

export const OPENAI_CHAT_MOCK_NAMES = mockNames({ scenarios: SCENARIOS, faults: FAULTS, framings: FRAMINGS });
export const { scenarios: OPENAI_CHAT_SCENARIOS, faults: OPENAI_CHAT_FAULTS, framings: OPENAI_CHAT_FRAMINGS } = OPENAI_CHAT_MOCK_NAMES;
