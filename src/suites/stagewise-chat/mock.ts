/**
 * The reference mock as the kit starts it: quick as the suite's own target. Light on purpose:
 * `agentwire mock` imports this and not the checks.
 */
import type { MockStartOptions, RunningMock } from "../../core/run/protocol.js";
import { SELF_TEST_MOCK_PACE, STAGEWISE_DEFAULT_PORT } from "../../mocks/stagewise-chat/pace.js";
import { startStagewiseMock } from "../../mocks/stagewise-chat/server.js";

export const DEFAULT_PORT = STAGEWISE_DEFAULT_PORT;

/** With a toolbar under test the mock pings after 1 s of silence, so trpc/keepalive-pong is judged in a short run. */
const CLIENT_TEST_PING_MS = 1_000;

export function startMock(opts: MockStartOptions): Promise<RunningMock> {
  // As the suite's own target the mock streams faster: the rules judge order and sequence, not speed.
  // As the suite's target it also takes the first free port from 5746, as a real agent does (wire/port-range).
  if (opts.suite) return startStagewiseMock({ ...opts, port: STAGEWISE_DEFAULT_PORT, settings: { ...SELF_TEST_MOCK_PACE, ...opts.settings } });
  return startStagewiseMock(opts.bus ? { ...opts, settings: { pingMs: CLIENT_TEST_PING_MS, ...opts.settings } } : opts);
}
