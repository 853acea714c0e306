/**
 * continue-remote: the mock answering GET /state vs a bare server sending the same bytes; the
 * checker judging a poll series whose history grows to 10^4 entries vs JSON.parse + ajv of the
 * same /state bodies; RSS after 10^5 polls vs 10^3 (the poll series keeps only the last snapshot).
 */
import http from "node:http";
import { PROTOCOLS } from "../dist/protocols.js";
import { Evaluation } from "../dist/core/verdicts/evaluation.js";
import { registry } from "../dist/core/schemas/schema-registry.js";
import { TranscriptBus } from "../dist/core/transcript/transcript.js";
import { exchange } from "../dist/core/transport/http-exchange.js";
import { checkContext, exercised, medianOf, quick, recordedRun, rssNow, serverChecks } from "./common.js";

const protocol = PROTOCOLS.find((p) => p.id === "continue-remote");

// ---------------------------------------------------------------------------------------------
// A synthetic session, as a seed server shows it: turns of user, streaming assistant text, a tool
// call (start, then its result appended), a final streaming answer. Each step is one poll.

const TOOLS = [
  ["Read", "read_file", "README.md", "# My Project\n\nRun `npm install`"],
  ["Bash", "run_terminal_command", "ls -la", "total 8\n-rw-r--r-- 1 user user 120 Jan  1 00:00 README.md"],
  ["Search", "search_code", "TODO", "src/a.ts:3: // TODO é 漢 🙂"],
];
const WORDS = "the quick brown fox reads the file and lists the directory before it answers".split(" ");

/**
 * Yields `{ history, isProcessing, message? }` per poll: `message` is set on the poll right after a
 * POST /message started the turn. `history` is the live array (copy it if kept). `chunks` polls per
 * streaming answer; `idle` idle polls between turns.
 */
function* session({ chunks, idle }) {
  const history = [];
  for (let turn = 0; ; turn++) {
    const message = `turn ${turn}: read, list, search é 漢 🙂`;
    history.push({ role: "user", content: message });
    const stream = function* (first) {
      const entry = { role: "assistant", content: "", isStreaming: true };
      history.push(entry);
      for (let c = 0; c < chunks; c++) {
        history[history.length - 1] = { ...entry, content: (entry.content += `${WORDS[(turn + c) % WORDS.length]} `) };
        yield { history, isProcessing: true, ...(first && c === 0 ? { message } : {}) };
      }
      history[history.length - 1] = { role: "assistant", content: entry.content, isStreaming: false };
    };
    yield* stream(true);
    const [display, toolName, arg, result] = TOOLS[turn % TOOLS.length];
    history.push({ role: "system", content: `○ ${display}(${arg})`, messageType: "tool-start", toolName });
    yield { history, isProcessing: true };
    history.push({ role: "system", content: `● ${display}(${arg})`, messageType: "tool-result", toolName, toolResult: result });
    yield* stream(false);
    for (let i = 0; i < idle; i++) yield { history, isProcessing: false };
  }
}

const body = (s) => JSON.stringify({ chatHistory: s.history, isProcessing: s.isProcessing, messageQueueLength: 0, pendingPermission: null });

/**
 * The checker row's poll series: a watcher that polls rarely while 10^4 entries pile up (a few large
 * steps), then follows a few live turns poll by poll at 10^4 entries. Returns the /state bodies and
 * the POST /message texts that start turns (by poll index).
 */
function longSeries(entries, livePolls, prefix) {
  // Catch-up: only idle snapshots, each a twentieth of the history further on.
  const bodies = [];
  const sends = new Map();
  const old = session({ chunks: 1, idle: 1 });
  const catchUp = 20;
  for (let i = 0; ; ) {
    const s = old.next().value;
    if (s.isProcessing || s.history.at(-1)?.isStreaming) continue;
    if (s.history.length >= ((i + 1) * entries) / catchUp) {
      bodies.push(body({ ...s, history: [...prefix, ...s.history] }));
      if (++i === catchUp) break;
    }
  }
  // Live: new turns appended to the caught-up history, every streaming step polled.
  const live = session({ chunks: 20, idle: 5 });
  const base = JSON.parse(bodies.at(-1)).chatHistory;
  for (let i = 0; i < livePolls; i++) {
    const s = live.next().value;
    if (s.message) sends.set(bodies.length, s.message);
    bodies.push(body({ history: [...base, ...s.history], isProcessing: s.isProcessing }));
  }
  return { bodies, sends };
}

/** Transcript events of the series, numbered on from `seq`/`t`: one poll each 100 ms, answered in 2 ms. */
function seriesEvents(bodies, sends, seq, t) {
  const out = [];
  let x = 0;
  const ev = (e) => out.push({ ...e, seq: seq++, t });
  const ex = (label, method, path, text, requestBody) => {
    const ref = { probe: "bench", exchange: `bench-${++x}`, label };
    ev({ kind: "http-request", ...ref, method, url: `http://127.0.0.1:8000${path}`, path, headers: {}, ...(requestBody ? { body: requestBody } : {}) });
    t += 2;
    ev({ kind: "http-response", ...ref, status: 200, headers: { "content-type": "application/json; charset=utf-8" } });
    ev({ kind: "body-end", ...ref, reason: "eof", bytes: Buffer.byteLength(text), text });
    t += 98;
  };
  bodies.forEach((b, i) => {
    const m = sends.get(i);
    if (m !== undefined) {
      ev({ kind: "note", probe: "bench", name: "sending", value: { label: "message:bench", busy: false } });
      ex("message:bench", "POST", "/message", JSON.stringify({ queued: true, position: 1 }), JSON.stringify({ message: m }));
    }
    ex("state:bench", "GET", "/state", b);
  });
  return { events: out, seq, t };
}

/** The recorded run with the events `make` returns spliced in before the exit probe (polls after exit would find nothing listening). */
function splice(recorded, make) {
  const at = recorded.findIndex((e) => e.probe === "exit");
  const cut = at >= 0 ? at : recorded.length;
  const before = recorded.slice(0, cut);
  const last = before.at(-1);
  const { events, seq, t } = make(last.seq + 1, last.t + 100);
  const after = recorded.slice(cut).map((e) => ({ ...e, seq: e.seq - last.seq - 1 + seq, t: e.t - last.t - 100 + t }));
  // The exit probe's own polls show the history as the series left it.
  const history = JSON.parse(events.findLast((e) => e.kind === "body-end" && e.label.startsWith("state:")).text).chatHistory;
  for (const e of after) {
    if (e.kind !== "body-end" || !e.label.startsWith("state:") || !e.text?.startsWith("{")) continue;
    e.text = JSON.stringify({ ...JSON.parse(e.text), chatHistory: history });
    e.bytes = Buffer.byteLength(e.text);
  }
  return { before, events, after };
}

/** Fewer than this share of checks exercised makes the checker row meaningless (as in common.js). */
const MIN_EXERCISED = 0.8;

function checkerRow(recorded, entries, livePolls) {
  // The series goes on from the recorded run's last snapshot, so the history stays append-only.
  const lastPoll = recorded.findLast((e) => e.kind === "body-end" && e.label.startsWith("state:") && e.text?.startsWith("{"));
  const { bodies, sends } = longSeries(entries, livePolls, JSON.parse(lastPoll.text).chatHistory);
  const last = JSON.parse(bodies.at(-1)).chatHistory.length;
  // The kit's own compiled ajv validator of state-response (its schemas $ref each other).
  const validate = (v) => registry.validate("continue-remote", "state-response", v);
  // Baseline: what any checker must do with a poll — parse it and validate it.
  const t0 = performance.now();
  let ok = 0;
  let why = "";
  for (const b of bodies) {
    const r = validate(JSON.parse(b));
    if (r.ok) ok++;
    else why ||= JSON.stringify(r).slice(0, 300);
  }
  const baseMs = performance.now() - t0;
  if (ok < bodies.length) throw new Error(`continue-remote bench: the baseline rejected ${bodies.length - ok} synthetic snapshots (${why})`);

  const { before, events, after } = splice(recorded, (seq, t) => seriesEvents(bodies, sends, seq, t));
  const evaluation = new Evaluation(serverChecks(protocol), checkContext(protocol));
  for (const e of before) evaluation.observe(e);
  const t1 = performance.now();
  for (const e of events) evaluation.observe(e);
  const ms = performance.now() - t1;
  for (const e of after) evaluation.observe(e);
  const results = evaluation.finish();
  const n = exercised(results);
  if (n < MIN_EXERCISED * results.length) {
    const idle = results.filter((r) => r.outcome === "incomplete" || r.outcome === "skip").map((r) => r.id);
    throw new Error(`continue-remote checker: only ${n}/${results.length} checks exercised; idle: ${idle.join(", ")}`);
  }
  const failed = results.filter((r) => r.outcome === "fail" || r.outcome === "warn").map((r) => `${r.id} (${String(r.message).slice(0, 120)})`);
  if (process.env.BENCH_VERBOSE) process.stderr.write(`continue-remote checker: ${bodies.length} polls, last history ${last}; not passed: ${failed.join(", ") || "none"}\n`);
  return {
    name: `continue-remote checker polls/s, ${Math.round(last / 1000)}k entries`,
    kit: (bodies.length / ms) * 1000,
    base: (bodies.length / baseMs) * 1000,
    baseName: "JSON.parse + ajv of /state",
    work: `${n}/${results.length} checks exercised`,
    failed,
  };
}

// ---------------------------------------------------------------------------------------------
// Memory: `polls` GET /state through the kit's recorder and every server check, from a bare server
// that plays the session: mostly idle polls, with a short turn now and then, so the history stays
// a few hundred entries long at 10^5 polls and the row measures what polling keeps, not the cost
// of a history that grows with the run.

async function rssAfterPolls(polls) {
  const steps = session({ chunks: 4, idle: 600 });
  const server = http.createServer((req, res) => {
    req.resume();
    const text = body(steps.next().value);
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
    res.end(text);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const bus = new TranscriptBus();
  const evaluation = new Evaluation(serverChecks(protocol), checkContext(protocol));
  bus.subscribe(evaluation.observe);
  const url = `http://127.0.0.1:${server.address().port}/state`;
  for (let i = 0; i < polls; i++) {
    await exchange(bus, { probe: "bench", label: "state:bench", method: "GET", url, timeouts: { headers: 10_000, total: 10_000, close: 2000 } });
  }
  evaluation.finish();
  server.close();
  return rssNow();
}

// ---------------------------------------------------------------------------------------------
// Mock: GET /state per second, against node:http sending the same bytes, one keep-alive client.

function getText(url, agent) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (s) => (text += s));
        res.on("end", () => resolve({ text, headers: res.headers }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/**
 * GETs/s of two servers, each on its own keep-alive client, timed in alternating blocks after a
 * warm-up (the block order turning each time), so the machine's noise falls on both alike.
 */
async function getsPerSecondAlternating(kitUrl, baseUrl, rounds) {
  const sides = [kitUrl, baseUrl].map((url) => ({ url, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }), rates: [] }));
  for (const s of sides) for (let i = 0; i < 200; i++) await getText(s.url, s.agent);
  const per = Math.ceil(rounds / BLOCKS);
  for (let b = 0; b < BLOCKS; b++) {
    for (const s of b % 2 ? [...sides].reverse() : sides) {
      const t0 = performance.now();
      for (let i = 0; i < per; i++) await getText(s.url, s.agent);
      s.rates.push((per / (performance.now() - t0)) * 1000);
    }
  }
  for (const s of sides) s.agent.destroy();
  // Each side's median block: a block that a stall of the shared machine fell on does not decide the row.
  return sides.map((s) => medianOf(s.rates));
}

const BLOCKS = 20;

async function mockRow(rounds) {
  const mock = await protocol.startMock({ host: "127.0.0.1", port: 0, settings: { thinkMs: 0, chunkMs: 0, gapMs: 0, toolMs: 0 } });
  // One finished turn, so the snapshot has a history to serialise.
  await fetch(`${mock.url}/message`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "Read the README file" }) }).then((r) => r.arrayBuffer());
  const deadline = Date.now() + 10_000;
  let sample;
  do {
    sample = await getText(`${mock.url}/state`);
    if (Date.now() > deadline) throw new Error("continue-remote bench: the mock's turn did not end within 10 s");
  } while (JSON.parse(sample.text).isProcessing || JSON.parse(sample.text).chatHistory.length < 2);
  const bytes = sample.text;
  const bare = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": sample.headers["content-type"], "content-length": Buffer.byteLength(bytes) });
    res.end(bytes);
  });
  await new Promise((r) => bare.listen(0, "127.0.0.1", r));
  const [kit, base] = await getsPerSecondAlternating(`${mock.url}/state`, `http://127.0.0.1:${bare.address().port}/state`, rounds);
  bare.close();
  await mock.close();
  return { name: "continue-remote mock GET /state/s", kit, base, baseName: "bare node:http, same bytes", work: `${Buffer.byteLength(bytes)} B snapshot, median of ${BLOCKS} alternating blocks` };
}

export async function benchContinueRemote() {
  const rows = [];
  rows.push(await mockRow(quick ? 2_000 : 10_000));

  const recorded = await recordedRun(protocol);
  const { failed, ...checker } = checkerRow(recorded, 10_000, quick ? 60 : 300);
  rows.push(checker);

  const bigPolls = quick ? 20_000 : 100_000;
  const small = await rssAfterPolls(1_000);
  const big = await rssAfterPolls(bigPolls);
  // The poll series keeps one snapshot per series: memory must not follow the number of polls.
  if (big > 2 * small) throw new Error(`continue-remote bench: RSS grew from ${small.toFixed(0)} MiB after 1,000 polls to ${big.toFixed(0)} MiB after ${bigPolls}`);
  rows.push({ name: `continue-remote RSS after ${bigPolls.toLocaleString("en")} polls`, kit: big, base: small, baseName: "RSS MiB after 1,000 polls", unit: "MiB" });
  return rows;
}
