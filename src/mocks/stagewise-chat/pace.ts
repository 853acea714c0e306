/** The mock's pace (§6 knobs) and the quicker one it keeps as the suite's own target. Browser-safe. */
export interface Pace {
  /** sendMessage → the assistant's first update. */
  firstDelayMs: number;
  /** Between text deltas. */
  chunkDelayMs: number;
  /** Characters per text delta. */
  chunkSize: number;
}

export const DEFAULT_PACE: Pace = { firstDelayMs: 100, chunkDelayMs: 30, chunkSize: 8 };

/**
 * As the suite's own target the mock streams faster, yet a 200-character reply still spans more than the 100 ms
 * `chat/stream-incremental` asks for (13 deltas of 16, 10 ms apart).
 */
export const SELF_TEST_MOCK_PACE: Pace = { firstDelayMs: 10, chunkDelayMs: 10, chunkSize: 16 };

export const STAGEWISE_DEFAULT_PORT = 5746;
export const INFO_PATH = "/stagewise/info";
export const WS_PATH = "/stagewise/ws";
export const CONTROL_SCENARIO = "/__agentwire/scenario";
export const CONTROL_DROP = "/__agentwire/drop";
