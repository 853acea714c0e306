/**
 * stagewise-chat, the long-stream turn in 4-character deltas (no delays): the mock streaming it to a plain `ws`
 * client vs a bare `ws` server sending the same frames to the same client; the turn as the kit's client recorded it,
 * judged by every server check (the chat reducer included) after a recorded suite run, vs JSON.parse + ajv (the
 * tRPC response and the chat update, as the protocol's schemas have them) of the same frames; end to end
 * (informational: both costs at once), chat updates/s from the mock, and from the bare server, through the kit's
 * recording client and every check vs the bare server to a plain client; RSS after 10^3 vs 10^6 message-updated
 * deltas through recorder and checks (the run fails above 2x).
 */
import { WebSocketServer, WebSocket } from "ws";
import { PROTOCOLS } from "../dist/protocols.js";
import { Evaluation } from "../dist/core/verdicts/evaluation.js";
import { TranscriptBus } from "../dist/core/transcript/transcript.js";
import { openWs } from "../dist/core/transport/ws-exchange.js";
import { registry } from "../dist/core/schemas/schema-registry.js";
import { checkContext, exercised, memoryRow, MEM_EVENTS, quick, recordedRun, recordTurn, rssNow, serverChecks, wsCheckerVsParse, wsMockVsBare } from "./common.js";

const protocol = PROTOCOLS.find((p) => p.id === "stagewise-chat");
const ORIGIN = "http://localhost:3000";
const VOID = { json: null, meta: { values: ["undefined"] } };
const SUBSCRIBE = JSON.stringify({ id: 1, method: "subscription", params: { path: "chat.getChatUpdates", input: VOID } });
const METADATA = {
  currentUrl: `${ORIGIN}/`,
  currentTitle: "App",
  currentZoomLevel: 1,
  viewportResolution: { width: 1280, height: 800 },
  devicePixelRatio: 1,
  userAgent: "bench",
  locale: "en",
  selectedElements: [],
};
/**
 * What the baseline validates of a frame: a server message as a tRPC response, and the chat update its data carries;
 * the toolbar's own requests as tRPC requests.
 */
function validateFrame(v, ev) {
  if (ev.direction === "out") return registry.validate("stagewise-chat", "trpc-request", v);
  const r = registry.validate("stagewise-chat", "trpc-response", v);
  const update = v.id === 1 && v.result?.type === "data" ? v.result.data?.json?.data : undefined;
  return r.ok && update !== undefined ? registry.validate("stagewise-chat", "chat-update", update) : r;
}

/** The event id a frame's text carries as a decimal string (a chat subscription's tracked value), else undefined. */
function eventIdOf(v) {
  const id = v?.result?.type === "data" ? v.result.id : undefined;
  return typeof id === "string" && /^\d+$/.test(id) ? Number(id) : undefined;
}

/**
 * The turn as if the agent of the recorded run had gone on: its chat event ids renumbered to follow the run's last.
 * The turn comes from another mock, whose ids start again from low numbers; left as they are, the same id would name
 * two different updates on two subscriptions (chat/seq-global's finding) in every frame, and the row would time the
 * building of failure messages no conformant server causes.
 */
export function continueIds(turn, recorded) {
  let last = -1;
  for (const e of recorded) {
    if (e.kind !== "ws-frame" || e.direction !== "in" || !e.data.startsWith("{")) continue;
    const id = eventIdOf(JSON.parse(e.data));
    if (id !== undefined && id > last) last = id;
  }
  let first;
  for (const e of turn) {
    if (e.kind !== "ws-frame" || e.direction !== "in" || !e.data.startsWith("{")) continue;
    const id = eventIdOf(JSON.parse(e.data));
    if (id !== undefined && (first === undefined || id < first)) first = id;
  }
  if (first === undefined) throw new Error("stagewise-chat bench: the turn carried no chat event id");
  const shift = last + 1 - first;
  return turn.map((e) => {
    if (e.kind !== "ws-frame" || e.direction !== "in" || !e.data.startsWith("{")) return e;
    const v = JSON.parse(e.data);
    const id = eventIdOf(v);
    if (id === undefined) return e;
    const next = String(id + shift);
    if (v.result.data?.json?.id === v.result.id) v.result.data.json.id = next;
    v.result.id = next;
    const data = JSON.stringify(v);
    return { ...e, data, bytes: Buffer.byteLength(data) };
  });
}

/** Fewer than this share of checks exercised makes the row meaningless (as in common.js). */
const MIN_EXERCISED = 0.8;

/** The chat update a frame of subscription 1 carries, if any. */
function updateOf(text) {
  if (!text.startsWith("{")) return undefined;
  const v = JSON.parse(text);
  return v.id === 1 && v.result?.type === "data" ? v.result.data?.json?.data : undefined;
}

/**
 * Follows one turn from the subscription's frames: after the snapshot it asks for the turn (`send`), and it is done
 * when the agent is idle again after working. Returns the function to feed each frame's text to.
 */
function turnFollower(send, done) {
  let snapshot = true;
  let worked = false;
  let chatId;
  return (text) => {
    const u = updateOf(text);
    if (!u) return;
    if (u.type === "chat-list") chatId = u.chats.find((c) => c.isActive)?.id;
    if (u.type !== "agent-state") return;
    if (snapshot) {
      snapshot = false;
      return send(chatId);
    }
    if (u.isWorking) worked = true;
    else if (worked) done();
  };
}

const sendMessage = (chatId) =>
  JSON.stringify({ id: 2, method: "mutation", params: { path: "chat.sendMessage", input: { json: { chatId, content: [{ type: "text", text: "scenario:long-stream bench" }], metadata: METADATA } } } });

/** One turn through the kit's recording client with every server check observing; returns frames and ms. */
async function turnThroughKit(wsUrl, recorded) {
  const bus = new TranscriptBus();
  const evaluation = new Evaluation(serverChecks(protocol), checkContext(protocol));
  bus.subscribe(evaluation.observe);
  for (const ev of recorded) bus.replay(ev);
  const { frames, ms } = await turnOn(bus, wsUrl);
  return { frames, ms, results: evaluation.finish() };
}

/** One turn through the kit's recording client on `bus`; returns the frames read and the ms from the upgrade on. */
async function turnOn(bus, wsUrl) {
  const t0 = performance.now();
  const opened = await openWs(bus, { probe: "bench", label: "main", url: wsUrl, headers: { origin: ORIGIN }, openTimeout: 5000 });
  if (!opened.ok) throw new Error(`stagewise-chat bench: upgrade refused (${opened.status ?? opened.error})`);
  const conn = opened.conn;
  let frames = 0;
  await new Promise((resolve) => {
    const follow = turnFollower((chatId) => conn.sendRaw(sendMessage(chatId), { label: "send" }), resolve);
    conn.onMessage((m) => {
      frames++;
      follow(m.frame.data);
    });
    conn.sendRaw(SUBSCRIBE, { label: "sub:chat:A" });
  });
  const ms = performance.now() - t0;
  await conn.close();
  return { frames, ms };
}

/** The same through a plain `ws` client: no recording, no checks. `record` keeps the frames. */
function turnPlain(wsUrl, record) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const ws = new WebSocket(wsUrl, { headers: { origin: ORIGIN } });
    let frames = 0;
    const follow = turnFollower(
      (chatId) => ws.send(sendMessage(chatId)),
      () => {
        ws.close();
        resolve({ frames, ms: performance.now() - t0 });
      },
    );
    ws.on("open", () => ws.send(SUBSCRIBE));
    ws.on("message", (data) => {
      const text = data.toString();
      if (text === "PING") return ws.send("PONG");
      frames++;
      record?.push(text);
      follow(text);
    });
    ws.on("error", reject);
  });
}

/** Bare baseline server: answers the subscription with the recorded frames, as fast as `ws` sends. */
function bareServer(frames) {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, path: "/stagewise/ws" });
  wss.on("connection", (ws) => ws.on("message", (d) => String(d).includes('"subscription"') && frames.forEach((f) => ws.send(f))));
  return new Promise((resolve) => wss.on("listening", () => resolve(wss)));
}

async function rate(fn, rounds) {
  let frames = 0;
  let ms = 0;
  let last;
  for (let i = 0; i < rounds; i++) {
    last = await fn();
    frames += last.frames;
    ms += last.ms;
  }
  return { perSecond: (frames / ms) * 1000, last };
}

/** Streams a snapshot and n message-updated appends from a bare server through the recorder and every check. */
export async function rssAfter(n) {
  const at = "2025-08-08T10:00:00.000Z";
  const tracked = (seq, data) => JSON.stringify({ id: 1, result: { type: "data", id: String(seq), data: { json: { id: String(seq), data } } } });
  const user = { id: "u1", role: "user", createdAt: at, content: [{ type: "text", text: "hi" }], metadata: METADATA };
  const assistant = { id: "a1", role: "assistant", createdAt: at, content: [] };
  const chat = { id: "c1", title: "Bench", createdAt: at, isActive: true };
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, path: "/stagewise/ws" });
  await new Promise((r) => wss.on("listening", r));
  wss.on("connection", (ws) =>
    ws.on("message", async (d) => {
      if (!String(d).includes('"subscription"')) return;
      ws.send(JSON.stringify({ id: 1, result: { type: "started" } }));
      ws.send(tracked(0, { type: "chat-list", chats: [{ ...chat, messageCount: 1 }] }));
      ws.send(tracked(0, { type: "chat-full-sync", chat: { ...chat, messages: [user] } }));
      ws.send(tracked(0, { type: "agent-state", isWorking: false }));
      ws.send(tracked(1, { type: "agent-state", isWorking: true }));
      ws.send(tracked(2, { type: "message-added", chatId: "c1", message: assistant }));
      ws.send(tracked(3, { type: "message-updated", chatId: "c1", update: { messageId: "a1", partIndex: 0, updateType: "create", content: { type: "text", text: "" } } }));
      let seq = 3;
      for (let i = 0; i < n; i++) {
        ws.send(tracked(++seq, { type: "message-updated", chatId: "c1", update: { messageId: "a1", partIndex: 0, updateType: "append", content: { type: "text", text: "x" } } }));
        // Wait for the socket to drain now and then: the server side must not buffer the run (RSS is the kit's).
        if (i % 1000 === 999) while (ws.bufferedAmount > 1 << 20) await new Promise((r) => setTimeout(r, 1));
      }
      ws.send(tracked(++seq, { type: "agent-state", isWorking: false }));
    }),
  );
  const bus = new TranscriptBus();
  const evaluation = new Evaluation(serverChecks(protocol), checkContext(protocol));
  bus.subscribe(evaluation.observe);
  const opened = await openWs(bus, { probe: "bench", label: "main", url: `ws://127.0.0.1:${wss.address().port}/stagewise/ws`, headers: { origin: ORIGIN }, openTimeout: 5000 });
  if (!opened.ok) throw new Error("stagewise-chat bench: the bare server refused the upgrade");
  const conn = opened.conn;
  await new Promise((resolve) => {
    let seen = 0;
    conn.onMessage((m) => {
      if (++seen >= n + 8) resolve();
    });
    conn.sendRaw(SUBSCRIBE, { label: "sub:chat:A" });
  });
  await conn.close();
  evaluation.finish();
  wss.close();
  return rssNow();
}

/** The checks a kit run exercised, as the row's work; fewer than the minimum makes the row meaningless. */
function exercisedWork(results) {
  const n = exercised(results);
  if (n < MIN_EXERCISED * results.length) {
    const idle = results.filter((r) => r.outcome === "incomplete" || r.outcome === "skip").map((r) => r.id);
    throw new Error(`stagewise-chat bench: only ${n}/${results.length} checks exercised; idle: ${idle.join(", ")}`);
  }
  return `${n}/${results.length} checks exercised`;
}

export async function benchStagewiseChat() {
  const rows = [];
  const recorded = await recordedRun(protocol);
  // The long-stream turn in 4-character deltas, with no delays (the mock emits them in one burst, up to 1024 a turn).
  const mock = await protocol.startMock({ host: "127.0.0.1", port: 0, settings: { firstDelayMs: 0, chunkDelayMs: 0, chunkSize: 4 } });
  const wsUrl = `${mock.url.replace(/^http/, "ws")}/stagewise/ws`;
  const frames = [];
  await turnPlain(wsUrl, frames);
  if (frames.length < 300) throw new Error(`stagewise-chat bench: the long-stream turn sent only ${frames.length} frames`);
  const bare = await bareServer(frames);
  const bareUrl = `ws://127.0.0.1:${bare.address().port}/stagewise/ws`;
  const rounds = quick ? 5 : 20;
  const turn = continueIds(await recordTurn((bus) => turnOn(bus, wsUrl)), recorded);
  const mockRow = await wsMockVsBare({ name: "stagewise-chat mock frames/s", mockUrl: wsUrl, bareUrl, play: (url) => turnPlain(url), rounds: quick ? 10 : 40 });
  rows.push({ ...mockRow, work: `${frames.length} frames a turn, ${mockRow.work}` });
  rows.push(wsCheckerVsParse({ name: "stagewise-chat checker frames/s", protocol, recorded, turn, validateFrame }));
  await rate(() => turnPlain(bareUrl), 2);
  await rate(() => turnThroughKit(wsUrl, recorded), 2);
  await rate(() => turnThroughKit(bareUrl, recorded), 2);
  const base = await rate(() => turnPlain(bareUrl), rounds);
  const viaMock = await rate(() => turnThroughKit(wsUrl, recorded), rounds);
  const viaBare = await rate(() => turnThroughKit(bareUrl, recorded), rounds);
  bare.close();
  await mock.close();
  const baseName = "bare ws server, plain client";
  rows.push({ name: "stagewise-chat mock → checks updates/s", kit: viaMock.perSecond, base: base.perSecond, baseName, work: `end to end (informational), ${exercisedWork(viaMock.last.results)}` });
  // The same frames from the bare server: the kit's recording client and checks alone.
  rows.push({ name: "stagewise-chat bare → checks updates/s", kit: viaBare.perSecond, base: base.perSecond, baseName, work: `informational, ${exercisedWork(viaBare.last.results)}` });

  const small = await rssAfter(1_000);
  const big = await rssAfter(MEM_EVENTS);
  if (big > 2 * small) throw new Error(`stagewise-chat bench: RSS grew from ${small.toFixed(0)} MiB after 1,000 updates to ${big.toFixed(0)} MiB after ${MEM_EVENTS}`);
  rows.push(memoryRow(`stagewise-chat RSS after ${MEM_EVENTS.toLocaleString("en")} message-updated`, small, big));
  return rows;
}
