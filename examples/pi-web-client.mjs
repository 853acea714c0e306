#!/usr/bin/env node
// A small pi-web client for `agentwire test-client pi-web -- node examples/pi-web-client.mjs`.
//
// It behaves like the web UI of `pi --mode web`: connects to /ws with an allowed Origin, syncs
// (get_state, list_sessions, get_messages, get_context_usage), sends a prompt and follows the
// events to agent_end, steers and queues a follow-up during a `queue` run, answers the dialogs of
// `ext-dialogs` (and only the dialogs), and re-reads state and history. Each `--broken NAME` makes
// it commit one client mistake, so the kit's client checks can be seen failing on a real process.
import WebSocket from "ws";

const BROKEN = {
  "wrong-path": "first try the upgrade on /socket (refused with 404)",
  "no-origin": "first try the upgrade without an Origin header (refused with 403)",
  "binary-frame": "send get_messages in a binary frame",
  "invalid-command": 'send list_sessions with scope "global"',
  "unknown-command": 'send an undocumented command {type:"bash"}',
  "extra-field": "send get_state with an undocumented field",
  "no-id": "send get_context_usage without an id",
  "reuse-id": "reuse the id of a prompt that is still pending (scenario silent-command)",
  "reply-to-notify": "answer the fire-and-forget notify request",
  "reply-unknown-id": "answer a dialog id the server never sent",
  "confirm-with-value": 'answer the confirm dialog with value instead of confirmed',
  "reply-twice": "answer the confirm dialog twice",
  "select-unlisted": 'answer the select dialog with "delta", not one of its options',
  "no-streaming-behavior": "steer mid-run without streamingBehavior",
  "no-resync": "after a server shutdown, reconnect but send only get_state",
};

const USAGE = `usage: node examples/pi-web-client.mjs [--broken NAME] [--step-timeout MS] [--url URL] [--origin ORIGIN]

Plays the pi-web client against the server at PI_WEB_URL (ws://host:port/ws[?token=…]), or at
AGENTWIRE_URL (http://host:port → ws://host:port/ws). PI_WEB_TOKEN adds ?token=.
  --broken NAME        commit one client mistake (repeatable):
${Object.entries(BROKEN).map(([k, v]) => `                         ${k.padEnd(22)} ${v}`).join("\n")}
  --step-timeout MS    give up on any one step after MS milliseconds (default 15000)
  --url URL            the WebSocket URL (over PI_WEB_URL / AGENTWIRE_URL)
  --origin ORIGIN      the Origin header (default http://<host>:<port> of the URL)
  --robustness         also run the contract's §8 robustness cases (other scenarios, aborts,
                       session switch mid-run, garbage frames, extra sockets)
  --no-shutdown        skip the server-shutdown step (reconnect and resync)
  --help               show this help`;

function parseArgs(argv) {
  const opts = { broken: new Set(), stepTimeoutMs: 15_000, url: undefined, origin: undefined, shutdown: true, robustness: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes("=") ? arg.split(/=(.*)/s) : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "--help" || flag === "-h") return { help: true };
    else if (flag === "--broken") {
      const name = value();
      if (!Object.hasOwn(BROKEN, name ?? "")) return { error: `unknown --broken "${name}"` };
      opts.broken.add(name);
    } else if (flag === "--step-timeout") opts.stepTimeoutMs = Number(value());
    else if (flag === "--url") opts.url = value();
    else if (flag === "--origin") opts.origin = value();
    else if (flag === "--no-shutdown") opts.shutdown = false;
    else if (flag === "--robustness") opts.robustness = true;
    else return { error: `unknown argument: ${arg}` };
  }
  if (!(opts.stepTimeoutMs > 0)) return { error: "--step-timeout needs a positive number" };
  return opts;
}

/** The /ws URL from --url, PI_WEB_URL or AGENTWIRE_URL, with PI_WEB_TOKEN as ?token=. */
function wsUrl(opts) {
  const raw = opts.url || process.env.PI_WEB_URL || process.env.AGENTWIRE_URL;
  if (!raw) return undefined;
  const url = new URL(raw);
  if (url.protocol === "http:") url.protocol = "ws:";
  else if (url.protocol === "https:") url.protocol = "wss:";
  if (url.pathname === "/" || url.pathname === "") url.pathname = "/ws";
  const token = process.env.PI_WEB_TOKEN;
  if (token && !url.searchParams.has("token")) url.searchParams.set("token", token);
  return url;
}

const opts = parseArgs(process.argv.slice(2));
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
if (opts.error) {
  console.error(`${opts.error}\n\n${USAGE}`);
  process.exit(2);
}
const URL_WS = wsUrl(opts);
if (!URL_WS) {
  console.error(`PI_WEB_URL (or AGENTWIRE_URL) is not set\n\n${USAGE}`);
  process.exit(2);
}
const ORIGIN = opts.origin ?? `http://${URL_WS.host}`;
const broken = (name) => opts.broken.has(name);
const log = (line) => console.error(`[pi-web-client] ${line}`);
const REQUEST_TIMEOUT_MS = 30_000;
/** How long past agent_start --broken no-streaming-behavior waits before its steer (see there). */
const BROKEN_STEER_DELAY_MS = 300;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class TimeoutError extends Error {}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new TimeoutError(`timed out after ${ms} ms: ${what}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Tries one upgrade that the server is expected to refuse; resolves with the status. */
function refusedUpgrade(url, headers) {
  return withTimeout(
    new Promise((resolve) => {
      const ws = new WebSocket(url, { headers });
      ws.on("unexpected-response", (_req, res) => {
        resolve(res.statusCode);
        res.resume();
        ws.terminate();
      });
      ws.on("open", () => {
        resolve(101);
        ws.close(1000);
      });
      ws.on("error", () => resolve(0));
    }),
    opts.stepTimeoutMs,
    `upgrade on ${url}`,
  );
}

/**
 * One connection: correlates responses by id (the first response wins), keeps every event so a
 * step can wait for one that arrived before it started waiting, tracks the run state, and
 * answers extension UI dialogs.
 */
class Connection {
  constructor(url) {
    this.url = url;
    this.events = [];
    this.waiters = [];
    this.pending = new Map();
    this.running = false;
    this.dialogs = [];
    this.unmatched = [];
    this.closed = undefined;
  }

  open() {
    return withTimeout(
      new Promise((resolve, reject) => {
        // maxFragments 0: no limit on continuation frames, like a browser (`ws` defaults to
        // 16384, which `--fragment 7 --large-frames` exceeds); messages stay capped at 100 MiB.
        const ws = new WebSocket(this.url, { headers: { origin: ORIGIN }, maxFragments: 0 });
        this.ws = ws;
        ws.on("open", () => resolve(this));
        ws.on("unexpected-response", (_req, res) => {
          res.resume();
          reject(new Error(`upgrade refused with ${res.statusCode}`));
        });
        ws.on("error", (e) => reject(e));
        ws.on("message", (data, isBinary) => this.onFrame(data, isBinary));
        ws.on("close", (code, reason) => this.onClose(code, reason.toString()));
      }),
      opts.stepTimeoutMs,
      `connect to ${this.url}`,
    );
  }

  onFrame(data, isBinary) {
    // Like the web UI: drop binary frames, invalid JSON and non-objects.
    if (isBinary) return;
    let msg;
    try {
      msg = JSON.parse(data.toString("utf8"));
    } catch {
      return;
    }
    if (msg === null || typeof msg !== "object" || Array.isArray(msg)) return;
    if (msg.type === "response") {
      const p = typeof msg.id === "string" ? this.pending.get(msg.id) : undefined;
      if (p) {
        this.pending.delete(msg.id);
        p.resolve(msg);
      } else if (msg.id === undefined) this.unmatched.shift()?.(msg);
      return;
    }
    if (msg.type === "agent_start" || msg.type === "auto_retry_start") this.running = true;
    if (msg.type === "agent_end" || msg.type === "session_changed") this.running = false;
    if (msg.type === "extension_ui_request") this.onUiRequest(msg);
    this.events.push(msg);
    for (const w of [...this.waiters]) w();
  }

  onClose(code, reason) {
    this.closed = { code, reason };
    for (const [id, p] of this.pending) p.reject(new Error(`connection closed (${code} ${reason}) before the response to ${id}`));
    this.pending.clear();
    for (const w of [...this.waiters]) w();
  }

  /** Where the event log ends now: wait for events after this mark. */
  mark() {
    return this.events.length;
  }

  /** Waits for an event after `from` that satisfies `pred`. */
  waitFor(pred, from, what, ms = opts.stepTimeoutMs) {
    let check;
    const found = new Promise((resolve, reject) => {
      let i = from;
      check = () => {
        for (; i < this.events.length; i++) {
          if (pred(this.events[i])) return resolve(this.events[i]);
        }
        if (this.closed) reject(new Error(`connection closed (${this.closed.code}) while waiting for ${what}`));
      };
      this.waiters.push(check);
      check();
    });
    return withTimeout(found, ms, what).finally(() => {
      this.waiters = this.waiters.filter((w) => w !== check);
    });
  }

  sendRaw(obj, binary = false) {
    const text = JSON.stringify(obj);
    this.ws.send(binary ? Buffer.from(text, "utf8") : text, { binary });
  }

  /** Sends a command with a fresh id and resolves with its first response (30 s, as the web UI). */
  request(command, { binary = false, id = nextId() } = {}) {
    const msg = { id, ...command };
    const response = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
    });
    this.sendRaw(msg, binary);
    return withTimeout(response, Math.min(REQUEST_TIMEOUT_MS, opts.stepTimeoutMs), `Request timed out: ${command.type}`).finally(() => this.pending.delete(id));
  }

  onUiRequest(req) {
    const reply = (answer) => this.sendRaw({ type: "extension_ui_response", id: req.id, ...answer });
    if (broken("reply-to-notify") && req.method === "notify") reply({ value: "ok" });
    switch (req.method) {
      case "confirm":
        if (broken("confirm-with-value")) reply({ value: "yes" });
        else reply({ confirmed: true });
        if (broken("reply-twice")) reply({ confirmed: false });
        if (broken("reply-unknown-id")) this.sendRaw({ type: "extension_ui_response", id: `${req.id}-unknown`, confirmed: true });
        break;
      case "select": {
        const options = Array.isArray(req.options) ? req.options : [];
        if (broken("select-unlisted")) reply({ value: "delta" });
        else if (options.length > 0) reply({ value: String(options[Math.min(1, options.length - 1)]) });
        else reply({ cancelled: true });
        break;
      }
      case "input":
        reply({ value: "agentwire" });
        break;
      case "editor":
        reply({ value: `${typeof req.prefill === "string" ? req.prefill : ""} (edited)` });
        break;
      default:
        // notify, setStatus, setWidget, setTitle, set_editor_text and unknown methods: no reply.
        break;
    }
    this.dialogs.push(req.method);
  }

  close() {
    if (!this.ws || this.closed) return Promise.resolve();
    return withTimeout(
      new Promise((resolve) => {
        this.ws.once("close", resolve);
        this.ws.close(1000, "done");
      }),
      opts.stepTimeoutMs,
      "close",
    ).catch(() => this.ws.terminate());
  }
}

let idCounter = 0;
const nextId = () => `req_${++idCounter}`;

function expectSuccess(response, what) {
  if (response.success !== true) throw new Error(`${what} failed: ${response.error ?? JSON.stringify(response)}`);
  return response.data;
}

/** The web UI's initial sync (contract §3 rule 2). */
async function sync(conn, { full = true } = {}) {
  const state = conn.request({ type: "get_state" });
  const sessions = conn.request({ type: "list_sessions", scope: broken("invalid-command") ? "global" : "all" });
  const messages = conn.request({ type: "get_messages" }, { binary: broken("binary-frame") });
  const jobs = [state, sessions, messages];
  if (full) jobs.push(conn.request({ type: "get_context_usage" }));
  const [s, l, m] = await Promise.all(jobs);
  const st = expectSuccess(s, "get_state");
  if (!broken("invalid-command")) expectSuccess(l, "list_sessions");
  const msgs = expectSuccess(m, "get_messages");
  log(`state: session ${st.sessionId}, ${st.messageCount} messages, streaming ${st.isStreaming}; history ${msgs.messages.length}`);
}

const ends = (e) => e.type === "agent_end" || e.type === "session_changed";

/**
 * Sends a prompt and follows its run to the end: `agent_end`, or `session_changed` (a session
 * switch ends a run without `agent_end`). A run that `auto_retry_start` / `auto_compaction_*`
 * reopens right after its `agent_end` is followed too. `during(from)` runs once the run started;
 * `allowFailure` accepts a failed first response (it wins, but the mock still runs).
 */
async function promptRun(conn, message, { during, allowFailure = false } = {}) {
  const from = conn.mark();
  const command = { type: "prompt", message, ...(conn.running ? { streamingBehavior: "followUp" } : {}) };
  const response = await conn.request(command);
  if (!allowFailure) expectSuccess(response, `prompt ${JSON.stringify(message)}`);
  else if (!response.success) log(`prompt "${message}": first response is a failure (${response.error}); it wins`);
  await conn.waitFor((e) => e.type === "agent_start", from, `agent_start after ${JSON.stringify(message)}`);
  if (during) await during(from);
  let end = await conn.waitFor(ends, from, `agent_end after ${JSON.stringify(message)}`);
  for (;;) {
    const mark = conn.events.indexOf(end) + 1;
    const again = await conn
      .waitFor((e) => e.type === "agent_start" || e.type === "auto_retry_start" || e.type.startsWith("auto_compaction"), mark, "a further run", 150)
      .catch(() => undefined);
    if (!again) break;
    end = await conn.waitFor(ends, conn.events.indexOf(again) + 1, `agent_end of the run after ${again.type}`);
  }
  log(`run "${message}" ended with ${end.type === "agent_end" ? `${end.messages?.length ?? "?"} messages` : `session_changed (${end.reason})`}`);
  return end;
}

/** The §8 robustness cases a prompt selects; the client must come through each unchanged. */
const TOUR = [
  { scenario: "thinking" },
  { scenario: "thinking-overlap" },
  { scenario: "tool" },
  { scenario: "two-tools" },
  { scenario: "parallel-tools" },
  { scenario: "lifecycle-updates" },
  { scenario: "snapshot-ahead" },
  { scenario: "unknown-events" },
  { scenario: "dup-prompt-response", allowFailure: true },
  { scenario: "reorder-responses" },
  { scenario: "idless-error" },
  { scenario: "error" },
  { scenario: "error-retry" },
  { scenario: "ext-error" },
  { scenario: "ext-timeout" },
  { scenario: "ext-unknown-method" },
  { scenario: "garbage-frames" },
  {
    scenario: "abort-open-block",
    during: (conn) => async (from) => {
      await conn.waitFor((e) => e.type === "message_update", from, "the first update before aborting");
      expectSuccess(await conn.request({ type: "abort" }), "abort");
    },
  },
  {
    scenario: "switch-mid-run",
    after: async (conn) => {
      // The session changed: resync state and history, as the web UI does.
      await Promise.all([conn.request({ type: "get_state" }), conn.request({ type: "get_messages" })]);
    },
  },
];

async function tour(conn, url) {
  for (const step of TOUR) {
    await promptRun(conn, `scenario:${step.scenario} Robustness case`, { during: step.during?.(conn), allowFailure: step.allowFailure });
    await step.after?.(conn);
  }
  // A command that is never answered: the client gives up on it (30 s) and never reuses its id.
  const silent = conn.request({ type: "prompt", message: "scenario:silent-command Never answered" });
  silent.catch(() => undefined);
  // Other sockets: a UI request right after connecting, and a run another client started.
  const notify = new URL(url);
  notify.searchParams.set("scenario", "connect-notify");
  const n = await new Connection(notify.toString()).open();
  await n.waitFor((e) => e.type === "extension_ui_request", 0, "the notify after connecting");
  await n.close();
  const foreign = new URL(url);
  foreign.searchParams.set("scenario", "foreign-run");
  const mark = conn.mark();
  const f = await new Connection(foreign.toString()).open();
  await f.waitFor((e) => e.type === "agent_end", 0, "the end of the foreign run");
  await f.close();
  await conn.waitFor((e) => e.type === "agent_end", mark, "the foreign run, seen by the first socket too");
  log(`robustness tour: ${TOUR.length + 3} cases`);
}

async function main() {
  const url = URL_WS.toString();
  if (broken("wrong-path")) {
    const wrong = new URL(url);
    wrong.pathname = "/socket";
    log(`upgrade on /socket: ${await refusedUpgrade(wrong.toString(), { origin: ORIGIN })}`);
  }
  if (broken("no-origin")) log(`upgrade without Origin: ${await refusedUpgrade(url, {})}`);

  const conn = await new Connection(url).open();
  log(`connected to ${url} (Origin ${ORIGIN})`);
  await sync(conn);

  if (broken("unknown-command")) {
    const r = await conn.request({ type: "bash", command: "ls" });
    log(`bash: ${r.success ? "accepted" : r.error}`);
  }
  if (broken("extra-field")) expectSuccess(await conn.request({ type: "get_state", verbose: true }), "get_state");
  if (broken("no-id")) {
    // Without an id the response cannot be matched: take the next response that has no id.
    const seen = new Promise((resolve) => conn.unmatched.push(resolve));
    conn.sendRaw({ type: "get_context_usage" });
    await withTimeout(seen, opts.stepTimeoutMs, "the response to get_context_usage without an id");
  }
  if (broken("reuse-id")) {
    // The mock never answers a `silent-command` prompt: its id stays pending, and is reused.
    const id = nextId();
    conn.sendRaw({ id, type: "prompt", message: "scenario:silent-command Never answered" });
    expectSuccess(await conn.request({ type: "get_state" }, { id }), "get_state");
  }

  // 1. A plain prompt, followed to agent_end.
  await promptRun(conn, "scenario:text Hello from the example client");

  // 2. A queue run: steer once the first tool runs, and queue a follow-up.
  const steer = "Focus on auth only";
  await promptRun(conn, "scenario:queue Run both tools", { during: async (from) => {
    await conn.waitFor((e) => e.type === "tool_execution_start", from, "the first tool_execution_start");
    expectSuccess(await conn.request({ type: "prompt", message: steer, streamingBehavior: "steer" }), "steer");
    expectSuccess(await conn.request({ type: "prompt", message: "Then summarise", streamingBehavior: "followUp" }), "follow-up");
  } });
  if (broken("no-streaming-behavior")) {
    // The mistake, made well inside a long run (`abort` streams the longest reply): a prompt arriving within the checks' crossing grace (250 ms) of
    // agent_start may have been sent before the client read it, and is not judged.
    await promptRun(conn, "scenario:abort Tell me everything", { during: async () => {
      await sleep(BROKEN_STEER_DELAY_MS);
      const s = await conn.request({ type: "prompt", message: steer });
      log(`steer without streamingBehavior: ${s.success ? "accepted" : s.error}`);
      // Made to be aborted (~20 s at the mock's default pace).
      expectSuccess(await conn.request({ type: "abort" }), "abort");
    } });
  }
  const afterQueue = expectSuccess(await conn.request({ type: "get_state" }), "get_state");
  log(`after the queue run: streaming ${afterQueue.isStreaming}, ${afterQueue.pendingMessageCount} pending`);

  // 3. Extension dialogs: answer each dialog once, leave the rest alone.
  const end = await promptRun(conn, "scenario:ext-dialogs Show the dialogs");
  log(`dialog requests seen: ${conn.dialogs.join(", ")}`);
  const last = end.messages?.at(-1);
  const reply = Array.isArray(last?.content) ? last.content.filter((c) => c.type === "text").map((c) => c.text).join("") : "";
  if (reply) log(`extension run replied: ${reply}`);

  // 4. History and usage after the runs.
  const history = expectSuccess(await conn.request({ type: "get_messages" }), "get_messages");
  const usage = expectSuccess(await conn.request({ type: "get_context_usage" }), "get_context_usage");
  log(`history: ${history.messages.length} messages; usage: ${JSON.stringify(usage.usage ?? null)}`);

  if (opts.robustness) await tour(conn, url);

  // 5. The server shuts down mid-run: pending requests fail, then reconnect and resync (nothing is
  //    replayed).
  if (opts.shutdown) {
    const from = conn.mark();
    expectSuccess(await conn.request({ type: "prompt", message: "scenario:server-shutdown Goodbye" }), "prompt");
    await conn.waitFor((e) => e.type === "message_update", from, "the first update of the shutdown run");
    const pending = conn.request({ type: "get_state" }).then(
      () => "answered",
      (e) => `rejected (${e.message})`,
    );
    await withTimeout(
      new Promise((resolve) => {
        const poll = () => (conn.closed ? resolve() : setTimeout(poll, 10));
        poll();
      }),
      opts.stepTimeoutMs,
      "the server shutdown",
    );
    log(`closed by the server: ${conn.closed.code} ${conn.closed.reason}; get_state sent during the run: ${await pending}`);
    const again = await new Connection(url).open();
    log("reconnected");
    if (broken("no-resync")) expectSuccess(await again.request({ type: "get_state" }), "get_state");
    else await sync(again, { full: false });
    await again.close();
  } else {
    await conn.close();
  }
}

try {
  await main();
  log("done");
  process.exit(0);
} catch (e) {
  log(e instanceof Error ? e.message : String(e));
  process.exit(1);
}
