/**
 * Writes the client-side fixture transcripts of stagewise-chat, fixtures/stagewise-chat/transcripts/client/: the
 * reference mock, quickly paced, records small scripted toolbars speaking raw tRPC frames. One behaves (discovery, a
 * chat subscription, a turn with an approval and a toolbar tool, a messaging message, PONG to the keep-alive); each
 * other breaks one client rule and otherwise behaves. The verdicts each must give (by full check id) are in
 * expected.json there, written by hand.
 *
 *   npx tsx scripts/make-stagewise-chat-client-fixtures.ts [name...]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { eventToJsonLine, TranscriptBus, type TranscriptEvent } from "../src/core/transcript.js";
import { startStagewiseMock, type RunningStagewiseMock, type StagewiseStartOptions } from "../src/mocks/stagewise-chat/index.js";

const OUT = fileURLToPath(new URL("../fixtures/stagewise-chat/transcripts/client/", import.meta.url));
const QUICK: StagewiseStartOptions = { port: 0, firstDelayMs: 10, chunkDelayMs: 10, chunkSize: 16, pingMs: 300 };
const CHAT = "chat.getChatUpdates";
const VOID = { json: null, meta: { values: ["undefined"] } };
const METADATA = {
  currentUrl: "http://localhost:3000/",
  currentTitle: "App",
  currentZoomLevel: 1,
  viewportResolution: { width: 1280, height: 800 },
  devicePixelRatio: 2,
  userAgent: "Mozilla/5.0",
  locale: "en-US",
  selectedElements: [],
};

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A toolbar speaking raw frames; answers PING with PONG unless told not to. */
class Toolbar {
  readonly frames: Json[] = [];
  private next = 1;
  private waiters: (() => void)[] = [];
  chatSub = 0;

  private constructor(
    readonly ws: WebSocket,
    pong: boolean,
  ) {
    ws.on("message", (data: Buffer) => {
      const text = data.toString("utf8");
      if (text === "PING") {
        if (pong) ws.send("PONG");
        return;
      }
      try {
        this.frames.push(JSON.parse(text) as Json);
      } catch {
        /* not for the script */
      }
      for (const w of this.waiters.splice(0)) w();
    });
  }

  static open(url: string, pong = true): Promise<Toolbar> {
    const ws = new WebSocket(url);
    return new Promise((resolve, reject) => {
      ws.once("open", () => resolve(new Toolbar(ws, pong)));
      ws.once("error", reject);
    });
  }

  id(): number {
    return this.next++;
  }

  send(value: unknown): void {
    this.ws.send(typeof value === "string" ? value : JSON.stringify(value));
  }

  request(method: string, path: string, input: unknown, id = this.id()): number {
    this.send({ id, method, params: { path, input: input === undefined ? VOID : { json: input } } });
    return id;
  }

  async mutate(path: string, input: unknown): Promise<Json> {
    const id = this.request("mutation", path, input);
    return this.waitFor((f) => f.id === id && (f.result !== undefined || f.error !== undefined));
  }

  async waitFor(test: (f: Json) => boolean, timeoutMs = 10_000): Promise<Json> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find(test);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no such frame within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 100);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Chat updates of the chat subscription so far. */
  updates(): Json[] {
    return this.frames.filter((f) => f.id === this.chatSub && f.result?.type === "data").map((f) => (f.result.data.json?.data ?? f.result.data.json) as Json);
  }

  /** Subscribes to chat updates and waits for the snapshot's agent-state. */
  async follow(lastEventId?: string): Promise<void> {
    this.chatSub = this.id();
    this.send({ id: this.chatSub, method: "subscription", params: { path: CHAT, input: VOID, ...(lastEventId !== undefined ? { lastEventId } : {}) } });
    await this.waitFor((f) => f.id === this.chatSub && f.result?.data?.json?.data?.type === "agent-state");
  }

  activeChat(): string {
    let active = "";
    for (const u of this.updates()) {
      if (u.type === "chat-list") active = (u.chats as Json[]).find((c) => c.isActive)?.id ?? "";
      if (u.type === "chat-switched") active = u.chatId;
      if (u.type === "chat-created" && u.chat.isActive) active = u.chat.id;
    }
    return active;
  }

  /** A tool call part the agent created, once it shows. */
  async toolCall(test: (part: Json) => boolean): Promise<Json> {
    const find = () => this.updates().find((u) => u.type === "message-updated" && u.update.content.type === "tool-call" && test(u.update.content));
    await this.waitFor(() => find() !== undefined);
    return find()!.update.content as Json;
  }

  /** Waits for `isWorking` to be `working` after the `from`-th update. */
  async working(working: boolean, from = 0): Promise<void> {
    await this.waitFor(() => this.updates().slice(from).some((u) => u.type === "agent-state" && u.isWorking === working));
  }

  /** The id of the last chat event received. */
  lastEventId(): string | undefined {
    return this.frames.filter((f) => f.id === this.chatSub && f.result?.type === "data").at(-1)?.result.id as string | undefined;
  }

  closed(): Promise<void> {
    return this.ws.readyState === WebSocket.CLOSED ? Promise.resolve() : new Promise((resolve) => this.ws.once("close", () => resolve()));
  }

  close(): void {
    this.ws.close();
  }
}

/** The mock drops every socket; the toolbar opens a new one and (unless told otherwise) follows the chat again. */
async function dropped(t: Toolbar, mock: RunningStagewiseMock, resume: "with-id" | "without-id" | "never"): Promise<Toolbar> {
  const last = t.lastEventId();
  await fetch(`${mock.url}/__agentwire/drop`, { method: "POST" });
  await t.closed();
  await sleep(100);
  const next = await Toolbar.open(mock.wsUrl);
  if (resume !== "never") await next.follow(resume === "with-id" ? last : undefined);
  return next;
}

/** The good toolbar's turn: a file request, its approval, the toolbar tool's result, the end of the turn. */
async function goodTurn(t: Toolbar, approve = (callId: string) => t.mutate("chat.approveToolCall", { chatId: t.activeChat(), toolCallId: callId, approved: true, metadata: METADATA })): Promise<void> {
  const from = t.updates().length;
  await t.mutate("chat.sendMessage", { chatId: t.activeChat(), content: [{ type: "text", text: "Write the file b.css" }], metadata: METADATA });
  const approval = await t.toolCall((p) => p.requiresApproval === true);
  await approve(approval.toolCallId);
  const toolbar = await t.toolCall((p) => p.runtime === "toolbar");
  await t.mutate("chat.reportToolResult", { chatId: t.activeChat(), toolCallId: toolbar.toolCallId, output: { color: "blue" } });
  await t.waitFor(() => t.updates().slice(from).filter((u) => u.type === "agent-state" && u.isWorking === false).length > 0 && t.updates().slice(from).some((u) => u.type === "message-updated" && /styles/.test(JSON.stringify(u))));
  await t.working(false, t.updates().length - 1).catch(() => {});
}

const USER_MESSAGE = {
  json: { id: "um-1", contentItems: [{ type: "text", text: "Hello" }], createdAt: "2025-08-08T10:00:00.000Z", metadata: METADATA, pluginContent: {}, sentByPlugin: false },
  meta: { values: { createdAt: ["Date"] } },
};

interface Fixture {
  mock?: StagewiseStartOptions;
  pong?: boolean;
  /** The toolbar it ends with (after a drop, a new one). */
  run(t: Toolbar, mock: RunningStagewiseMock): Promise<Toolbar | void>;
}

const FIXTURES: Record<string, Fixture> = {
  clean: {
    async run(first, mock) {
      await goodTurn(first);
      const t = await dropped(first, mock, "with-id");
      await t.mutate("chat.updateChatTitle", { chatId: t.activeChat(), title: "Styles" });
      await t.mutate("chat.createChat", { title: "Second" });
      const id = t.id();
      t.send({ id, method: "mutation", params: { path: "messaging.sendUserMessage", input: USER_MESSAGE } });
      await t.waitFor((f) => f.id === id);
      // Silence: the mock pings, the toolbar answers.
      await sleep(600);
      return t;
    },
  },
  "no-resubscribe": {
    async run(t, mock) {
      await goodTurn(t);
      const next = await dropped(t, mock, "never");
      // Connected and answering keep-alives, but never following the chat again.
      await sleep(10_500);
      return next;
    },
  },
  "no-last-event-id": {
    async run(t, mock) {
      await goodTurn(t);
      return dropped(t, mock, "without-id");
    },
  },
  "not-json": {
    async run(t) {
      t.send("hello agent");
      await goodTurn(t);
    },
  },
  "reused-id": {
    async run(t) {
      const id = t.id();
      t.request("mutation", "chat.updateChatTitle", { chatId: t.activeChat(), title: "One" }, id);
      t.request("mutation", "chat.updateChatTitle", { chatId: t.activeChat(), title: "Two" }, id);
      await sleep(200);
      await goodTurn(t);
    },
  },
  "query-kind": {
    async run(t) {
      const id = t.request("query", "chat.stop", undefined);
      await t.waitFor((f) => f.id === id);
      await goodTurn(t);
    },
  },
  "empty-content": {
    async run(t) {
      await t.mutate("chat.sendMessage", { chatId: t.activeChat(), content: [], metadata: METADATA });
      await goodTurn(t);
    },
  },
  "no-metadata": {
    async run(t) {
      await t.mutate("chat.sendMessage", { chatId: t.activeChat(), content: [{ type: "text", text: "Hi" }] });
      await goodTurn(t);
    },
  },
  "bad-user-message": {
    async run(t) {
      const id = t.id();
      t.send({ id, method: "mutation", params: { path: "messaging.sendUserMessage", input: { ...USER_MESSAGE, json: { ...USER_MESSAGE.json, sentByPlugin: "no" } } } });
      await t.waitFor((f) => f.id === id);
      await goodTurn(t);
    },
  },
  "untagged-date": {
    async run(t) {
      const id = t.id();
      t.send({ id, method: "mutation", params: { path: "messaging.sendUserMessage", input: { json: USER_MESSAGE.json } } });
      await t.waitFor((f) => f.id === id);
      await goodTurn(t);
    },
  },
  "wrong-chat": {
    mock: { scenario: "multi-chat" },
    async run(t) {
      await t.mutate("chat.sendMessage", { chatId: "chat-styles", content: [{ type: "text", text: "Hi" }], metadata: METADATA });
      await t.mutate("chat.updateChatTitle", { chatId: t.activeChat(), title: "Greeting" });
      await t.mutate("chat.createChat", { title: "Second" });
    },
  },
  "create-while-working": {
    async run(t) {
      const from = t.updates().length;
      await t.mutate("chat.sendMessage", { chatId: t.activeChat(), content: [{ type: "text", text: "Write the file b.css" }], metadata: METADATA });
      await t.working(true, from);
      await t.mutate("chat.createChat", { title: "Meanwhile" });
      const approval = await t.toolCall((p) => p.requiresApproval === true);
      await t.mutate("chat.approveToolCall", { chatId: t.activeChat(), toolCallId: approval.toolCallId, approved: true, metadata: METADATA });
      const toolbar = await t.toolCall((p) => p.runtime === "toolbar");
      await t.mutate("chat.reportToolResult", { chatId: t.activeChat(), toolCallId: toolbar.toolCallId, output: "blue" });
      await sleep(300);
    },
  },
  "approve-twice": {
    async run(t) {
      await goodTurn(t, async (callId) => {
        const input = { chatId: t.activeChat(), toolCallId: callId, approved: true, metadata: METADATA };
        await t.mutate("chat.approveToolCall", input);
        return t.mutate("chat.approveToolCall", input);
      });
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
    },
  },
  "no-pong": {
    pong: false,
    async run(t) {
      await t.mutate("chat.updateChatTitle", { chatId: t.activeChat(), title: "Quiet" });
      // The mock pings after 300 ms of silence and gives up 5 s later.
      await sleep(6_000);
    },
  },
};

async function record(name: string, f: Fixture): Promise<TranscriptEvent[]> {
  const bus = new TranscriptBus();
  const events: TranscriptEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const mock = await startStagewiseMock({ ...QUICK, ...f.mock, bus });
  try {
    await fetch(`${mock.url}/stagewise/info`);
    const t = await Toolbar.open(mock.wsUrl, f.pong ?? true);
    await t.follow();
    const last = (await f.run(t, mock)) ?? t;
    last.close();
    await sleep(100);
  } catch (error) {
    throw new Error(`${name}: ${(error as Error).message}`);
  } finally {
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
