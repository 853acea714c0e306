/**
 * The reference mock as the kit starts it: quick as the suite's own target, and playing the
 * generation the run judges (see selfTestMockFor). Light on purpose: `agentwire mock` imports this and not the checks.
 */
import type { MockStartOptions, RunningMock } from "../../core/run/protocol.js";
import { mockNames } from "../../core/mock/names.js";
import { findScenario, SCENARIOS } from "../../mocks/continue-remote/scenarios.js";
import { CONTINUE_REMOTE_DEFAULT_PORT, startContinueRemoteMock } from "../../mocks/continue-remote/server.js";
import { isVariant, VARIANTS } from "../../mocks/continue-remote/variants.js";
import { SELF_TEST_MOCK_PACE } from "./params.js";

export const DEFAULT_PORT = CONTINUE_REMOTE_DEFAULT_PORT;

/** The kit's names for the mock's own (a framing is an HTTP variant), refused in the words every mock uses. */
const NAMES = mockNames<"scenario" | "framing">("continue-remote", {
  scenario: { find: findScenario, all: SCENARIOS },
  framing: { find: isVariant, all: VARIANTS },
});

export async function startMock(opts: MockStartOptions): Promise<RunningMock> {
  if (opts.scenario !== undefined) NAMES.checkName("scenario", opts.scenario);
  if (opts.framing !== undefined) NAMES.checkName("framing", opts.framing);
  const settings: Record<string, unknown> = {
    // As the suite's own target the mock runs its turns faster: the rules judge order, not speed.
    ...(opts.suite ? SELF_TEST_MOCK_PACE : {}),
    ...(opts.scenario ? { defaultScenario: opts.scenario } : {}),
    // The kit's common knobs in this mock's terms: an HTTP variant is its framing, the first-byte
    // delay the model's think time, the chunk delay the time between two streamed chunks.
    ...(opts.framing ? { variant: opts.framing } : {}),
    ...(opts.firstByteMs !== undefined ? { thinkMs: opts.firstByteMs } : {}),
    ...(opts.chunkDelayMs !== undefined ? { chunkMs: opts.chunkDelayMs } : {}),
    ...opts.settings,
  };
  return startContinueRemoteMock({
    // Judging clients: the mock records their traffic on the run's bus.
    ...(opts.bus ? { bus: opts.bus } : {}),
    ...(opts.host !== undefined ? { host: opts.host } : {}),
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(opts.faults?.length ? { faults: opts.faults } : {}),
    settings,
  });
}
