/**
 * Quick timing for tests that run a protocol's mock against a client: the mock's self-test pace
 * (the one `agentwire test` uses against its own mock) and a time scale on the waits the
 * robustness cases have by design (see src/core/client-cases/time-scale.ts). Verdicts are the
 * same as at full length: the case deadlines and the limits the checks derive from the waits
 * shrink with them. A test whose point is "the verdicts a CLI user gets" runs without these.
 */
import { SELF_TEST_MOCK_PACE as MCP_CHAT_PACE } from "../../src/suites/mcp-chat/params.js";
import { SELF_TEST_MOCK_PACE as OPENAI_CHAT_PACE } from "../../src/suites/openai-chat/params.js";
import { SELF_TEST_MOCK_PACE as PI_WEB_PACE } from "../../src/suites/pi-web/params.js";

/**
 * The factor on designed waits: a 5 s hold becomes 1.25 s, the 2 s after-[DONE] limit 500 ms.
 * Not smaller: a loaded machine must still tell a client that stops at [DONE] from one that waits.
 */
export const QUICK_TIME_SCALE = 0.25;

/** Mock settings for a quick client run, per protocol (merge a test's own settings over them). */
export const QUICK_MOCK_SETTINGS = {
  "mcp-chat": { ...MCP_CHAT_PACE, timeScale: QUICK_TIME_SCALE },
  "openai-chat": { ...OPENAI_CHAT_PACE, timeScale: QUICK_TIME_SCALE },
  "pi-web": { ...PI_WEB_PACE },
} as const;

/** `{settings}` for a mock started quick, with `extra` settings over the quick ones. */
export function quickMock(protocol: keyof typeof QUICK_MOCK_SETTINGS, extra: Record<string, unknown> = {}): { settings: Record<string, unknown> } {
  return { settings: { ...QUICK_MOCK_SETTINGS[protocol], ...extra } };
}
