/**
 * The reference mock as the kit starts it: quick as the suite's own target. Light on purpose:
 * `agentwire mock` imports this and not the checks.
 */
import type { MockStartOptions, RunningMock } from "../../core/run/protocol.js";
import { PI_WEB_DEFAULT_PORT } from "../../mocks/pi-web/options.js";
import { startPiWebMock } from "../../mocks/pi-web/server.js";
import { SELF_TEST_MOCK_PACE } from "./params.js";

export const DEFAULT_PORT = PI_WEB_DEFAULT_PORT;

export function startMock(opts: MockStartOptions): Promise<RunningMock> {
  // As the suite's own target the mock streams faster: the rules judge order and nesting, not speed.
  return startPiWebMock(opts.suite ? { ...opts, settings: { ...SELF_TEST_MOCK_PACE, ...opts.settings } } : opts);
}
