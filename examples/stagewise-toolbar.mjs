#!/usr/bin/env node
// A small stagewise toolbar for `agentwire test-client stagewise-chat -- node examples/stagewise-toolbar.mjs`.
//
// It behaves like the chat toolbar: asks discovery, opens the socket, follows chat.getChatUpdates (the snapshot, then
// the deltas), sends one message to the active chat with the page's metadata, approves the tool call that awaits
// approval, runs the toolbar's own tool and reports its result, waits for the turn's end, then opens a new chat while
// the agent is idle. It answers the agent's PING with PONG throughout. Raw tRPC frames, superjson by hand.
import WebSocket from "ws";

const USAGE = `usage: node examples/stagewise-toolbar.mjs [--url URL] [--message TEXT] [--idle MS] [--step-timeout MS]

Plays the stagewise chat toolbar against the agent at STAGEWISE_URL (or AGENTWIRE_URL), http://host:port.
  --url URL            the agent's origin (over STAGEWISE_URL / AGENTWIRE_URL)
  --message TEXT       what the user types (default: one that asks for a file, so tools run)
  --idle MS            stay connected this long at the end, answering keep-alives (default 1500)
  --step-timeout MS    give up on any one step after MS milliseconds (default 15000)
  --help               show this help`;

const METADATA = {
  currentUrl: "http://localhost:3000/",
  currentTitle: "App",
  currentZoomLevel: 1,
  viewportResolution: { width: 1280, height: 800 },
  devicePixelRatio: 2,
  userAgent: "agentwire-example-toolbar",
  locale: "en-US",
  selectedElements: [],
};
const VOID = { json: null, meta: { values: ["undefined"] } };

function parseArgs(argv) {
  const opts = { url: undefined, message: "Please write the file b.css", idleMs: 1_500, stepTimeoutMs: 15_000 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes("=") ? arg.split(/=(.*)/s) : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "--help" || flag === "-h") return { help: true };
    else if (flag === "--url") opts.url = value();
    else if (flag === "--message") opts.message = value();
    else if (flag === "--idle") opts.idleMs = Number(value());
    else if (flag === "--step-timeout") opts.stepTimeoutMs = Number(value());
    else return { error: `unknown argument: ${arg}` };
  }
  if (!(opts.stepTimeoutMs > 0)) return { error: "--step-timeout needs a positive number" };
  if (!(opts.idleMs >= 0)) return { error: "--idle needs a number >= 0" };
  if (!opts.message) return { error: "--message needs a text" };
  return opts;
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
const base = opts.url || process.env.STAGEWISE_URL || process.env.AGENTWIRE_URL;
if (!base) {
  console.error(`no agent URL: set STAGEWISE_URL or pass --url\n\n${USAGE}`);
  process.exit(2);
}
let origin;
try {
  origin = new URL(base);
} catch {
  console.error(`not a URL: ${base}`);
  process.exit(2);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The socket: frames kept in order, waiters woken on each. */
class Agent {
  constructor(ws) {
    this.ws = ws;
    this.frames = [];
    this.waiters = [];
    this.nextId = 1;
    this.closed = false;
    ws.on("message", (data) => {
      const text = data.toString("utf8");
      if (text === "PING") return void ws.send("PONG");
      if (text === "PONG") return;
      try {
        this.frames.push(JSON.parse(text));
      } catch {
        return;
      }
      for (const w of this.waiters.splice(0)) w();
    });
    ws.on("close", () => {
      this.closed = true;
      for (const w of this.waiters.splice(0)) w();
    });
  }

  request(method, path, input) {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ id, method, params: { path, input: input === undefined ? VOID : { json: input } } }));
    return id;
  }

  async waitFor(what, test) {
    const deadline = Date.now() + opts.stepTimeoutMs;
    for (;;) {
      const found = test();
      if (found) return found;
      if (this.closed) throw new Error(`the agent closed the socket while waiting for ${what}`);
      if (Date.now() > deadline) throw new Error(`no ${what} within ${opts.stepTimeoutMs} ms`);
      await new Promise((resolve) => {
        const t = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async mutate(path, input) {
    const id = this.request("mutation", path, input);
    const answer = await this.waitFor(`the answer to ${path}`, () => this.frames.find((f) => f.id === id && (f.result || f.error)));
    if (answer.error) throw new Error(`${path} was refused: ${answer.error.json?.message ?? JSON.stringify(answer.error)}`);
    return answer.result.data?.json;
  }
}

/** The toolbar's view of the chat, reduced from the subscription's updates as far as this script needs. */
class Chat {
  constructor() {
    this.activeChatId = null;
    this.isWorking = false;
    this.toolCalls = new Map();
    this.approved = new Set();
    this.results = new Set();
  }

  apply(u) {
    switch (u.type) {
      case "chat-list":
        this.activeChatId = u.chats.find((c) => c.isActive)?.id ?? null;
        this.toolCalls.clear();
        break;
      case "chat-created":
        if (u.chat.isActive) this.activeChatId = u.chat.id;
        break;
      case "chat-switched":
        this.activeChatId = u.chatId;
        break;
      case "chat-deleted":
        if (u.chatId === this.activeChatId) this.activeChatId = null;
        break;
      case "chat-full-sync":
        this.toolCalls.clear();
        for (const m of u.chat.messages) for (const p of m.content) this.part(p);
        break;
      case "message-added":
        if (u.chatId === this.activeChatId) for (const p of u.message.content) this.part(p);
        break;
      case "message-updated":
        if (u.chatId === this.activeChatId) this.part(u.update.content);
        break;
      case "agent-state":
        this.isWorking = u.isWorking;
        break;
    }
  }

  part(p) {
    if (p.type === "tool-call") this.toolCalls.set(p.toolCallId, p);
    if (p.type === "tool-approval") this.approved.add(p.toolCallId);
    if (p.type === "tool-result") this.results.add(p.toolCallId);
  }

  /** A call awaiting the user's approval. */
  pendingApproval() {
    return [...this.toolCalls.values()].find((c) => c.requiresApproval && !this.approved.has(c.toolCallId) && !this.results.has(c.toolCallId));
  }

  /** A toolbar call the agent awaits a result for. */
  awaitedToolbarCall() {
    return [...this.toolCalls.values()].find((c) => c.runtime === "toolbar" && (!c.requiresApproval || this.approved.has(c.toolCallId)) && !this.results.has(c.toolCallId));
  }
}

async function main() {
  const info = await fetch(new URL("/stagewise/info", origin), { signal: AbortSignal.timeout(2_000) });
  if (!info.ok) throw new Error(`discovery answered ${info.status}`);
  const { name } = await info.json();
  const wsUrl = new URL("/stagewise/ws", origin);
  wsUrl.protocol = origin.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(wsUrl, { headers: { origin: "http://localhost:3000" } });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const agent = new Agent(ws);
  const chat = new Chat();
  let seen = 0;
  const sub = agent.request("subscription", "chat.getChatUpdates", undefined);
  /** Applies the chat updates that came since the last call. */
  const sync = () => {
    const data = agent.frames.filter((f) => f.id === sub && f.result?.type === "data");
    for (const f of data.slice(seen)) chat.apply(f.result.data.json?.data ?? f.result.data.json);
    seen = data.length;
  };
  await agent.waitFor("the chat snapshot", () => (sync(), agent.frames.some((f) => f.id === sub && f.result?.data?.json?.data?.type === "agent-state")));
  if (!chat.activeChatId) await agent.mutate("chat.createChat", { title: "Toolbar" });
  await agent.waitFor("an active chat", () => (sync(), chat.activeChatId));
  await agent.waitFor("the agent to be idle", () => (sync(), !chat.isWorking));

  const turnStart = seen;
  await agent.mutate("chat.sendMessage", { chatId: chat.activeChatId, content: [{ type: "text", text: opts.message }], metadata: METADATA });
  // The turn: answer what it asks of the toolbar until the agent is idle again after having worked.
  let worked = false;
  for (;;) {
    await agent.waitFor("the turn to go on", () => (sync(), seen > turnStart));
    if (chat.isWorking) worked = true;
    const approval = chat.pendingApproval();
    if (approval) {
      chat.approved.add(approval.toolCallId);
      await agent.mutate("chat.approveToolCall", { chatId: chat.activeChatId, toolCallId: approval.toolCallId, approved: true, metadata: METADATA });
      continue;
    }
    const call = chat.awaitedToolbarCall();
    if (call) {
      chat.results.add(call.toolCallId);
      await agent.mutate("chat.reportToolResult", { chatId: chat.activeChatId, toolCallId: call.toolCallId, output: { color: "rgb(0, 0, 255)" } });
      continue;
    }
    if (worked && !chat.isWorking) break;
    const before = seen;
    await agent.waitFor("the next chat update", () => (sync(), seen > before));
  }
  // The user opens a new chat, now that the agent is idle (the working gate allows it).
  await agent.mutate("chat.createChat", { title: "Next" });
  if (opts.idleMs > 0) await sleep(opts.idleMs);
  ws.close();
  console.log(`turn done with ${name}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`stagewise-toolbar: ${error.message}`);
    process.exit(1);
  },
);
