/**
 * The live proxy's added latency: each SSE event (mcp-chat /chat/stream) and each WebSocket frame
 * (pi-web) carries the time it was written; the reader notes when it arrived. The same paced
 * stream is read directly and through `startProxy` (which relays, records and judges it), in the
 * same run, alternated, and through a bare relay in this process (forwarding only). Rows: p99
 * latency through the proxy against p99 direct ("work": what the proxy and the bare relay add, so
 * a loaded machine's share shows, and the median and range of the rounds' own differences), and
 * this process's CPU time per event against the bare relay's.
 *
 * Many short reads, the order turning each round: a burst of load from elsewhere on the machine
 * (seconds long) then falls on every way alike, instead of on whichever way a long read had.
 */
import { spawn } from "node:child_process";
import http from "node:http";
import WebSocket, { WebSocketServer } from "ws";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startProxy } from "../dist/proxy/index.js";
import { quick } from "./common.js";

/** Events per read, and reads per way: 6,000 events per way in all (2,000 quick). */
const EVENTS = quick ? 250 : 500;
const ROUNDS = quick ? 8 : 12;
/** Events read through each way as fast as they go, then paced reads, before the measured reads. */
const WARM_EVENTS = 20_000;
const WARM_READS = 4;
const PEER = fileURLToPath(new URL("./proxy-peer.js", import.meta.url));

function p99(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.99))];
}

/**
 * The target and the reader live in another process (one clock for stamp and arrival), as a
 * client and a server would: the proxy's own work then costs only what it delays on the wire.
 */
async function peer(mode, events = EVENTS, gapMs = 1) {
  const child = spawn(process.execPath, [PEER, mode, String(events), String(gapMs)], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => (await lines.next()).value;
  const url = await next();
  return {
    url,
    /** `events`, `gapMs`: another stream than the paced one, for this read (the warm-up). */
    read: async (through, events, gapMs) => {
      child.stdin.write(events === undefined ? `${through}\n` : `${through} ${events} ${gapMs}\n`);
      return JSON.parse(await next());
    },
    close: () => child.kill(),
  };
}

/**
 * The least a relay does, in this process like the proxy: forward the request, write each chunk
 * of the answer (or each frame) as it comes. What the proxy costs beyond it is its recording and judging.
 */
async function bareRelay(target) {
  const t = new URL(target);
  const server = http.createServer((req, res) => {
    const up = http.request(new URL(req.url, t.origin), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.on("data", (c) => res.write(c));
      answer.on("end", () => res.end());
    });
    req.pipe(up);
  });
  server.on("connection", (s) => s.setNoDelay(true));
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  server.on("upgrade", (req, socket, head) => {
    const up = new WebSocket(new URL(req.url, target.replace(/^http/, "ws")), { perMessageDeflate: false });
    up.on("open", () =>
      wss.handleUpgrade(req, socket, head, (client) => {
        up.on("message", (d, binary) => client.send(d, { binary }));
        client.on("message", (d, binary) => up.send(d, { binary }));
        up.on("close", () => client.close());
        client.on("close", () => up.close());
      }),
    );
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

/**
 * Reads through each way in turn, starting one way later each round; latencies pooled per way,
 * each round's p99, and this process's CPU time per event relayed.
 */
async function measure(read, ways, rounds) {
  const names = Object.keys(ways);
  const out = Object.fromEntries(names.map((k) => [k, { lat: [], rounds: [], cpu: 0 }]));
  for (let i = 0; i < rounds; i++) {
    for (let j = 0; j < names.length; j++) {
      const k = names[(i + j) % names.length];
      const c0 = process.cpuUsage();
      const lat = await read(ways[k]);
      const c = process.cpuUsage(c0);
      out[k].lat.push(...lat);
      out[k].rounds.push(p99(lat));
      out[k].cpu += c.user + c.system;
    }
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, { p99: p99(v.lat), rounds: v.rounds, n: v.lat.length, cpuPerEvent: v.cpu / Math.max(1, v.lat.length) }]));
}

/** Median and range of what a way added, round by round (each round against that round's direct read). */
function addedByRound(way, direct) {
  const d = way.rounds.map((x, i) => x - direct.rounds[i]).sort((a, b) => a - b);
  const f = (x) => `${x < 0 ? "" : "+"}${x.toFixed(2)}`;
  return `${f(d[Math.floor(d.length / 2)])} (${f(d[0])}..${f(d[d.length - 1])})`;
}

export async function benchProxy() {
  const rounds = ROUNDS;
  const rows = [];
  for (const { mode, protocol, what } of [
    { mode: "sse", protocol: "mcp-chat", what: "SSE event" },
    { mode: "ws", protocol: "pi-web", what: "WebSocket frame" },
  ]) {
    const p = await peer(mode);
    const proxy = await startProxy({ protocol, target: p.url });
    const bare = await bareRelay(p.url);
    const bareUrl = mode === "ws" ? `${bare.url.replace(/^http/, "ws")}/ws` : bare.url;
    // Warm-up: the checks and schemas load on first use, and V8 compiles the judging over the
    // first few thousand events, on its own threads, whose time counts in this process's CPU time
    // (20-100 µs an event for the first 4,000 paced ones): the rows measure the proxy once compiled.
    for (const url of [proxy.url, bareUrl]) {
      await p.read(url, WARM_EVENTS, 0);
      for (let i = 0; i < WARM_READS; i++) await p.read(url);
    }
    const m = await measure(p.read, { direct: p.url, proxied: proxy.url, bare: bareUrl }, rounds);
    await proxy.close();
    bare.close();
    p.close();
    rows.push({
      name: `proxy: ${what} latency p99 (ms)`,
      kit: m.proxied.p99,
      base: m.direct.p99,
      baseName: "the same stream, direct",
      unit: "ms",
      work: `+${(m.proxied.p99 - m.direct.p99).toFixed(2)} ms (bare relay +${(m.bare.p99 - m.direct.p99).toFixed(2)}), ${m.proxied.n}; by round, median ${addedByRound(m.proxied, m.direct)}, bare ${addedByRound(m.bare, m.direct)}`,
    });
    rows.push({
      name: `proxy: CPU per ${what} relayed (µs)`,
      kit: m.proxied.cpuPerEvent,
      base: m.bare.cpuPerEvent,
      baseName: "a bare relay, same process",
      unit: "µs",
      work: "relay + transcript + both judges",
    });
  }
  rows.push(await memoryRow());
  return rows;
}

/** Heap of this process after a stream of `events` SSE events relayed, recorded and judged (after gc). */
async function heapAfter(events) {
  const p = await peer("sse", events, 0);
  const proxy = await startProxy({ protocol: "mcp-chat", target: p.url });
  const [read] = await p.read(proxy.url);
  if (read < events) throw new Error(`proxy bench: the reader got ${read} of ${events} events`);
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed;
  await proxy.close();
  p.close();
  return heap;
}

/** Memory does not grow with stream length: the proxy keeps no events (heap after 10^6 vs 10^3). */
async function memoryRow() {
  const long = quick ? 20_000 : 1_000_000;
  await heapAfter(1_000); // warm-up: modules, schemas
  const small = await heapAfter(1_000);
  const big = await heapAfter(long);
  return { name: `proxy: heap after ${long.toLocaleString("en")} events (MB)`, kit: big / 1e6, base: small / 1e6, baseName: "heap after 1,000 events", unit: "MB", work: "one stream, relayed and judged" };
}
