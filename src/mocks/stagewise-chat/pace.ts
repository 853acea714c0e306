/** The mock's pace (§6 knobs) and the quicker one it keeps as the suite's own target. Browser-safe. */
export interface Pace {
  /** sendMessage → the assistant's first update. */
  firstDelayMs: number;
  /** Between text deltas. */
  chunkDelayMs: number;
  /** Characters per text delta. */
  chunkSize: number;
  /** The server's keep-alive PING after this much client silence (§1: 30 000). */
  pingMs: number;
}

export const DEFAULT_PACE: Pace = { firstDelayMs: 100, chunkDelayMs: 30, chunkSize: 8, pingMs: 30_000 };

/**
 * As the suite's own target the mock streams faster, yet a 200-character reply still spans more than the 100 ms
 * `chat/stream-incremental` asks for (13 deltas of 16, 10 ms apart), and pings after 1 s of silence, so the
 * keep-alive is judged within the quick run's wait.
 */
export const SELF_TEST_MOCK_PACE: Pace = { firstDelayMs: 10, chunkDelayMs: 10, chunkSize: 16, pingMs: 1_000 };

export const STAGEWISE_DEFAULT_PORT = 5746;
export const INFO_PATH = "/stagewise/info";
export const WS_PATH = "/stagewise/ws";
export const CONTROL_SCENARIO = "/__agentwire/scenario";
export const CONTROL_DROP = "/__agentwire/drop";
