/**
 * pi-web, the long turn (`scenario:long`, no delays): the mock streaming it to a plain `ws` client vs a bare `ws`
 * server sending the same frames to the same client; the turn as the kit's client recorded it, judged by every server
 * check after a recorded suite run, vs JSON.parse + ajv (the protocol's schemas) of the same frames; end to end
 * (informational: both costs at once), the mock through the kit's recording client and checks vs the bare server to a
 * plain client; RSS after 10^3 vs 10^6 message_update events.
 */
import { WebSocketServer, WebSocket } from "ws";
import { PROTOCOLS } from "../dist/protocols.js";
import { Evaluation } from "../dist/core/verdicts/evaluation.js";
import { TranscriptBus } from "../dist/core/transcript/transcript.js";
import { openWs } from "../dist/core/transport/ws-exchange.js";
import { registry } from "../dist/core/schemas/schema-registry.js";
import { eventSchema } from "../dist/suites/pi-web/checks/framing.js";
import { checkContext, memoryRow, MEM_EVENTS, quick, recordedRun, recordTurn, rssNow, serverChecks, wsCheckerVsParse, wsMockVsBare } from "./common.js";

const protocol = PROTOCOLS.find((p) => p.id === "pi-web");
const ORIGIN = (url) => url.replace(/^ws/, "http").replace(/\/ws$/, "");
const isEnd = (text) => text.includes('"type":"agent_end"');

/** One prompt through the kit's recording client with every server check observing; returns frames seen. */
async function runThroughKit(wsUrl, prompt) {
  const bus = new TranscriptBus();
  const evaluation = new Evaluation(serverChecks(protocol), checkContext(protocol));
  bus.subscribe(evaluation.observe);
  const frames = await promptOn(bus, wsUrl, prompt);
  evaluation.finish();
  return frames;
}

/** One prompt through the kit's recording client on `bus`, to the end of the run; returns the frames read. */
export async function promptOn(bus, wsUrl, prompt) {
  const opened = await openWs(bus, { probe: "bench", label: "main", url: wsUrl, headers: { origin: ORIGIN(wsUrl) }, openTimeout: 5000 });
  if (!opened.ok) throw new Error(`pi-web bench: upgrade refused (${opened.status ?? opened.error})`);
  const conn = opened.conn;
  let frames = 0;
  const done = new Promise((resolve) =>
    conn.onMessage((m) => {
      frames++;
      if (m.frame.data && isEnd(m.frame.data)) resolve();
    }),
  );
  conn.send({ type: "prompt", id: "bench-1", message: prompt });
  await done;
  await conn.close();
  return frames;
}

/** The same through a plain `ws` client: no recording, no checks. Resolves to the frames read and the ms taken. */
function runPlain(wsUrl, prompt, record) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const ws = new WebSocket(wsUrl, { headers: { origin: ORIGIN(wsUrl) } });
    let frames = 0;
    ws.on("open", () => ws.send(JSON.stringify({ type: "prompt", id: "bench-1", message: prompt })));
    ws.on("message", (data) => {
      frames++;
      const text = data.toString();
      record?.push(text);
      if (isEnd(text)) {
        ws.close();
        resolve({ frames, ms: performance.now() - t0 });
      }
    });
    ws.on("error", reject);
  });
}

/** Bare baseline server: answers any message with the recorded frames, as fast as `ws` sends. */
function bareServer(frames) {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, path: "/ws" });
  wss.on("connection", (ws) => ws.on("message", () => frames.forEach((f) => ws.send(f))));
  return new Promise((resolve) => wss.on("listening", () => resolve(wss)));
}

async function rate(fn, rounds) {
  const t0 = performance.now();
  let frames = 0;
  for (let i = 0; i < rounds; i++) {
    const r = await fn();
    frames += typeof r === "number" ? r : r.frames;
  }
  return (frames / (performance.now() - t0)) * 1000;
}

/** The schema a frame of the turn is validated against: an event's own, a response's, the command's. */
function validateFrame(v, ev) {
  const name = ev.direction === "out" ? `${v.type.replace(/_/g, "-")}-command` : v.type === "response" ? "response" : eventSchema(v.type);
  return registry.validate("pi-web", name, v);
}

/** Streams n message_update events from a bare server through the recorder and every check. */
async function rssAfter(n) {
  const partial = { role: "assistant", content: [{ type: "text", text: "hello" }], api: "bench", provider: "bench", model: "bench", usage: {}, stopReason: "stop", timestamp: 1 };
  const update = JSON.stringify({ type: "message_update", message: partial, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "x", partial } });
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, path: "/ws" });
  await new Promise((r) => wss.on("listening", r));
  wss.on("connection", (ws) =>
    ws.on("message", async () => {
      ws.send(JSON.stringify({ type: "response", command: "prompt", success: true, id: "bench-1" }));
      ws.send(JSON.stringify({ type: "agent_start" }));
      ws.send(JSON.stringify({ type: "message_start", message: partial }));
      for (let i = 0; i < n; i++) {
        ws.send(update);
        // Let the socket drain now and then so the server side does not buffer the whole run.
        if (i % 1000 === 999) await new Promise((r) => setImmediate(r));
      }
      ws.send(JSON.stringify({ type: "message_end", message: partial }));
      ws.send(JSON.stringify({ type: "agent_end", messages: [partial] }));
    }),
  );
  await runThroughKit(`ws://127.0.0.1:${wss.address().port}/ws`, "bench");
  wss.close();
  return rssNow();
}

export async function benchPiWeb() {
  const rows = [];
  const recorded = await recordedRun(protocol);
  const mock = await protocol.startMock({ host: "127.0.0.1", port: 0, settings: { firstDelay: 0, chunkDelay: 0, toolDelay: 0 } });
  const wsUrl = `${mock.url.replace(/^http/, "ws")}/ws`;
  const prompt = "scenario:long bench";
  const frames = [];
  await runPlain(wsUrl, prompt, frames);
  if (frames.length < 100) throw new Error(`pi-web bench: the long scenario sent only ${frames.length} frames`);
  const bare = await bareServer(frames);
  const bareUrl = `ws://127.0.0.1:${bare.address().port}/ws`;
  const rounds = quick ? 5 : 20;
  const turn = await recordTurn((bus) => promptOn(bus, wsUrl, prompt));
  const checker = wsCheckerVsParse({ name: "pi-web checker frames/s", protocol, recorded, turn, validateFrame });
  const mockRow = await wsMockVsBare({ name: "pi-web mock frames/s", mockUrl: wsUrl, bareUrl, play: (url) => runPlain(url, prompt), rounds: quick ? 10 : 40 });
  rows.push({ ...mockRow, work: `${frames.length} frames a turn, ${mockRow.work}` }, checker);
  await rate(() => runPlain(bareUrl, prompt), 2);
  await rate(() => runThroughKit(wsUrl, prompt), 2);
  const base = await rate(() => runPlain(bareUrl, prompt), rounds);
  const kit = await rate(() => runThroughKit(wsUrl, prompt), rounds);
  bare.close();
  await mock.close();
  rows.push({ name: "pi-web mock → checks events/s", kit, base, baseName: "bare ws server, plain client", work: "end to end (informational)" });

  const small = await rssAfter(1_000);
  const big = await rssAfter(MEM_EVENTS);
  rows.push(memoryRow(`pi-web RSS after ${MEM_EVENTS.toLocaleString("en")} message_update`, small, big));
  return rows;
}
