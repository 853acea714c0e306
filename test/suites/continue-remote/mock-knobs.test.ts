/**
 * The kit's common mock knobs reach the continue-remote mock in its own terms: `--framing` picks
 * the HTTP variant, `--first-byte-ms` and `--chunk-delay-ms` the model's think and chunk times.
 */
import { describe, expect, it } from "vitest";
import { startMock } from "../../../src/suites/continue-remote/mock.js";

describe("continue-remote mock knobs", () => {
  it("--framing pretty serves indented JSON; without it the body is compact", async () => {
    for (const [framing, pretty] of [[undefined, false], ["pretty", true]] as const) {
      const mock = await startMock({ host: "127.0.0.1", port: 0, ...(framing ? { framing } : {}) });
      try {
        const text = await (await fetch(`${mock.url}/state`)).text();
        expect(text.includes('\n  "'), text).toBe(pretty);
      } finally {
        await mock.close();
      }
    }
  });

  it("--first-byte-ms and --chunk-delay-ms set the turn's pace: a quick turn is over in 600 ms, a slow think is not", async () => {
    // At the self-test's quick pace, with or without a long think on top.
    const busyAfter600 = async (firstByteMs?: number) => {
      const mock = await startMock({ host: "127.0.0.1", port: 0, suite: true, ...(firstByteMs !== undefined ? { firstByteMs } : {}), chunkDelayMs: 0 });
      try {
        await fetch(`${mock.url}/message`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "hello" }) });
        await new Promise((r) => setTimeout(r, 600));
        return ((await (await fetch(`${mock.url}/state`)).json()) as { isProcessing: boolean }).isProcessing;
      } finally {
        await mock.close();
      }
    };
    expect(await busyAfter600()).toBe(false);
    expect(await busyAfter600(3000)).toBe(true);
  });
});
