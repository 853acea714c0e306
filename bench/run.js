#!/usr/bin/env node
/**
 * npm run bench — throughput and memory of the kit, each as a ratio against a baseline measured in
 * the same run on the same machine (absolute numbers on a shared machine mean little).
 *
 *   mock events/s      the mcp-chat mock streaming a long answer vs a bare node:http SSE writer
 *                      sending the same bytes
 *   checker events/s   every mcp-chat server check observing an SSE stream vs JSON.parse + ajv alone
 *   memory             RSS after 10^3 vs 10^6 events through recorder + checks (should stay flat)
 *
 * Options: --quick (smaller sizes), --events N (memory run size, default 1e6).
 */
import http from "node:http";
import { Ajv2020 } from "ajv/dist/2020.js";
import { PROTOCOLS } from "../dist/protocols.js";
import { Evaluation, selectChecks } from "../dist/core/evaluation.js";
import { exchange } from "../dist/core/http-exchange.js";
import { registry } from "../dist/core/schema-registry.js";
import { DEFAULT_PROFILE } from "../dist/core/check.js";
import { TranscriptBus } from "../dist/core/transcript.js";
import { SseReader } from "../dist/core/sse-reader.js";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const memEventsArg = args.indexOf("--events");
const MEM_EVENTS = memEventsArg >= 0 ? Number(args[memEventsArg + 1]) : quick ? 100_000 : 1_000_000;
const protocol = PROTOCOLS.find((p) => p.id === "mcp-chat");
const serverChecks = selectChecks(protocol.id, protocol.checks, { side: "server" });

function ctx() {
  return {
    protocol: protocol.id,
    profile: DEFAULT_PROFILE,
    params: protocol.defaultParams,
    validate: (m, v) => registry.validate(protocol.id, m, v),
  };
}

const textEvent = (i) => `data: {"type": "text", "content": "chunk ${i} é 漢 🙂 "}\n\n`;

/** Reads one POST /chat/stream response fully; returns the number of SSE events. */
function readStream(url) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers: { "content-type": "application/json", origin: "http://localhost:3000" }, agent: false }, (res) => {
      let events = 0;
      let tail = "";
      res.setEncoding("utf8");
      res.on("data", (s) => {
        const text = tail + s;
        let i = text.indexOf("\n\n");
        let from = 0;
        while (i >= 0) {
          events++;
          from = i + 2;
          i = text.indexOf("\n\n", from);
        }
        tail = text.slice(from);
      });
      res.on("end", () => resolve(events));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(JSON.stringify({ message: "!scenario long-answer" }));
  });
}

async function timeStreams(url, rounds) {
  const t0 = performance.now();
  let events = 0;
  for (let r = 0; r < rounds; r++) events += await readStream(url);
  return { events, ms: performance.now() - t0 };
}

/** Bare baseline: node:http writing pre-rendered SSE events, one write each, no pacing. */
function startBareWriter(events) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const e of events) res.write(e);
      res.end();
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function benchMock() {
  const rounds = quick ? 20 : 100;
  const mock = await protocol.startMock({
    host: "127.0.0.1",
    port: 0,
    settings: { headersDelay: 0, firstEventDelay: 0, eventDelay: 0, toolDuration: 0, closeDelay: 0 },
  });
  await fetch(`${mock.url}/connect/weather`, { method: "POST" }).then((r) => r.arrayBuffer());
  // Capture the mock's own bytes once so the baseline sends exactly the same events.
  const sample = await new Promise((resolve, reject) => {
    const req = http.request(`${mock.url}/chat/stream`, { method: "POST", headers: { "content-type": "application/json" }, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (s) => (body += s));
      res.on("end", () => resolve(body));
    });
    req.on("error", reject);
    req.end(JSON.stringify({ message: "!scenario long-answer" }));
  });
  const events = sample.split("\n\n").filter(Boolean).map((e) => `${e}\n\n`);
  const bare = await startBareWriter(events);
  const bareUrl = `http://127.0.0.1:${bare.address().port}/chat/stream`;
  await timeStreams(bareUrl, 3); // warm-up
  await timeStreams(`${mock.url}/chat/stream`, 3);
  const base = await timeStreams(bareUrl, rounds);
  const m = await timeStreams(`${mock.url}/chat/stream`, rounds);
  bare.close();
  await mock.close();
  return { name: "mock events/s (long-answer, no pacing)", base: rate(base), kit: rate(m), baseName: "bare node:http SSE writer" };
}

function rate({ events, ms }) {
  return (events / ms) * 1000;
}

function syntheticChunks(n) {
  const out = [];
  out.push(new TextEncoder().encode(`data: {"type": "tool_start", "id": "tc-1", "name": "get_weather", "args": {"city": "Paris"}}\n\n`));
  out.push(new TextEncoder().encode(`data: {"type": "tool_end", "id": "tc-1", "name": "get_weather"}\n\n`));
  for (let i = 0; i < n; i++) out.push(new TextEncoder().encode(textEvent(i)));
  out.push(new TextEncoder().encode("data: [DONE]\n\n"));
  return out;
}

function benchChecker() {
  const n = quick ? 50_000 : 200_000;
  const chunks = syntheticChunks(n);
  // Baseline: decode, split, JSON.parse and validate each event with ajv — the least any checker does.
  const ajv = new Ajv2020({ strict: false });
  const schema = registry.schema("mcp-chat", "text-event");
  const validate = ajv.compile({ ...schema, $id: undefined });
  const t0 = performance.now();
  const dec = new TextDecoder();
  let ok = 0;
  for (const c of chunks) {
    const s = dec.decode(c);
    const data = s.slice(6, -2);
    if (data.startsWith("{")) {
      const v = JSON.parse(data);
      if (validate(v)) ok++;
    }
  }
  const baseMs = performance.now() - t0;
  if (ok < n) throw new Error("baseline did not validate the synthetic events");

  // The kit: the SSE reader (raw lines + WHATWG events) feeding every mcp-chat server check.
  const t1 = performance.now();
  feedChecks(chunks);
  const kitMs = performance.now() - t1;
  return {
    name: "checker events/s (all server checks)",
    base: (chunks.length / baseMs) * 1000,
    kit: (chunks.length / kitMs) * 1000,
    baseName: "JSON.parse + ajv",
  };
}

function feedChecks(chunkIterable) {
  const bus = new TranscriptBus();
  const evaluation = new Evaluation(serverChecks, ctx());
  bus.subscribe(evaluation.observe);
  const ref = { probe: "chat-stream", exchange: "x1", label: "chat-stream" };
  bus.emit({ kind: "http-request", ...ref, method: "POST", url: "http://bench/chat/stream", path: "/chat/stream", headers: {} });
  bus.emit({ kind: "http-response", ...ref, status: 200, headers: { "content-type": "text/event-stream" } });
  const reader = new SseReader(ref.probe, ref.exchange, ref.label, (e) => bus.emit(e));
  let i = 0;
  let bytes = 0;
  for (const c of chunkIterable) {
    bus.emit({ kind: "body-chunk", ...ref, index: i, bytes: c });
    reader.push(c, i++);
    bytes += c.byteLength;
  }
  reader.end();
  bus.emit({ kind: "body-end", ...ref, reason: "eof", bytes });
  return evaluation.finish();
}

/** Streams `n` events from a bare server through the recorder and every check; returns RSS (MiB). */
async function rssAfter(n) {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "text/event-stream" });
    let i = 0;
    const pump = () => {
      while (i < n) {
        if (!res.write(textEvent(i++))) return res.once("drain", pump);
      }
      res.end("data: [DONE]\n\n");
    };
    pump();
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const bus = new TranscriptBus();
  const evaluation = new Evaluation(serverChecks, ctx());
  bus.subscribe(evaluation.observe);
  const t0 = performance.now();
  const r = await exchange(bus, {
    probe: "chat-stream",
    label: "chat-stream",
    method: "POST",
    url: `http://127.0.0.1:${server.address().port}/chat/stream`,
    body: JSON.stringify({ message: "bench" }),
    headers: { "content-type": "application/json" },
    stream: true,
    timeouts: { headers: 10_000, total: 600_000, close: 2000 },
    maxBytes: Number.MAX_SAFE_INTEGER,
    isTerminal: (d) => d === "[DONE]",
  });
  const ms = performance.now() - t0;
  evaluation.finish();
  server.close();
  globalThis.gc?.();
  await new Promise((res) => setTimeout(res, 50));
  globalThis.gc?.();
  return { rss: process.memoryUsage().rss / 1024 / 1024, events: r.events.length >= 1000 ? n : r.events.length, ms };
}

function row(cols, widths) {
  return cols.map((c, i) => String(c).padEnd(widths[i])).join("  ");
}

const results = [];
process.stderr.write("bench: mock throughput…\n");
results.push(await benchMock());
process.stderr.write("bench: checker throughput…\n");
results.push(benchChecker());
process.stderr.write(`bench: memory, 10^3 then ${MEM_EVENTS} events…\n`);
const small = await rssAfter(1_000);
const big = await rssAfter(MEM_EVENTS);

const widths = [40, 14, 14, 28, 8];
console.log(row(["measure", "kit", "baseline", "baseline is", "ratio"], widths));
console.log(row(widths.map((w) => "-".repeat(w)), widths));
for (const r of results) {
  console.log(row([r.name, Math.round(r.kit).toLocaleString("en"), Math.round(r.base).toLocaleString("en"), r.baseName, (r.kit / r.base).toFixed(2)], widths));
}
console.log(
  row(
    [`RSS MiB after ${MEM_EVENTS.toLocaleString("en")} events`, big.rss.toFixed(1), small.rss.toFixed(1), "RSS after 1,000 events", (big.rss / small.rss).toFixed(2)],
    widths,
  ),
);
console.log(`\n(${Math.round((MEM_EVENTS / big.ms) * 1000).toLocaleString("en")} events/s through recorder + checks in the memory run; ratios > 1 mean the kit is faster / uses more)`);
