/** Library entry: run suites, start mocks, validate messages. */
import { findProtocol, PROTOCOLS } from "./protocols.js";
import { runSuite as runProtocolSuite, type SuiteOptions, UsageError } from "./core/run/runner.js";
import type { MockStartOptions, RunningMock } from "./core/run/protocol.js";
import { registry, type ValidationResult } from "./core/schemas/schema-registry.js";
import type { RunResult } from "./core/verdicts/result.js";

function protocol(id: string) {
  const p = findProtocol(id);
  if (!p) throw new UsageError(`unknown protocol "${id}"; implemented: ${PROTOCOLS.map((x) => x.id).join(", ")}`);
  return p;
}

/** Runs a protocol's server-side suite against `options.url`, or its built-in mock when absent. */
export function runSuite(id: string, options: SuiteOptions = {}): Promise<RunResult> {
  return runProtocolSuite(protocol(id), options);
}

/** Starts a protocol's reference mock (127.0.0.1, the protocol's default port unless given). */
export function startMock(id: string, options: MockStartOptions = {}): Promise<RunningMock> {
  const p = protocol(id);
  return p.startMock({ port: p.defaultPort, ...options });
}

/** Validates a message against the protocol's schema; errors carry JSON pointers. */
export function validate(id: string, message: string, value: unknown, profile = "default"): ValidationResult {
  return registry.validate(id, message, value, profile);
}

export { PROTOCOLS, UsageError };
export type { SuiteOptions, RunResult, MockStartOptions, RunningMock, ValidationResult };
export type { CheckDef, CheckContext, Outcome, Verdict, Level, Side } from "./core/checks/check.js";
export type { TranscriptEvent } from "./core/transcript/transcript.js";
export { runClientTest, startClientSession } from "./core/run/runner.js";

/** Re-judges a transcript saved with --save-transcript (`agentwire replay`): the live run's verdicts. */
export async function replayTranscript(text: string, options: { file: string; protocol?: string } & Omit<SuiteOptions, "url">): Promise<RunResult> {
  const { readTranscript } = await import("./core/transcript/transcript.js");
  const { replayTranscript: replay } = await import("./core/run/runner.js");
  const id = readTranscript(text).header?.protocol ?? options.protocol;
  if (!id) throw new UsageError(`${options.file} has no header saying which protocol it was recorded with; give options.protocol`);
  return replay(protocol(id), text, options);
}
export { formatReport } from "./core/reporters/index.js";
export { startProxy, type ProxyOptions, type RunningProxy, type ProxyResult } from "./proxy/index.js";
