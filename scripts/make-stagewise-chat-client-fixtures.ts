/**
 * Writes the client-side fixture transcripts of stagewise-chat, fixtures/stagewise-chat/transcripts/client/: the
 * reference mock, quickly paced, records small scripted toolbars built on @trpc/client 11 (createWSClient, wsLink,
 * superjson) as the real toolbar is. One behaves (discovery, a chat subscription, a turn with an approval and a
 * toolbar tool, a messaging message, a drop it recovers from, a new chat while idle, PONG to the keep-alive); each
 * other makes one mistake, through the client's API wherever it can be made there, and otherwise behaves. The
 * verdicts each must give (by full check id) are in expected.json there, written by hand.
 *
 * Every run ends right after the toolbar answered a PING (or, for the one that does not answer, after its
 * reconnection), so that the keep-alive verdicts do not hang on the pacing.
 *
 *   npx tsx scripts/make-stagewise-chat-client-fixtures.ts [name...]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTRPCClient, createWSClient, wsLink, type TRPCClient } from "@trpc/client";
import type { AnyRouter } from "@trpc/server";
import superjson from "superjson";
import WebSocket from "ws";
import { eventToJsonLine, TranscriptBus, type TranscriptEvent } from "../src/core/transcript/transcript.js";
import { startStagewiseMock, type RunningStagewiseMock, type StagewiseStartOptions } from "../src/mocks/stagewise-chat/index.js";

const OUT = fileURLToPath(new URL("../fixtures/stagewise-chat/transcripts/client/", import.meta.url));
const QUICK: StagewiseStartOptions = { port: 0, firstDelayMs: 10, chunkDelayMs: 10, chunkSize: 16, pingMs: 300 };
const PAGE_ORIGIN = "http://localhost:3000";
const METADATA = {
  currentUrl: `${PAGE_ORIGIN}/`,
  currentTitle: "App",
  currentZoomLevel: 1,
  viewportResolution: { width: 1280, height: 800 },
  devicePixelRatio: 2,
  userAgent: "Mozilla/5.0",
  locale: "en-US",
  selectedElements: [],
};
const USER_MESSAGE = { id: "um-1", contentItems: [{ type: "text", text: "Hello" }], createdAt: new Date("2025-08-08T10:00:00.000Z"), metadata: METADATA, pluginContent: {}, sentByPlugin: false };
const STEP_MS = 10_000;
/**
 * A gated call (createChat) waits this long after the isWorking update it acts on: the client checks leave a call
 * that arrives within the crossing grace (250 ms) of such an update unjudged, since it may have crossed it.
 */
const SETTLE_MS = 300;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
/** The agent's router is not typed here: a scripted toolbar calls what it likes. */
type Client = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A transformer that forgets superjson on the way out: plain JSON, so a Date goes as an untagged ISO string. */
const PLAIN_JSON_INPUT = {
  input: { serialize: (v: unknown) => ({ json: v === undefined ? null : (JSON.parse(JSON.stringify(v)) as unknown) }), deserialize: (v: Json) => v.json as unknown },
  output: superjson,
};

type Resume = "with-id" | "fresh" | "never";

/**
 * A toolbar on @trpc/client: follows chat.getChatUpdates, keeps the updates it heard, and calls mutations. Its
 * sockets are `ws` with the page's Origin (as a browser sends it); they note what the toolbar sends and receives.
 */
class Toolbar {
  /** Chat updates heard, with their event ids. */
  readonly updates: { id: string | undefined; u: Json }[] = [];
  readonly sockets: WebSocket[] = [];
  /** Text frames the toolbar sent, in order. */
  readonly sent: string[] = [];
  /** Keep-alive answers sent so far. */
  pongs = 0;
  /** Whether the toolbar's socket answers PING (@trpc/client always does; see no-pong). */
  answerPings = true;
  /** What the toolbar does when the agent drops it: @trpc/client's own resubscription, a fresh one, or none. */
  resume: Resume = "with-id";
  readonly wsClient: ReturnType<typeof createWSClient>;
  readonly trpc: Client;
  private sub: { unsubscribe(): void } | undefined;
  private waiters: (() => void)[] = [];
  private opens = 0;

  constructor(url: string) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const toolbar = this;
    class PageSocket extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers: { origin: PAGE_ORIGIN } });
        toolbar.sockets.push(this);
        this.on("close", () => toolbar.wake());
      }
      override send(data: unknown, ...rest: unknown[]): void {
        if (typeof data === "string") toolbar.sent.push(data);
        if (data === "PONG") {
          // The one thing @trpc/client cannot be told: it answers every PING itself, so a silent toolbar drops it here.
          if (!toolbar.answerPings) return;
          toolbar.pongs++;
          toolbar.wake();
        }
        (super.send as (...a: unknown[]) => void)(data, ...rest);
      }
    }
    this.wsClient = createWSClient({
      url,
      WebSocket: PageSocket as unknown as typeof globalThis.WebSocket,
      keepAlive: { enabled: true, intervalMs: 10_000, pongTimeoutMs: 5_000 },
      // At once after a drop: the verdicts must not wait on a back-off.
      retryDelayMs: () => 0,
      onOpen: () => {
        if (this.opens++ > 0 && this.resume === "fresh") this.follow();
      },
      onClose: () => {
        // A toolbar that follows afresh (or not at all) forgets the subscription @trpc/client would resume.
        if (this.resume !== "with-id") this.unfollow();
      },
    });
    this.trpc = createTRPCClient<AnyRouter>({ links: [wsLink({ client: this.wsClient, transformer: superjson })] });
  }

  /** A second client on the same socket, with another transformer. */
  client(transformer: Parameters<typeof wsLink>[0]["transformer"]): Client {
    return createTRPCClient<AnyRouter>({ links: [wsLink({ client: this.wsClient, transformer } as Parameters<typeof wsLink>[0])] }) as TRPCClient<AnyRouter>;
  }

  /** The socket @trpc/client uses now. */
  socket(): WebSocket {
    return this.sockets.at(-1)!;
  }

  wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  async waitFor<T>(what: string, test: () => T | undefined | false, timeoutMs = STEP_MS): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = test();
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 100);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  follow(): void {
    this.sub = this.trpc.chat.getChatUpdates.subscribe(undefined, {
      onData: (value: Json) => {
        // Tracked events are {id, data}; anything else (an answer to a frame the toolbar forged) is no update.
        if (value && typeof value === "object" && typeof value.data === "object") this.updates.push({ id: String(value.id), u: value.data as Json });
        this.wake();
      },
      onError: () => this.wake(),
    });
  }

  unfollow(): void {
    this.sub?.unsubscribe();
    this.sub = undefined;
  }

  snapshots(): number {
    return this.updates.filter((x) => x.u.type === "chat-list").length;
  }

  /** Waits for snapshot number `n` to be complete (its agent-state came). */
  async snapshot(n: number): Promise<void> {
    await this.waitFor(`chat snapshot ${n}`, () => {
      const at = this.updates.map((x) => x.u.type).reduce((acc, type, i) => (type === "chat-list" ? [...acc, i] : acc), [] as number[])[n - 1];
      return at !== undefined && this.updates.slice(at).some((x) => x.u.type === "agent-state");
    });
  }

  activeChat(): string {
    let active = "";
    for (const { u } of this.updates) {
      if (u.type === "chat-list") active = (u.chats as Json[]).find((c) => c.isActive)?.id ?? "";
      if (u.type === "chat-switched") active = u.chatId;
      if (u.type === "chat-created" && u.chat.isActive) active = u.chat.id;
    }
    return active;
  }

  /** A tool call part the agent created, once it shows. */
  async toolCall(test: (part: Json) => boolean): Promise<Json> {
    const find = () => this.updates.find(({ u }) => u.type === "message-updated" && u.update.content.type === "tool-call" && test(u.update.content))?.u.update.content as Json | undefined;
    return this.waitFor("such a tool call", find);
  }

  /** Waits for the agent to report `isWorking: working` after the `from`-th update. */
  async working(working: boolean, from = 0): Promise<void> {
    await this.waitFor(`isWorking ${working}`, () => this.updates.slice(from).some(({ u }) => u.type === "agent-state" && u.isWorking === working));
  }

  /** Calls a mutation; the agent's error answer is a result here, not a throw. */
  async mutate(path: string, input: unknown, client: Client = this.trpc): Promise<{ ok: boolean; value: unknown }> {
    const [router, procedure] = path.split(".") as [string, string];
    return (client[router][procedure].mutate(input) as Promise<unknown>).then(
      (value) => ({ ok: true, value }),
      (value: unknown) => ({ ok: false, value }),
    );
  }

  /** Stays idle until the agent pings and the toolbar answered. */
  async pong(): Promise<void> {
    const before = this.pongs;
    await this.waitFor("a PING answered", () => this.pongs > before);
  }

  async close(): Promise<void> {
    this.resume = "never";
    this.unfollow();
    await this.wsClient.close();
  }
}

/** The mock drops every socket; @trpc/client opens a new one at once; waits for it (and for a snapshot on it when the toolbar follows). */
async function dropped(t: Toolbar, mock: RunningStagewiseMock): Promise<void> {
  const sockets = t.sockets.length;
  const snapshots = t.snapshots();
  await fetch(`${mock.url}/__agentwire/drop`, { method: "POST" });
  await t.waitFor("a new socket", () => t.sockets.length > sockets && t.socket().readyState === WebSocket.OPEN);
  if (t.resume !== "never") await t.snapshot(snapshots + 1);
}

/** The good toolbar's turn: a file request, its approval, the toolbar tool's result, the end of the turn. */
async function goodTurn(t: Toolbar, approve = (callId: string) => t.mutate("chat.approveToolCall", { chatId: t.activeChat(), toolCallId: callId, approved: true, metadata: METADATA })): Promise<void> {
  const from = t.updates.length;
  await t.mutate("chat.sendMessage", { chatId: t.activeChat(), content: [{ type: "text", text: "Write the file b.css" }], metadata: METADATA });
  const approval = await t.toolCall((p) => p.requiresApproval === true);
  await approve(approval.toolCallId as string);
  const toolbar = await t.toolCall((p) => p.runtime === "toolbar");
  await t.mutate("chat.reportToolResult", { chatId: t.activeChat(), toolCallId: toolbar.toolCallId, output: { color: "blue" } });
  await t.working(true, from);
  const started = t.updates.slice(from).findIndex(({ u }) => u.type === "agent-state" && u.isWorking === true) + from;
  await t.working(false, started + 1);
}

/** The good toolbar's ending: a new chat while the agent is idle, then idle until a keep-alive answered. */
async function goodEnd(t: Toolbar): Promise<void> {
  await sleep(SETTLE_MS);
  await t.mutate("chat.createChat", { title: "Next" });
  await t.pong();
}

interface Fixture {
  mock?: StagewiseStartOptions;
  run(t: Toolbar, mock: RunningStagewiseMock): Promise<void>;
}

const FIXTURES: Record<string, Fixture> = {
  clean: {
    async run(t, mock) {
      await goodTurn(t);
      // @trpc/client resubscribes after the drop, with the last event id.
      await dropped(t, mock);
      await t.mutate("chat.updateChatTitle", { chatId: t.activeChat(), title: "Styles" });
      await t.mutate("messaging.sendUserMessage", USER_MESSAGE);
      await goodEnd(t);
    },
  },
  "no-resubscribe": {
    async run(t, mock) {
      await goodTurn(t);
      t.resume = "never";
      await dropped(t, mock);
      // Connected and answering keep-alives, but never following the chat again.
      await sleep(10_500);
      await goodEnd(t);
    },
  },
  "no-last-event-id": {
    async run(t, mock) {
      await goodTurn(t);
      // Follows again from scratch after the drop, forgetting the id @trpc/client would have sent.
      t.resume = "fresh";
      await dropped(t, mock);
      await goodEnd(t);
    },
  },
  "not-json": {
    async run(t) {
      // @trpc/client only sends JSON: bytes that are not come as a raw frame on its socket.
      t.socket().send("hello agent");
      await goodTurn(t);
      await goodEnd(t);
    },
  },
  "reused-id": {
    async run(t) {
      // @trpc/client numbers every request afresh, so a reused id is a raw frame on its socket: a mutation under the
      // id of the chat subscription, still in flight.
      const id = t.sent.filter((f) => f.startsWith("{")).map((f) => JSON.parse(f) as Json).find((f) => f.method === "subscription" && f.params?.path === "chat.getChatUpdates")!.id as number;
      t.socket().send(JSON.stringify({ id, method: "mutation", params: { path: "chat.updateChatTitle", input: superjson.serialize({ chatId: t.activeChat(), title: "One" }) } }));
      await goodTurn(t);
      await goodEnd(t);
    },
  },
  "query-kind": {
    async run(t) {
      // chat.stop is a mutation; the untyped client calls it as a query.
      await t.trpc.chat.stop.query().catch(() => undefined);
      await goodTurn(t);
      await goodEnd(t);
    },
  },
  "empty-content": {
    async run(t) {
      await t.mutate("chat.sendMessage", { chatId: t.activeChat(), content: [], metadata: METADATA });
      await goodTurn(t);
      await goodEnd(t);
    },
  },
  "no-metadata": {
    async run(t) {
      await t.mutate("chat.sendMessage", { chatId: t.activeChat(), content: [{ type: "text", text: "Hi" }] });
      await goodTurn(t);
      await goodEnd(t);
    },
  },
  "bad-user-message": {
    async run(t) {
      await t.mutate("messaging.sendUserMessage", { ...USER_MESSAGE, sentByPlugin: "no" });
      await goodTurn(t);
      await goodEnd(t);
    },
  },
  "untagged-date": {
    async run(t) {
      // The messaging client was built without superjson on the way out: createdAt goes as an untagged string.
      await t.mutate("messaging.sendUserMessage", USER_MESSAGE, t.client(PLAIN_JSON_INPUT as unknown as Parameters<typeof wsLink>[0]["transformer"]));
      await goodTurn(t);
      await goodEnd(t);
    },
  },
  "wrong-chat": {
    mock: { scenario: "multi-chat" },
    async run(t) {
      // Sends to a chat the toolbar knows of but that is not the active one.
      await t.mutate("chat.sendMessage", { chatId: "chat-styles", content: [{ type: "text", text: "Hi" }], metadata: METADATA });
      await t.mutate("chat.updateChatTitle", { chatId: t.activeChat(), title: "Greeting" });
      await goodEnd(t);
    },
  },
  "create-while-working": {
    async run(t) {
      const from = t.updates.length;
      await t.mutate("chat.sendMessage", { chatId: t.activeChat(), content: [{ type: "text", text: "Write the file b.css" }], metadata: METADATA });
      await t.working(true, from);
      // The agent waits for the approval, working: long enough for the toolbar to have read that it works.
      const approval = await t.toolCall((p) => p.requiresApproval === true);
      await sleep(SETTLE_MS);
      await t.mutate("chat.createChat", { title: "Meanwhile" });
      await t.mutate("chat.approveToolCall", { chatId: t.activeChat(), toolCallId: approval.toolCallId, approved: true, metadata: METADATA });
      const toolbar = await t.toolCall((p) => p.runtime === "toolbar");
      await t.mutate("chat.reportToolResult", { chatId: t.activeChat(), toolCallId: toolbar.toolCallId, output: "blue" });
      const started = t.updates.slice(from).findIndex(({ u }) => u.type === "agent-state" && u.isWorking === true) + from;
      await t.working(false, started + 1);
      await t.pong();
    },
  },
  "approve-twice": {
    async run(t) {
      await goodTurn(t, async (callId) => {
        const input = { chatId: t.activeChat(), toolCallId: callId, approved: true, metadata: METADATA };
        await t.mutate("chat.approveToolCall", input);
        return t.mutate("chat.approveToolCall", input);
      });
      await goodEnd(t);
    },
  },
  "phantom-result": {
    async run(t) {
      await goodTurn(t, async (callId) => {
        const answer = await t.mutate("chat.approveToolCall", { chatId: t.activeChat(), toolCallId: callId, approved: true, metadata: METADATA });
        // The backend's own call: not the toolbar's to report.
        await t.mutate("chat.reportToolResult", { chatId: t.activeChat(), toolCallId: callId, output: "done" });
        return answer;
      });
      await goodEnd(t);
    },
  },
  "no-pong": {
    async run(t) {
      await goodTurn(t);
      await sleep(SETTLE_MS);
      await t.mutate("chat.createChat", { title: "Next" });
      t.answerPings = false;
      // The mock pings after 300 ms of silence and drops the socket 5 s later; @trpc/client reconnects and resumes.
      const sockets = t.sockets.length;
      const snapshots = t.snapshots();
      await t.waitFor("the mock's drop", () => t.sockets.length > sockets, 8_000);
      await t.snapshot(snapshots + 1);
    },
  },
};

async function record(name: string, f: Fixture): Promise<TranscriptEvent[]> {
  const bus = new TranscriptBus();
  const events: TranscriptEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const mock = await startStagewiseMock({ ...QUICK, ...f.mock, bus });
  const wsUrl = mock.wsUrl;
  let t: Toolbar | undefined;
  try {
    await fetch(`${mock.url}/stagewise/info`);
    t = new Toolbar(wsUrl);
    t.follow();
    await t.snapshot(1);
    await f.run(t, mock);
    await t.close();
    await sleep(100);
  } catch (error) {
    throw new Error(`${name}: ${(error as Error).message}`);
  } finally {
    await t?.close().catch(() => undefined);
    await mock.close();
  }
  return events;
}

const wanted = process.argv.slice(2);
mkdirSync(OUT, { recursive: true });
for (const [name, f] of Object.entries(FIXTURES)) {
  if (wanted.length && !wanted.includes(name)) continue;
  const events = await record(name, f);
  writeFileSync(join(OUT, `${name}.jsonl`), events.map((e) => eventToJsonLine(e) + "\n").join(""));
  console.log(`${name}: ${events.length} events`);
}
