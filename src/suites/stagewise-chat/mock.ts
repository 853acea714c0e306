/**
 * The reference mock as the kit starts it: quick as the suite's own target. Light on purpose:
 * `agentwire mock` imports this and not the checks.
 */
import type { MockStartOptions, RunningMock } from "../../core/protocol.js";
import { SELF_TEST_MOCK_PACE, STAGEWISE_DEFAULT_PORT } from "../../mocks/stagewise-chat/pace.js";
import { startStagewiseMock } from "../../mocks/stagewise-chat/server.js";

export const DEFAULT_PORT = STAGEWISE_DEFAULT_PORT;

export function startMock(opts: MockStartOptions): Promise<RunningMock> {
  // As the suite's own target the mock streams faster: the rules judge order and sequence, not speed.
  // As the suite's target it also takes the first free port from 5746, as a real agent does (wire/port-range).
  return startStagewiseMock(opts.suite ? { ...opts, port: STAGEWISE_DEFAULT_PORT, settings: { ...SELF_TEST_MOCK_PACE, ...opts.settings } } : opts);
}
