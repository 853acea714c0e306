/**
 * A delay knob longer than a timer can wait (2^31 − 1 ms) would fire after 1 ms, with a warning per
 * event: every mock refuses one, from its options, its settings and the command line, and a sum or
 * product of knobs that passes the limit still waits as long as a timer can.
 */
import { describe, expect, it } from "vitest";
import { MAX_DELAY_MS, sleep, timerMs } from "../../src/core/mock/timing.js";
import { MockOptionError } from "../../src/core/run/protocol.js";
import { PROTOCOLS } from "../../src/protocols.js";
import { runCliInProcess } from "../helpers/cli.js";

const TOO_LONG = 3_000_000_000;

/** Each mock's own setting for the pause between events. */
const CHUNK_DELAY_SETTING: Record<string, string> = {
  "mcp-chat": "eventDelay",
  "openai-chat": "chunkDelayMs",
  "pi-web": "chunkDelay",
  "continue-remote": "chunkMs",
  "stagewise-chat": "chunkDelayMs",
};

describe("timer limits", () => {
  it("sleep waits on a pause past the timer limit instead of firing at once", async () => {
    expect(timerMs(TOO_LONG)).toBe(MAX_DELAY_MS);
    expect(timerMs(5)).toBe(5);
    const stop = new AbortController();
    let done = false;
    const waiting = sleep(TOO_LONG, stop.signal).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 30));
    expect(done).toBe(false);
    stop.abort();
    await waiting;
  });

  it.each(PROTOCOLS.map((p) => p.id))("%s mock refuses a delay above the timer limit, as an option and as a setting", async (id) => {
    const p = PROTOCOLS.find((x) => x.id === id)!;
    await expect(p.startMock({ host: "127.0.0.1", port: 0, chunkDelayMs: TOO_LONG })).rejects.toThrow(MockOptionError);
    await expect(p.startMock({ host: "127.0.0.1", port: 0, chunkDelayMs: TOO_LONG })).rejects.toThrow(/at most 2147483647/);
    const setting = CHUNK_DELAY_SETTING[id]!;
    await expect(p.startMock({ host: "127.0.0.1", port: 0, settings: { [setting]: TOO_LONG } })).rejects.toThrow(
      new RegExp(`${setting}: must be at most 2147483647`),
    );
  });

  it("agentwire mock exits 2 on --chunk-delay-ms above the limit, naming it", async () => {
    const r = await runCliInProcess(["mock", "mcp-chat", "--chunk-delay-ms", String(TOO_LONG), "--port", "0"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/eventDelay must be at most 2147483647/);
    expect(r.stderr).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
  });
});
