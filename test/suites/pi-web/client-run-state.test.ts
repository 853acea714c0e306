/**
 * pi-web/client/streaming-behavior against the live mock: whether a run is in progress is what the
 * mock knows, not only what it managed to tell a socket. A run that ends while the client is
 * away, or that a server shutdown ends, is over: a plain prompt after reconnecting (which the mock
 * answers with a success and a new run) is no prompt during a run.
 */
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import type { RunningMock } from "../../../src/core/run/protocol.js";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import { TranscriptBus, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import { createPiWebEngine, type PiWebTransport } from "../../../src/mocks/pi-web/engine.js";
import { PI_WEB_CLIENT_CHECKS } from "../../../src/suites/pi-web/client/index.js";
import { Client, mock, type Json } from "../../mocks/pi-web/helpers.js";

let running: RunningMock | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function recordedMock(): Promise<{ ws: string; events: TranscriptEvent[] }> {
  const bus = new TranscriptBus();
  const events: TranscriptEvent[] = [];
  bus.subscribe((e) => events.push(e));
  // The mock's own pace, so the run lasts long enough to leave it mid-stream.
  const m = await mock({ bus, firstDelay: 30, chunkDelay: 20 });
  running = m;
  return { ws: `${m.ws}/ws`, events };
}

function streamingBehavior(events: TranscriptEvent[]) {
  const ctx = { protocol: "pi-web", profile: DEFAULT_PROFILE, params: {}, validate: (s: string, v: unknown) => registry.validate("pi-web", s, v, "default") };
  const evaluation = new Evaluation(PI_WEB_CLIENT_CHECKS, ctx);
  for (const e of events) evaluation.observe(e);
  return evaluation.finish().find((r) => r.id === "pi-web/client/streaming-behavior")!;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(test: () => boolean, limitMs = 10_000): Promise<void> {
  for (const start = Date.now(); !test(); await sleep(10)) if (Date.now() - start > limitMs) throw new Error("timed out");
}

/** A socket that keeps what the engine sends it. */
function fakeTransport() {
  const sent: string[] = [];
  const transport: PiWebTransport = { send: (d) => void sent.push(typeof d === "string" ? d : new TextDecoder().decode(d)), close: () => {} };
  return { transport, messages: (): Json[] => sent.map((d) => JSON.parse(d) as Json) };
}

/** Reconnects, waits for get_state to say the agent is idle, then sends a plain prompt: the mock runs it. */
async function promptWhenIdle(ws: string): Promise<void> {
  const c = await Client.open(ws);
  let state: Json;
  for (let i = 0; ; i++) {
    state = await c.request({ type: "get_state" });
    if (state.data?.isStreaming === false || i > 200) break;
    await sleep(25);
  }
  expect(state.data?.isStreaming).toBe(false);
  // Past the crossing grace of the run's end, so the prompt is judged, not left as one that may have crossed it.
  await sleep(300);
  const answer = await c.request({ type: "prompt", message: "plain" });
  expect(answer.success).toBe(true);
  await c.waitFor((m) => m.type === "agent_end");
  c.close();
  await sleep(20);
}

describe("streaming-behavior follows the mock's run, not just the frames it delivered", () => {
  it("a run that ended while no socket was open is over: a plain prompt after reconnecting is not flagged", async () => {
    // The engine itself, so the test knows when the run is over without a socket to hear it.
    const bus = new TranscriptBus();
    const events: TranscriptEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const engine = createPiWebEngine({ bus, originCheck: false, firstDelay: 30, chunkDelay: 20 });
    try {
      const first = fakeTransport();
      const c1 = engine.connect(first.transport, { url: "/ws" });
      c1.onMessage(JSON.stringify({ id: "p1", type: "prompt", message: "hi" }));
      await until(() => first.messages().some((m) => m.type === "agent_start"));
      c1.onClose(1000, "");
      await until(() => !engine.state().busy);
      // The run's end reached no socket.
      expect(first.messages().some((m) => m.type === "agent_end")).toBe(false);
      await sleep(300);
      const second = fakeTransport();
      const c2 = engine.connect(second.transport, { url: "/ws" });
      c2.onMessage(JSON.stringify({ id: "s1", type: "get_state" }));
      expect(second.messages().find((m) => m.id === "s1")?.data?.isStreaming).toBe(false);
      c2.onMessage(JSON.stringify({ id: "p2", type: "prompt", message: "plain" }));
      await until(() => second.messages().some((m) => m.type === "agent_end"));
      expect(second.messages().find((m) => m.id === "p2")?.success).toBe(true);
      c2.onClose(1000, "");
    } finally {
      engine.dispose();
    }
    const r = streamingBehavior(events);
    expect([r.outcome, r.message]).toEqual(["skip", expect.stringContaining("runs took place, but the client sent no prompt during one")]);
  }, 30_000);

  it("a server shutdown (1001) ends the run: a plain prompt after reconnecting is not flagged", async () => {
    const { ws, events } = await recordedMock();
    const c = await Client.open(ws);
    c.send({ id: "p1", type: "prompt", message: "scenario:server-shutdown hi" });
    await c.waitFor(() => c.closed !== undefined);
    expect(c.closed?.code).toBe(1001);
    await promptWhenIdle(ws);
    expect(streamingBehavior(events).outcome).toBe("skip");
  }, 30_000);

  it("engine.shutdown (here a 1012 restart) ends the run it had; a plain prompt on a new socket is not flagged", async () => {
    const bus = new TranscriptBus();
    const events: TranscriptEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const engine = createPiWebEngine({ bus, originCheck: false, firstDelay: 30, chunkDelay: 20 });
    try {
      const first = fakeTransport();
      const c1 = engine.connect(first.transport, { url: "/ws" });
      c1.onMessage(JSON.stringify({ id: "p1", type: "prompt", message: "scenario:long hi" }));
      await until(() => first.messages().some((m) => m.type === "agent_start"));
      engine.shutdown(1012, "service restart");
      c1.onClose(1012, "service restart");
      expect(engine.state()).toMatchObject({ busy: false, isStreaming: false });
      expect(events.filter((e) => e.kind === "note").map((e) => e.kind === "note" && e.value)).toEqual([{ running: true }, { running: false }]);
      expect(events.find((e) => e.kind === "ws-close")).toMatchObject({ code: 1012, by: "kit" });
      await sleep(300);
      const c2 = engine.connect(fakeTransport().transport, { url: "/ws" });
      c2.onMessage(JSON.stringify({ id: "p2", type: "prompt", message: "plain" }));
      c2.onClose(1000, "");
    } finally {
      engine.dispose();
    }
    expect(streamingBehavior(events).outcome).toBe("skip");
  }, 30_000);

  it("a plain prompt while the mock's run goes on still fails", async () => {
    const { ws, events } = await recordedMock();
    const c = await Client.open(ws);
    c.send({ id: "p1", type: "prompt", message: "scenario:long hi" });
    await c.waitFor((m) => m.type === "agent_start");
    c.close();
    const again = await Client.open(ws);
    await sleep(400);
    const busy = await again.request({ type: "prompt", message: "plain" });
    expect(busy.success).toBe(false);
    again.close();
    await sleep(20);
    expect(streamingBehavior(events).outcome).toBe("fail");
  }, 30_000);
});
