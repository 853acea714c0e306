/**
 * The mock's error-retry run against cmd/get-messages: like pi, the mock drops the failed reply
 * from its history when it retries, so a history read between agent_end and the retry differs
 * from the failed run's messages. That read is not "after the run"; the one after the retry is.
 */
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { startPiWebMock } from "../../../src/mocks/pi-web/index.js";
import { PI_WEB_SERVER_CHECKS } from "../../../src/suites/pi-web/checks/index.js";
import { byShortId, judge } from "../../helpers/synthetic-transcript.js";

const evaluatePiWeb = (events: TranscriptEvent[]) => byShortId(judge(PI_WEB_SERVER_CHECKS, events));

type Json = Record<string, unknown>;

/** Drives one error-retry prompt, reading the history at both agent_ends; returns the transcript and the reads. */
async function errorRetryConversation(): Promise<{ events: TranscriptEvent[]; reads: Json[] }> {
  const mock = await startPiWebMock({ port: 0, chunkDelayMs: 0 });
  const events: TranscriptEvent[] = [];
  let seq = 0;
  const push = (e: Json) => events.push({ seq: seq++, t: performance.now(), probe: "retry", ...e } as unknown as TranscriptEvent);
  const url = `${mock.url.replace(/^http/, "ws")}/ws`;
  const ws = new WebSocket(url, { origin: mock.url });
  const reads: Json[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    push({ kind: "ws-open", connection: "w1", url, label: "main" });
    const send = (label: string, msg: Json) => {
      const data = JSON.stringify(msg);
      push({ kind: "ws-frame", connection: "w1", direction: "out", binary: false, data, label });
      ws.send(data);
    };
    await new Promise<void>((resolve) => {
      let ends = 0;
      ws.on("message", (raw) => {
        const data = raw.toString();
        push({ kind: "ws-frame", connection: "w1", direction: "in", binary: false, data });
        const m = JSON.parse(data) as Json;
        if (m.type === "agent_end") send(`history:retry-${++ends}`, { id: `h${ends}`, type: "get_messages" });
        if (m.type === "response" && typeof m.id === "string" && m.id.startsWith("h")) {
          reads.push(m);
          if (m.id === "h2") resolve();
        }
      });
      send("prompt:error-retry", { id: "p1", type: "prompt", message: "scenario:error-retry Say hello." });
    });
  } finally {
    ws.close();
    await mock.close();
  }
  push({ kind: "ws-close", connection: "w1", code: 1000, by: "kit" });
  return { events, reads };
}

describe("cmd/get-messages against the mock's automatic retry", () => {
  it("reads in the retry window are not judged; the read after the retry passes", async () => {
    const { events, reads } = await errorRetryConversation();
    const count = (r: Json) => ((r.data as { messages: unknown[] }).messages ?? []).length;
    // Between the failed run and its retry the failed reply is gone: the prompt only.
    expect(reads.map(count)).toEqual([1, 2]);
    const c = evaluatePiWeb(events).get("cmd/get-messages")!;
    expect(c.verdict, c.message).toBe("pass");
    expect(c.message).toBe("1 history read(s) ended with the run's messages");
  });
});
