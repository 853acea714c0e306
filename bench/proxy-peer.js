/**
 * The other end of the proxy bench, in its own process: a target (SSE or WebSocket) sending
 * stamped events, and a reader that, for each URL read from stdin, reads them and prints their
 * latencies (arrival minus stamp, one clock) as one JSON line. The first stdout line is the target's URL.
 * A line may add how many events the next stream sends and the gap between them ("URL 4000 0": a
 * fast warm-up stream), for that read only.
 */
import http from "node:http";
import { createInterface } from "node:readline";
import WebSocket, { WebSocketServer } from "ws";

const [mode, count, gap] = process.argv.slice(2);
let EVENTS = Number(count);
/** Milliseconds between writes; 0: as fast as the socket takes them (the memory rows). */
let GAP_MS = gap === undefined ? 1 : Number(gap);
const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function sseTarget() {
  const server = http.createServer(async (req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (let i = 0; i < EVENTS; i++) {
      const more = res.write(`data: {"type":"text","content":"${now()}"}\n\n`);
      if (GAP_MS > 0) await sleep(GAP_MS);
      else if (!more) await new Promise((r) => res.once("drain", r));
    }
    res.end('data: {"type":"done"}\n\ndata: [DONE]\n\n');
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${server.address().port}`;
}

function sseRead(base) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    let tail = "";
    const req = http.request(`${base}/chat/stream`, { method: "POST", headers: { "content-type": "application/json" }, agent: false }, (res) => {
      res.setEncoding("utf8");
      res.on("data", (s) => {
        const at = now();
        const text = tail + s;
        let from = 0;
        for (let i = text.indexOf("\n\n"); i >= 0; i = text.indexOf("\n\n", from)) {
          const m = /"content":"([\d.]+)"/.exec(text.slice(from, i));
          if (m) latencies.push(at - Number(m[1]));
          from = i + 2;
        }
        tail = text.slice(from);
      });
      res.on("end", () => resolve(latencies));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end('{"message":"bench"}');
  });
}

async function wsTarget() {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, perMessageDeflate: false });
  wss.on("connection", (s) =>
    s.once("message", async () => {
      for (let i = 0; i < EVENTS; i++) {
        s.send(`{"type":"message_update","t":${now()}}`);
        if (GAP_MS > 0) await sleep(GAP_MS);
      }
      s.close(1000);
    }),
  );
  await new Promise((r) => wss.once("listening", r));
  return `ws://127.0.0.1:${wss.address().port}/ws`;
}

function wsRead(url) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on("open", () => ws.send('{"type":"get_state","id":"bench"}'));
    ws.on("message", (d) => {
      const at = now();
      const m = /"t":([\d.]+)/.exec(String(d));
      if (m) latencies.push(at - Number(m[1]));
    });
    ws.on("close", () => resolve(latencies));
    ws.on("error", reject);
  });
}

const url = mode === "ws" ? await wsTarget() : await sseTarget();
process.stdout.write(`${url}\n`);
const defaults = [EVENTS, GAP_MS];
for await (const line of createInterface({ input: process.stdin })) {
  const [through, events, gapMs] = line.split(" ");
  [EVENTS, GAP_MS] = events === undefined ? defaults : [Number(events), Number(gapMs)];
  const latencies = await (mode === "ws" ? wsRead(through) : sseRead(through));
  // The memory runs (no gap) need only the count: a million latencies would weigh on the heap being measured.
  process.stdout.write(`${JSON.stringify(GAP_MS > 0 ? latencies : [latencies.length])}\n`);
}
