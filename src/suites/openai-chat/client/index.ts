/**
 * The client side of openai-chat: checks that judge a client from what it sent the mock and from
 * what its adapter reported, the kit endpoints that hand out the robustness cases, and the
 * adapters themselves.
 */
export { OPENAI_CHAT_CLIENT_CHECKS } from "./checks.js";
export { TRAFFIC_CHECKS, CLIENT_PROBE, isCompletionRequest } from "./traffic-checks.js";
export { PARSE_CHECKS, NO_RESULTS_REASON } from "./parse-checks.js";
export { createClientCaseRoutes, type CaseRoutes, type CaseRoutesOptions } from "./routes.js";
export {
  CLIENT_CASES,
  QUIRKS,
  CASES_PATH,
  RESULTS_PATH,
  EXPECTED_NOTE,
  FAULT_HEADER,
  casesFor,
  findCase,
  toWireCase,
  wireCases,
  type ClientCase,
  type ParseCheck,
  type WireCase,
  type WireFollowUp,
} from "./cases.js";
export { expectedResult, type ContentOptions, type Expectation, type RecordedRequest } from "./expected.js";
export { diffResults, parseAdapterResult, summariseResult, unreportedFields, type DiffOptions, type ResultField } from "./compare.js";
export { emittedCallsOf, type EmittedCall } from "./emitted.js";
export { runOpenaiChatCases, followUpBody, apiBase, type CaseRun, type RunCasesOptions } from "./run-cases.js";
export {
  openaiChatAdapters,
  createSpecAdapter,
  ChatFold,
  type AdapterResult,
  type AssembledCall,
  type AdapterUsage,
  type OpenaiChatAdapter,
} from "./adapters/index.js";
