#!/usr/bin/env node
// A small continue-remote client, polling as the removed `cn remote` did (every 500 ms), for
// `agentwire test-client continue-remote -- node examples/continue-remote-client.mjs`.
// It sends one message, polls GET /state until the turn is over (answering a pending permission
// once, with the id it was shown), prints the reply, and shuts the server down with POST /exit.
// Plain Node 20 (fetch), no dependencies.

const USAGE = `usage: node examples/continue-remote-client.mjs [options] [MESSAGE]

Reads the server's base URL from AGENTWIRE_URL (or CONTINUE_REMOTE_URL), and a bearer token, when
the server requires one, from CONTINUE_REMOTE_TOKEN.
  MESSAGE              what to send (default: "Read the README file")
  --poll-interval MS   time between polls (default: 500, as cn remote)
  --deny               deny a pending permission instead of approving it
  --turn-timeout MS    give up when the turn has not ended after MS (default: 120000)
  --no-exit            leave the server running (no POST /exit)
  --help               show this help`;

const REQUEST_TIMEOUT_MS = 10_000;

function parseArgs(argv) {
  const opts = { message: "Read the README file", pollMs: 500, approved: true, turnTimeoutMs: 120_000, exit: true };
  const number = (flag, v) => {
    const n = Number(v);
    if (!(Number.isFinite(n) && n > 0)) throw new Error(`${flag} needs a positive number of milliseconds`);
    return n;
  };
  let message;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes("=") && arg.startsWith("--") ? arg.split(/=(.*)/s) : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "--help" || flag === "-h") return { help: true };
    else if (flag === "--poll-interval") opts.pollMs = number(flag, value());
    else if (flag === "--turn-timeout") opts.turnTimeoutMs = number(flag, value());
    else if (flag === "--deny") opts.approved = false;
    else if (flag === "--no-exit") opts.exit = false;
    else if (flag.startsWith("--")) throw new Error(`unknown option: ${arg}`);
    else if (message === undefined) message = arg;
    else throw new Error(`one message only (got a second: ${JSON.stringify(arg)})`);
  }
  if (message !== undefined) opts.message = message;
  // The server answers 400 to an empty message; it is no interrupt either.
  if (opts.message.trim() === "") throw new Error("the message must have some text");
  return opts;
}

let opts;
try {
  opts = parseArgs(process.argv.slice(2));
} catch (e) {
  console.error(`${e.message}\n\n${USAGE}`);
  process.exit(2);
}
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
const baseUrl = (process.env.AGENTWIRE_URL || process.env.CONTINUE_REMOTE_URL || "").replace(/\/+$/, "");
if (!baseUrl) {
  console.error(`AGENTWIRE_URL (or CONTINUE_REMOTE_URL) is not set\n\n${USAGE}`);
  process.exit(2);
}

const log = (line) => console.error(`[continue-remote-client] ${line}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const auth = process.env.CONTINUE_REMOTE_TOKEN ? { authorization: `Bearer ${process.env.CONTINUE_REMOTE_TOKEN}` } : {};

/** One JSON call; only POSTs with a body send a Content-Type (application/json, as the server parses). */
async function call(method, path, body) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...auth, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json };
}

/** The history of either server generation: seed `chatHistory`, or the current `session.history`. */
function historyOf(state) {
  if (Array.isArray(state.chatHistory)) return state.chatHistory.map((e) => ({ role: e.role, content: e.content }));
  const items = state.session?.history;
  if (Array.isArray(items)) return items.map((i) => ({ role: i.message?.role, content: i.message?.content }));
  return [];
}

async function run() {
  const sent = await call("POST", "/message", { message: opts.message });
  if (sent.status !== 200) throw new Error(`POST /message answered ${sent.status}: ${JSON.stringify(sent.json)}`);
  log(`message queued at position ${sent.json?.position}`);

  const answered = new Set();
  const deadline = Date.now() + opts.turnTimeoutMs;
  let state;
  // Single flight: the next poll starts only after the previous one ended, at the same pace
  // whether it succeeded or not (a failing server is not polled faster).
  for (;;) {
    if (Date.now() > deadline) throw new Error(`the turn did not end within ${opts.turnTimeoutMs} ms`);
    let polled;
    try {
      polled = await call("GET", "/state");
    } catch (e) {
      log(`GET /state failed: ${e.message}`);
    }
    if (polled?.status === 200 && typeof polled.json?.isProcessing === "boolean") {
      state = polled.json;
      const pending = state.pendingPermission;
      if (pending?.requestId && !answered.has(pending.requestId)) {
        answered.add(pending.requestId);
        const r = await call("POST", "/permission", { requestId: pending.requestId, approved: opts.approved });
        log(`${opts.approved ? "approved" : "denied"} ${pending.toolName ?? "a tool"} (${pending.requestId}): ${r.status}`);
      } else if (!state.isProcessing && historyOf(state).some((e) => e.role === "user" && e.content === opts.message)) {
        break;
      }
    } else if (polled) {
      log(`GET /state answered ${polled.status}`);
    }
    await sleep(opts.pollMs);
  }

  const reply = historyOf(state).filter((e) => e.role === "assistant" && typeof e.content === "string").at(-1);
  console.log(reply ? reply.content : "(no assistant reply)");
  if (opts.exit) {
    const r = await call("POST", "/exit");
    log(`POST /exit: ${r.status}`);
  }
}

try {
  await run();
} catch (e) {
  log(e instanceof Error ? e.message : String(e));
  process.exit(1);
}
