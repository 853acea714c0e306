/** Shared pieces of the benchmarks: bare baselines, stream readers, feeding checks, the table. */
import http from "node:http";
import { Evaluation, selectChecks } from "../dist/core/verdicts/evaluation.js";
import { registry } from "../dist/core/schemas/schema-registry.js";
import { DEFAULT_PROFILE } from "../dist/core/checks/check.js";
import { TranscriptBus } from "../dist/core/transcript/transcript.js";
import { SseReader } from "../dist/core/transport/sse-reader.js";
import { exchange } from "../dist/core/transport/http-exchange.js";
import { runSuite } from "../dist/core/run/runner.js";
import { parseJsonLines } from "../dist/core/transcript/transcript.js";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const quick = process.argv.includes("--quick");
const eventsArg = process.argv.indexOf("--events");
export const MEM_EVENTS = eventsArg >= 0 ? Number(process.argv[eventsArg + 1]) : quick ? 100_000 : 1_000_000;

export function serverChecks(protocol) {
  return selectChecks(protocol.id, protocol.checks, { side: "server" });
}

export function checkContext(protocol) {
  return {
    protocol: protocol.id,
    profile: DEFAULT_PROFILE,
    params: protocol.defaultParams,
    validate: (m, v) => registry.validate(protocol.id, m, v),
  };
}

/** POSTs `body` to `url` and reads the SSE answer, counting events ("\n\n"-terminated). */
export function readSse(url, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, agent: false }, (res) => {
      let events = 0;
      let tail = "";
      let raw = "";
      res.setEncoding("utf8");
      res.on("data", (s) => {
        if (raw.length < 4_000_000) raw += s;
        const text = tail + s;
        let from = 0;
        for (let i = text.indexOf("\n\n"); i >= 0; i = text.indexOf("\n\n", from)) {
          events++;
          from = i + 2;
        }
        tail = text.slice(from);
      });
      res.on("end", () => resolve({ events, raw }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

/** Bare baseline: node:http writing the given pre-rendered SSE events, one write each. */
export function startBareSseWriter(events) {
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

/**
 * Two servers timed in alternation, one stream each per round, after a warm-up: the machine's
 * noise (other processes, GC, CPU frequency) then falls on both alike. Each side's events/s is the
 * median over rounds, so one stalled round does not decide the row.
 */
export async function timeStreamsAlternating(kitUrl, baseUrl, body, rounds, headers) {
  const rate = async (url) => {
    const t0 = performance.now();
    const { events } = await readSse(url, body, headers);
    return (events / (performance.now() - t0)) * 1000;
  };
  for (let r = 0; r < 3; r++) await rate(baseUrl), await rate(kitUrl);
  const kit = [];
  const base = [];
  for (let r = 0; r < rounds; r++) {
    // Alternate which goes first, so neither always runs right after the other's garbage.
    if (r % 2) kit.push(await rate(kitUrl)), base.push(await rate(baseUrl));
    else base.push(await rate(baseUrl)), kit.push(await rate(kitUrl));
  }
  return { kit: medianOf(kit), base: medianOf(base) };
}

export function medianOf(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * Mock vs bare writer: captures the mock's own bytes for `body` once, serves exactly those events
 * from a bare node:http writer, and times both with the same reader.
 */
export async function mockVsBare({ name, mockUrl, path, body, headers, rounds }) {
  const sample = await readSse(mockUrl + path, body, headers);
  const events = sample.raw.split("\n\n").filter(Boolean).map((e) => `${e}\n\n`);
  if (events.length < 50) throw new Error(`${name}: the mock sent only ${events.length} events; check the bench scenario`);
  const bare = await startBareSseWriter(events);
  const bareUrl = `http://127.0.0.1:${bare.address().port}${path}`;
  const { kit, base } = await timeStreamsAlternating(mockUrl + path, bareUrl, body, rounds, headers);
  bare.close();
  return { name, kit, base, baseName: "bare node:http SSE writer", work: `${events.length} events a stream, median of ${rounds} alternating rounds` };
}

/**
 * A whole suite run against the protocol's own mock, recorded once: replayed before a checker row's
 * long stream, it gives every rule the exchanges it judges, so the row measures rules at work (the
 * row says how many checks it exercised).
 */
export async function recordedRun(protocol) {
  const dir = mkdtempSync(join(tmpdir(), "agentwire-bench-"));
  try {
    await runSuite(protocol, { saveTranscript: dir });
    const file = readdirSync(dir).find((f) => f.endsWith(".jsonl"));
    return parseJsonLines(readFileSync(join(dir, file), "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Replays `recorded`, then feeds SSE byte chunks as one more stream exchange (`label`, request
 * `body`) through every server check. Returns the milliseconds the long stream took and the results.
 */
export function feedSseChecks(protocol, { recorded = [], label, body = "{}", chunks, checks = serverChecks(protocol) }) {
  const bus = new TranscriptBus();
  const evaluation = new Evaluation(checks, checkContext(protocol));
  bus.subscribe(evaluation.observe);
  for (const ev of recorded) bus.replay(ev);
  const t0 = performance.now();
  const ref = { probe: label, exchange: "bench-long-stream", label };
  bus.emit({ kind: "http-request", ...ref, method: "POST", url: "http://bench/", path: "/", headers: { "content-type": "application/json" }, body });
  bus.emit({ kind: "http-response", ...ref, status: 200, headers: { "content-type": "text/event-stream" } });
  const reader = new SseReader(ref.probe, ref.exchange, ref.label, (e) => bus.emit(e));
  let i = 0;
  let bytes = 0;
  // As the recording client does: a chunk and the lines and events it holds share one time.
  for (const c of chunks) {
    bus.hold();
    bus.emit({ kind: "body-chunk", probe: ref.probe, exchange: ref.exchange, label: ref.label, index: i, bytes: c });
    reader.push(c, i++);
    bus.release();
    bytes += c.byteLength;
  }
  reader.end();
  bus.emit({ kind: "body-end", ...ref, reason: "eof", bytes });
  const ms = performance.now() - t0;
  return { ms, results: evaluation.finish() };
}

/** A check was exercised when it judged something (not incomplete, not skipped as not applicable). */
export function exercised(results) {
  return results.filter((r) => r.outcome !== "incomplete" && r.outcome !== "skip").length;
}

/** Fewer than this share of checks exercised makes a checker row meaningless: the bench fails. */
const MIN_EXERCISED = 0.8;

/**
 * Kit checker vs the least any checker does: decode, slice the data, JSON.parse and ajv-validate. Returns the checker
 * row and two informational rows against the same baseline: the kit's reading alone, with no check (the most the
 * checker row could ever show, since every check runs on top of that reading), and, with `oneCheck` (the id of a check
 * that judges only the stream's head), that one check alone: the reading plus the stream view's decoding of every
 * event and its facts per line, with next to no rule on top.
 */
export function checkerVsParse({ name, protocol, recorded, label, body, chunks, validate, oneCheck }) {
  const dec = new TextDecoder();
  const baseline = () => {
    const t0 = performance.now();
    let ok = 0;
    for (const c of chunks) {
      const data = dec.decode(c).slice(6, -2);
      if (data.startsWith("{") && validate(JSON.parse(data))) ok++;
    }
    if (ok < chunks.length / 2) throw new Error(`${name}: the baseline rejected the synthetic events`);
    return performance.now() - t0;
  };
  // A first pass of each warms the JIT; then both alternate and each side's median pass counts, so a
  // stalled pass on a shared machine does not decide the row.
  baseline();
  let last = feedSseChecks(protocol, { recorded, label, body, chunks });
  feedSseChecks(protocol, { label, body, chunks, checks: [] });
  const one = oneCheck === undefined ? undefined : serverChecks(protocol).filter((c) => c.id === oneCheck);
  if (one && one.length !== 1) throw new Error(`${name}: no check ${oneCheck}`);
  if (one) feedSseChecks(protocol, { recorded, label, body, chunks, checks: one });
  const kitMs = [];
  const baseMs = [];
  const readingMs = [];
  const oneMs = [];
  for (let r = 0; r < PASSES; r++) {
    baseMs.push(baseline());
    last = feedSseChecks(protocol, { recorded, label, body, chunks });
    kitMs.push(last.ms);
    readingMs.push(feedSseChecks(protocol, { label, body, chunks, checks: [] }).ms);
    if (one) oneMs.push(feedSseChecks(protocol, { recorded, label, body, chunks, checks: one }).ms);
  }
  const { results } = last;
  const n = exercised(results);
  if (n < MIN_EXERCISED * results.length) {
    const idle = results.filter((r) => r.outcome === "incomplete" || r.outcome === "skip").map((r) => r.id);
    throw new Error(`${name}: only ${n}/${results.length} checks exercised (need ${Math.round(MIN_EXERCISED * 100)}%); idle: ${idle.join(", ")}`);
  }
  const base = (chunks.length / medianOf(baseMs)) * 1000;
  return [
    { name, kit: (chunks.length / medianOf(kitMs)) * 1000, base, baseName: "JSON.parse + ajv", work: `${n}/${results.length} checks exercised, median of ${PASSES} passes` },
    { name: `${name.split(" ")[0]} reading alone, no check`, kit: (chunks.length / medianOf(readingMs)) * 1000, base, baseName: "JSON.parse + ajv", work: "informational: the checker row's ceiling (bytes → lines → events on the bus)" },
    ...(one
      ? [{ name: `${name.split(" ")[0]} one check, ${oneCheck.split("/").slice(1).join("/")}`, kit: (chunks.length / medianOf(oneMs)) * 1000, base, baseName: "JSON.parse + ajv", work: "informational: the reading, the stream view's decoding and line facts, one head rule" }]
      : []),
  ];
}

/** Records the events a conversation puts on a bus: `drive(bus)` runs it through the kit's recording client. */
export async function recordTurn(drive) {
  const bus = new TranscriptBus();
  const events = [];
  bus.subscribe((e) => events.push(e));
  await drive(bus);
  return events;
}

/**
 * Checker row of a WebSocket protocol: `turn` (events recorded by the kit's client, see recordTurn) is replayed after
 * the recorded suite run, numbered on from its last event, through every server check; the baseline parses each
 * frame of the same turn and validates it against the protocol's schemas (`validateFrame(value, ev)`: the schema
 * registry's answer for the message, or undefined for a frame no schema covers). Each pass gets fresh event objects,
 * so nothing decoded in one pass (per-event caches) is found in the next, and lets go of each event once it is fed, as
 * a live run does (nothing but the checks holds an event after its turn). Both sides start from a collected heap: the
 * replay before the kit's pass would otherwise leave its garbage to be collected inside the timed part. Frames/s.
 */
export function wsCheckerVsParse({ name, protocol, recorded, turn, validateFrame, baseName = "JSON.parse + ajv, same frames" }) {
  const last = recorded.at(-1);
  const seq0 = (last?.seq ?? -1) + 1 - turn[0].seq;
  const t0 = (last?.t ?? 0) + 100 - turn[0].t;
  const fresh = () => turn.map((e) => ({ ...e, seq: e.seq + seq0, t: e.t + t0 }));
  const frames = turn.filter((e) => e.kind === "ws-frame");
  const baseline = () => {
    const copies = frames.map((e) => ({ data: e.data, direction: e.direction }));
    collect();
    const start = performance.now();
    let ok = 0;
    let checked = 0;
    for (const e of copies) {
      if (e.data === "PING" || e.data === "PONG") continue;
      const r = validateFrame(JSON.parse(e.data), e);
      if (r === undefined) continue;
      checked++;
      if (r.ok) ok++;
    }
    const ms = performance.now() - start;
    if (ok < checked || checked < frames.length / 2) throw new Error(`${name}: the baseline validated ${ok} of ${frames.length} frames`);
    return ms;
  };
  const kitPass = () => {
    const events = fresh();
    const evaluation = new Evaluation(serverChecks(protocol), checkContext(protocol));
    for (const e of recorded) evaluation.observe(e);
    collect();
    const start = performance.now();
    for (let i = 0; i < events.length; i++) {
      const e = events[i];
      events[i] = undefined;
      evaluation.observe(e);
    }
    const ms = performance.now() - start;
    return { ms, results: evaluation.finish() };
  };
  // A turn is a few hundred frames: both sides are warmed up with several passes first, so the row measures compiled
  // code, as on a long stream, not the first passes through the checks' code.
  let pass;
  for (let r = 0; r < WS_WARM_UP; r++) baseline(), (pass = kitPass());
  const kitMs = [];
  const baseMs = [];
  for (let r = 0; r < WS_PASSES; r++) {
    if (r % 2) (pass = kitPass()), kitMs.push(pass.ms), baseMs.push(baseline());
    else baseMs.push(baseline()), (pass = kitPass()), kitMs.push(pass.ms);
  }
  const { results } = pass;
  const n = exercised(results);
  if (n < MIN_EXERCISED * results.length) {
    const idle = results.filter((r) => r.outcome === "incomplete" || r.outcome === "skip").map((r) => r.id);
    throw new Error(`${name}: only ${n}/${results.length} checks exercised (need ${Math.round(MIN_EXERCISED * 100)}%); idle: ${idle.join(", ")}`);
  }
  if (process.env.BENCH_VERBOSE) {
    const failed = results.filter((r) => r.outcome === "fail" || r.outcome === "warn").map((r) => `${r.id} (${String(r.message).slice(0, 120)})`);
    process.stderr.write(`${name}: ${frames.length} frames; not passed: ${failed.join(", ") || "none"}\n`);
  }
  return {
    name,
    kit: (frames.length / medianOf(kitMs)) * 1000,
    base: (frames.length / medianOf(baseMs)) * 1000,
    baseName,
    work: `${n}/${results.length} checks exercised, ${frames.length} frames, median of ${WS_PASSES}`,
  };
}

/** Warm-up and measured passes of a WebSocket checker row (one turn each). */
const WS_WARM_UP = 8;

/**
 * A full collection that keeps the young generation's size: a bare `gc()` also shrinks it, and the pass after it
 * would pay for growing it again with scavenges the run's steady state does not have.
 */
const collect = () => globalThis.gc?.({ type: "major" });
const WS_PASSES = 9;

/**
 * Mock row of a WebSocket protocol: `play(url)` runs one turn with a plain `ws` client and resolves to
 * `{ frames, ms }`; the mock and a bare server sending the same frames alternate, after a warm-up, and each side's
 * frames/s is the median over rounds.
 */
export async function wsMockVsBare({ name, mockUrl, bareUrl, play, rounds }) {
  const rate = async (url) => {
    const r = await play(url);
    return (r.frames / r.ms) * 1000;
  };
  for (let r = 0; r < 3; r++) await rate(bareUrl), await rate(mockUrl);
  const kit = [];
  const base = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2) kit.push(await rate(mockUrl)), base.push(await rate(bareUrl));
    else base.push(await rate(bareUrl)), kit.push(await rate(mockUrl));
  }
  return { name, kit: medianOf(kit), base: medianOf(base), baseName: "bare ws server, same frames", work: `median of ${rounds} alternating rounds` };
}

/** Measured passes of a checker row (after one warm-up pass of each side). */
const PASSES = 7;

/** Streams `n` SSE events from a bare server through recorder + every server check; RSS in MiB after GC. */
export async function rssThroughSuite(protocol, label, n, eventAt, terminal) {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "text/event-stream" });
    let i = 0;
    const pump = () => {
      while (i < n) if (!res.write(eventAt(i++))) return res.once("drain", pump);
      res.end(terminal);
    };
    pump();
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const bus = new TranscriptBus();
  const evaluation = new Evaluation(serverChecks(protocol), checkContext(protocol));
  bus.subscribe(evaluation.observe);
  await exchange(bus, {
    probe: label,
    label,
    method: "POST",
    url: `http://127.0.0.1:${server.address().port}/`,
    body: "{}",
    headers: { "content-type": "application/json" },
    stream: true,
    timeouts: { headers: 10_000, total: 600_000, close: 2000 },
    maxBytes: Number.MAX_SAFE_INTEGER,
    isTerminal: (d) => d === "[DONE]",
  });
  evaluation.finish();
  server.close();
  return rssNow();
}

export async function rssNow() {
  globalThis.gc?.();
  await new Promise((res) => setTimeout(res, 50));
  globalThis.gc?.();
  return process.memoryUsage().rss / 1024 / 1024;
}

export function memoryRow(name, small, big) {
  return { name, kit: big, base: small, baseName: "RSS MiB after 1,000 events", unit: "MiB", ratioNote: "≈1 = flat" };
}

const enc = new TextEncoder();
export const sseBytes = (data) => enc.encode(`data: ${data}\n\n`);
