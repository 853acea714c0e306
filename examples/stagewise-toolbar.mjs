#!/usr/bin/env node
// A small stagewise toolbar for `agentwire test-client stagewise-chat -- node examples/stagewise-toolbar.mjs`,
// built on @trpc/client 11 (wsLink, superjson) as the real toolbar is: `npm i @trpc/client @trpc/server superjson ws`.
//
// It behaves like the chat toolbar: asks discovery, opens the socket, follows chat.getChatUpdates (the snapshot, then
// the deltas), sends one message to the active chat with the page's metadata, approves the tool call that awaits
// approval, runs the toolbar's own tool and reports its result, waits for the turn's end, then opens a new chat while
// the agent is idle. @trpc/client answers the agent's PING with PONG, pings a silent agent itself, reconnects after a
// drop or the agent's `reconnect` request and resubscribes with the last event id.
//
// What it keeps is the agent's word only (the toolbar keeps nothing of its own across reloads): every snapshot
// replaces the chat state, deltas are applied in event-id order, a gap resubscribes, a stale id is ignored, and an
// agent that restarted (ids from 0 again) is simply believed. A call cut off by a dropped connection is decided again
// from the next snapshot, so nothing is sent twice. It prints the turn's reply on stdout.
import { createTRPCClient, createWSClient, wsLink } from "@trpc/client";
import superjson from "superjson";
import WebSocket from "ws";

const USAGE = `usage: node examples/stagewise-toolbar.mjs [--url URL] [--message TEXT] [--idle MS] [--step-timeout MS]

Plays the stagewise chat toolbar against the agent at STAGEWISE_URL (or AGENTWIRE_URL), http://host:port.
  --url URL            the agent's origin (over STAGEWISE_URL / AGENTWIRE_URL)
  --message TEXT       what the user types (default: one that asks for a file, so tools run)
  --idle MS            stay connected this long at the end, answering keep-alives (default 1500)
  --step-timeout MS    give up on any one step after MS milliseconds (default 15000)
  --help               show this help`;

const PAGE_ORIGIN = "http://localhost:3000";
const METADATA = {
  currentUrl: `${PAGE_ORIGIN}/`,
  currentTitle: "App",
  currentZoomLevel: 1,
  viewportResolution: { width: 1280, height: 800 },
  devicePixelRatio: 2,
  userAgent: "agentwire-example-toolbar",
  locale: "en-US",
  selectedElements: [],
};
/** Gaps that make the toolbar resubscribe before it gives up on the agent's event ids. */
const MAX_RESYNCS = 20;

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

/**
 * A person opens a new chat some time after the agent went idle, not in the same millisecond: the example waits as long
 * before a call the working gate refuses (a checker cannot tell a call sent sooner from one that crossed the agent's
 * "working" update on the wire, and leaves it unjudged).
 */
const SETTLE_MS = 300;
const clone = (v) => JSON.parse(JSON.stringify(v));

/** A browser sends its page's Origin on the upgrade; `ws` in node needs it given. */
class PageSocket extends WebSocket {
  constructor(url, protocols) {
    super(url, protocols, { headers: { origin: PAGE_ORIGIN } });
  }
}

const awaitsApproval = (c) => c.call.requiresApproval && c.approved === undefined && !c.hasResult;
const awaitsResult = (c) => c.call.runtime === "toolbar" && (!c.call.requiresApproval || c.approved === true) && !c.hasResult;

/**
 * The toolbar's view of the chat: the list, the active chat's messages, whether the agent works, reduced from the
 * subscription's events by §3's reducer. `event` says what it did with one: "ok", "stale" (an id already applied) or
 * "gap" (an id was skipped: the toolbar must resubscribe).
 */
class ChatView {
  constructor() {
    this.chats = new Map();
    this.activeChatId = null;
    this.messages = [];
    this.isWorking = false;
    /** Turns seen to end (isWorking true → false). */
    this.turnsEnded = 0;
    /** Snapshots taken, and whether the latest is complete (its agent-state came). */
    this.snapshots = 0;
    this.settled = false;
    this.lastSeq = null;
    this.snapshotSeq = null;
  }

  event(value) {
    // Tracked events are {id, data}; an agent that sends untracked ones is followed without ids.
    const tracked = value && typeof value === "object" && typeof value.type !== "string" && "data" in value;
    const update = tracked ? value.data : value;
    const seq = tracked && /^(0|[1-9][0-9]*)$/.test(String(value.id)) ? Number(value.id) : null;
    if (update?.type === "chat-list") {
      // A snapshot starts: it replaces everything, whatever the ids did before (a restarted agent counts from 0).
      this.snapshots++;
      this.settled = false;
      this.snapshotSeq = this.lastSeq = seq;
      this.apply(update);
      return "ok";
    }
    if (seq !== null && this.lastSeq !== null && seq !== this.snapshotSeq) {
      if (seq <= this.lastSeq) return "stale";
      if (seq !== this.lastSeq + 1) return "gap";
    }
    if (seq !== this.snapshotSeq) this.snapshotSeq = null;
    if (seq !== null) this.lastSeq = seq;
    this.apply(update);
    return "ok";
  }

  apply(u) {
    switch (u.type) {
      case "chat-list":
        this.chats = new Map(u.chats.map((c) => [c.id, { ...c }]));
        this.activeChatId = u.chats.find((c) => c.isActive)?.id ?? null;
        this.messages = [];
        break;
      case "chat-created":
        this.chats.set(u.chat.id, { id: u.chat.id, title: u.chat.title, isActive: u.chat.isActive, messageCount: u.chat.messages.length });
        if (u.chat.isActive) this.activate(u.chat.id, u.chat.messages);
        break;
      case "chat-deleted":
        this.chats.delete(u.chatId);
        if (u.chatId === this.activeChatId) this.activate(null, []);
        break;
      case "chat-switched":
        // The chat's full sync follows at once.
        this.activate(u.chatId, []);
        break;
      case "chat-full-sync":
        if (u.chat.id === this.activeChatId) {
          this.messages = clone(u.chat.messages);
          const item = this.chats.get(u.chat.id);
          if (item) Object.assign(item, { title: u.chat.title, messageCount: u.chat.messages.length });
        }
        break;
      case "chat-title-updated": {
        const item = this.chats.get(u.chatId);
        if (item) item.title = u.title;
        break;
      }
      case "message-added": {
        const item = this.chats.get(u.chatId);
        if (item) item.messageCount++;
        if (u.chatId === this.activeChatId && !this.messages.some((m) => m.id === u.message.id)) this.messages.push(clone(u.message));
        break;
      }
      case "message-updated": {
        const m = u.chatId === this.activeChatId ? this.messages.find((x) => x.id === u.update.messageId) : undefined;
        if (!m) break;
        const { partIndex, updateType, content } = u.update;
        const part = m.content[partIndex];
        if (updateType === "create" && partIndex === m.content.length) m.content.push(clone(content));
        else if (updateType === "replace" && part) m.content[partIndex] = clone(content);
        else if (updateType === "append" && part && part.type === content.type && typeof part.text === "string") part.text += content.text;
        break;
      }
      case "messages-deleted": {
        const item = this.chats.get(u.chatId);
        if (item) item.messageCount = Math.max(0, item.messageCount - u.deletedCount);
        if (u.chatId !== this.activeChatId) break;
        const at = this.messages.findIndex((m) => m.id === u.fromMessageId);
        if (at >= 0) this.messages.splice(at);
        break;
      }
      case "agent-state":
        if (this.isWorking && !u.isWorking) this.turnsEnded++;
        this.isWorking = u.isWorking;
        this.settled = true;
        break;
    }
  }

  activate(chatId, messages) {
    for (const c of this.chats.values()) c.isActive = c.id === chatId;
    this.activeChatId = chatId;
    this.messages = clone(messages);
  }

  /** The active chat's tool calls, each with whether it was approved (true/false/undefined) and has a result. */
  toolCalls() {
    const calls = new Map();
    const parts = this.messages.flatMap((m) => m.content);
    for (const p of parts) if (p.type === "tool-call") calls.set(p.toolCallId, { call: p, approved: undefined, hasResult: false });
    for (const p of parts) {
      const c = calls.get(p.toolCallId);
      if (c && p.type === "tool-approval") c.approved = p.approved;
      if (c && p.type === "tool-result") c.hasResult = true;
    }
    return [...calls.values()];
  }

  /** A call awaiting the user's approval, not among `answered`. */
  pendingApproval(answered = new Set()) {
    return this.toolCalls().find((c) => awaitsApproval(c) && !answered.has(c.call.toolCallId))?.call;
  }

  /** A toolbar call the agent awaits a result for, not among `answered`. */
  awaitedToolbarCall(answered = new Set()) {
    return this.toolCalls().find((c) => awaitsResult(c) && !answered.has(c.call.toolCallId))?.call;
  }

  /** Whether the agent's record says call `id` still awaits this (`awaitsApproval` or `awaitsResult`). */
  still(id, awaits) {
    return this.toolCalls().some((c) => c.call.toolCallId === id && awaits(c));
  }

  /** The text of the active chat's last assistant message. */
  lastReply() {
    const m = this.messages.findLast((x) => x.role === "assistant");
    return m ? m.content.filter((p) => p.type === "text").map((p) => p.text).join("") : "";
  }
}

async function main() {
  const info = await fetch(new URL("/stagewise/info", origin), { signal: AbortSignal.timeout(2_000) });
  if (!info.ok) throw new Error(`discovery answered ${info.status}`);
  const { name } = await info.json();
  const wsUrl = new URL("/stagewise/ws", origin);
  wsUrl.protocol = origin.protocol === "https:" ? "wss:" : "ws:";

  const view = new ChatView();
  /** Woken on every change: an event applied, an error. */
  let waiters = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  let fatal;
  const waitFor = async (what, test) => {
    const deadline = Date.now() + opts.stepTimeoutMs;
    for (;;) {
      const found = test();
      if (found) return found;
      if (fatal) throw fatal;
      if (Date.now() > deadline) throw new Error(`no ${what} within ${opts.stepTimeoutMs} ms`);
      await new Promise((resolve) => {
        const t = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  };

  const wsClient = createWSClient({
    url: wsUrl.href,
    WebSocket: PageSocket,
    // A dead agent behind a live socket is noticed by our own PINGs.
    keepAlive: { enabled: true, intervalMs: 10_000, pongTimeoutMs: 5_000 },
    // Again at once after a drop, then backing off up to 4 s (the toolbar resubscribes within 10 s).
    retryDelayMs: (attempt) => (attempt === 0 ? 0 : Math.min(250 * 2 ** attempt, 4_000)),
  });
  const trpc = createTRPCClient({ links: [wsLink({ client: wsClient, transformer: superjson })] });

  // Following the chat: @trpc/client resubscribes after a drop by itself, with the last event id; a gap in the ids
  // makes the toolbar resubscribe itself, with the id it last received (as @trpc/client would): the snapshot replaces
  // what it holds either way.
  let subscription;
  let resyncs = 0;
  const follow = (lastEventId) => {
    subscription?.unsubscribe();
    subscription = trpc.chat.getChatUpdates.subscribe(lastEventId === undefined ? undefined : { lastEventId }, {
      onData(value) {
        if (view.event(value) === "gap") {
          const from = String(value.id);
          if (++resyncs > MAX_RESYNCS) fatal = new Error(`the agent's event ids skipped ${MAX_RESYNCS} times; giving up`);
          else setTimeout(() => follow(from), 0);
          view.snapshotSeq = null;
          // Nothing more of this subscription counts: the next snapshot replaces the state.
          view.lastSeq = Number.POSITIVE_INFINITY;
        }
        wake();
      },
      onError(error) {
        fatal = new Error(`the agent ended the chat subscription: ${error.message}`);
        wake();
      },
    });
  };
  follow(undefined);

  /**
   * Calls a mutation; when the connection drops before its answer (an error without the agent's error shape), waits
   * for the next snapshot and asks `landed` whether the agent got it, calling again only when it did not.
   */
  const act = async (path, input, landed) => {
    const [router, procedure] = path.split(".");
    for (let attempt = 0; ; attempt++) {
      const snapshots = view.snapshots;
      const signal = AbortSignal.timeout(opts.stepTimeoutMs);
      try {
        return await trpc[router][procedure].mutate(input, { signal });
      } catch (error) {
        if (signal.aborted) throw new Error(`no answer to ${path} within ${opts.stepTimeoutMs} ms`);
        if (error?.shape || attempt >= 5) throw new Error(`${path} failed: ${error.message}`);
        await waitFor(`a snapshot after the connection dropped during ${path}`, () => view.snapshots > snapshots && view.settled);
        if (landed()) return undefined;
      }
    }
  };

  /** Idle, and still idle a moment later. */
  const settledIdle = async (ready = () => true) => {
    do {
      await waitFor("the agent to be idle", () => ready() && !view.isWorking);
      await sleep(SETTLE_MS);
    } while (view.isWorking);
  };

  await waitFor("the chat snapshot", () => view.settled);
  await waitFor("the agent to be idle", () => !view.isWorking);
  if (!view.activeChatId) {
    await settledIdle();
    const known = new Set(view.chats.keys());
    await act("chat.createChat", { title: "Toolbar" }, () => [...view.chats.keys()].some((id) => !known.has(id)));
  }
  await waitFor("an active chat", () => view.activeChatId);
  await waitFor("the agent to be idle", () => !view.isWorking);

  const turnsBefore = view.turnsEnded;
  const before = new Set(view.messages.map((m) => m.id));
  const sentHere = () => view.messages.some((m) => m.role === "user" && !before.has(m.id) && m.content.some((p) => p.type === "text" && p.text === opts.message));
  await act("chat.sendMessage", { chatId: view.activeChatId, content: [{ type: "text", text: opts.message }], metadata: METADATA }, sentHere);

  // The turn: answer what it asks of the toolbar until it ends. Calls answered here stay answered until the agent's
  // record says so, even when its answer comes after the updates (or before them).
  const answered = new Set();
  for (;;) {
    await waitFor("the turn to go on", () => view.turnsEnded > turnsBefore || view.pendingApproval(answered) || view.awaitedToolbarCall(answered));
    const approval = view.pendingApproval(answered);
    if (approval) {
      answered.add(approval.toolCallId);
      const id = approval.toolCallId;
      await act("chat.approveToolCall", { chatId: view.activeChatId, toolCallId: id, approved: true, metadata: METADATA }, () => !view.still(id, awaitsApproval));
      continue;
    }
    const call = view.awaitedToolbarCall(answered);
    if (call) {
      answered.add(call.toolCallId);
      const id = call.toolCallId;
      await act("chat.reportToolResult", { chatId: view.activeChatId, toolCallId: id, output: { color: "rgb(0, 0, 255)" } }, () => !view.still(id, awaitsResult));
      continue;
    }
    break;
  }
  const reply = view.lastReply();

  // The user opens a new chat, now that the agent is idle (the working gate allows it).
  await settledIdle(() => view.settled);
  const known = new Set(view.chats.keys());
  await act("chat.createChat", { title: "Next" }, () => [...view.chats.keys()].some((id) => !known.has(id)));
  if (opts.idleMs > 0) await sleep(opts.idleMs);
  if (fatal) throw fatal;
  subscription.unsubscribe();
  await wsClient.close();
  console.log(`turn done with ${name}: ${JSON.stringify(reply)} (${view.snapshots} snapshot${view.snapshots === 1 ? "" : "s"})`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`stagewise-toolbar: ${error.message}`);
    process.exit(1);
  },
);
