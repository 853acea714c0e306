/**
 * The mock writes the live updates of chat subscriptions itself (live-chat.ts) instead of letting tRPC iterate them.
 * The same conversations, played once that way and once with every frame through tRPC (`viaTrpc`), must put the same
 * bytes on the wire: each subscription's frames in the same order, and the other frames (answers, errors) in theirs.
 * Only a subscription's frames may come earlier relative to answers (they leave as the agent emits them).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RunningStagewiseMock, StagewiseStartOptions } from "../../../src/mocks/stagewise-chat/index.js";
import { startStagewiseMock } from "../../../src/mocks/stagewise-chat/index.js";
import { CHAT, METADATA, Raw, type Json, type Received } from "./helpers.js";

const open: (RunningStagewiseMock | Raw)[] = [];
afterEach(async () => {
  for (const x of open.splice(0)) await x.close();
});

const VOID = { json: null, meta: { values: ["undefined"] } };
/** Astral characters, a ZWJ sequence, escapes JSON must write, a line separator. */
const TEXT = 'héllo wörld 🎨 👩‍💻 日本語 "quoted" \\ back\u2028 tab\t end';

/** What a chat update is, whatever envelope a fault put it in. */
function updateOf(f: Received): Json | undefined {
  const data = f.json?.result?.type === "data" ? f.json.result.data : undefined;
  const value = data?.json ?? data;
  return (value?.data ?? value) as Json | undefined;
}

interface Run {
  raw: Raw;
  mock: RunningStagewiseMock;
  /** The chat subscription's id. */
  sub: string;
  chatId: string;
}

/** Opens a connection and subscribes to chat updates as "s1" over JSON-RPC 2.0, waiting for the snapshot. */
async function connect(mock: RunningStagewiseMock, query: string): Promise<Omit<Run, "mock">> {
  const raw = await Raw.open(`${mock.wsUrl}${query}`);
  open.push(raw);
  raw.send({ id: "s1", jsonrpc: "2.0", method: "subscription", params: { path: CHAT, input: VOID } });
  const list = await raw.waitFor((f) => f.json?.id === "s1" && updateOf(f)?.type === "chat-list");
  await raw.waitFor((f) => f.json?.id === "s1" && (updateOf(f)?.type === "agent-state" || f.json.result?.type === "stopped"));
  return { raw, sub: "s1", chatId: (updateOf(list)!.chats as Json[]).find((c) => c.isActive)!.id as string };
}

/** Sends a message and waits until the agent is idle again (or the socket closed). */
async function say(run: Run, text: string): Promise<Json> {
  const from = run.raw.frames.length;
  const answer = await run.raw.mutate("chat.sendMessage", { chatId: run.chatId, content: [{ type: "text", text }], metadata: METADATA });
  if (answer.error) return answer;
  await idle(run, from);
  return answer;
}

async function idle(run: Run, from: number): Promise<void> {
  try {
    await run.raw.waitFor((f) => f.json?.id === run.sub && updateOf(f)?.type === "agent-state" && updateOf(f)?.isWorking === false, 5_000, from);
  } catch (error) {
    if (!run.raw.closed) throw error;
  }
}

async function toolCall(run: Run, from: number): Promise<Json> {
  const f = await run.raw.waitFor((x) => x.json?.id === run.sub && updateOf(x)?.update?.content?.type === "tool-call", 5_000, from);
  return updateOf(f)!.update.content as Json;
}

interface Case {
  name: string;
  options?: StagewiseStartOptions;
  query?: string;
  /** The fault or framing changes the subscription's frames (checked against a run without it). */
  alters?: boolean;
  play(run: Run): Promise<void>;
}

const echo = (text = TEXT) => async (run: Run) => {
  await say(run, text);
};

const CASES: Case[] = [
  { name: "an echo turn of multi-byte text, deltas with no pause", play: echo() },
  { name: "an echo turn of multi-byte text, paced", options: { chunkDelayMs: 2, firstDelayMs: 2 }, play: echo() },
  { name: "the long-stream turn in 4-character deltas (bursts of many)", options: { chunkSize: 4 }, play: echo(`scenario:long-stream ${TEXT}`) },
  { name: "a reasoning part, then two turns", options: { scenario: "reasoning" }, play: async (run) => (await say(run, "one"), void (await say(run, "two"))) },
  {
    name: "a backend tool call approved, then a toolbar tool and its result",
    play: async (run) => {
      const from = run.raw.frames.length;
      await run.raw.mutate("chat.sendMessage", { chatId: run.chatId, content: [{ type: "text", text: "write the file" }], metadata: METADATA });
      const call = await toolCall(run, from);
      await run.raw.mutate("chat.approveToolCall", { chatId: run.chatId, toolCallId: call.toolCallId, approved: true, metadata: METADATA });
      const styles = await toolCall(run, run.raw.frames.findIndex((f) => updateOf(f)?.update?.content?.toolCallId === call.toolCallId) + 1);
      await run.raw.mutate("chat.reportToolResult", { chatId: run.chatId, toolCallId: styles.toolCallId, output: { color: "red", sizes: [1, 2.5, -3], nested: { empty: {} } } });
      await idle(run, from);
    },
  },
  {
    name: "a second subscription mid-turn (its snapshot holds the streamed text and the open call), then the turn ends",
    play: async (run) => {
      const from = run.raw.frames.length;
      await run.raw.mutate("chat.sendMessage", { chatId: run.chatId, content: [{ type: "text", text: "scenario:toolbar-tool look" }], metadata: METADATA });
      const call = await toolCall(run, from);
      run.raw.send({ id: "s2", method: "subscription", params: { path: CHAT, input: VOID } });
      await run.raw.waitFor((f) => f.json?.id === "s2" && updateOf(f)?.type === "agent-state", 5_000, from);
      await run.raw.mutate("chat.reportToolResult", { chatId: run.chatId, toolCallId: call.toolCallId, output: "seen" });
      await idle({ ...run, sub: "s2" }, from);
      await idle(run, from);
    },
  },
  {
    name: "errors: an unknown chat, a send while working, bad JSON, an unknown path",
    play: async (run) => {
      expect((await run.raw.mutate("chat.sendMessage", { chatId: "nope", content: [{ type: "text", text: "x" }], metadata: METADATA })).error).toBeDefined();
      const from = run.raw.frames.length;
      const first = run.raw.mutate("chat.sendMessage", { chatId: run.chatId, content: [{ type: "text", text: "first" }], metadata: METADATA });
      const second = await run.raw.mutate("chat.sendMessage", { chatId: run.chatId, content: [{ type: "text", text: "second" }], metadata: METADATA });
      expect(second.error?.json?.data?.reason).toBe("agent-working");
      await first;
      await idle(run, from);
      run.raw.send("{not json");
      await run.raw.mutate("chat.nope", {});
    },
  },
  {
    name: "a stop while the agent waits on the toolbar, then unsubscribe and resubscribe",
    play: async (run) => {
      const from = run.raw.frames.length;
      await run.raw.mutate("chat.sendMessage", { chatId: run.chatId, content: [{ type: "text", text: "scenario:toolbar-tool stop me" }], metadata: METADATA });
      await toolCall(run, from);
      await run.raw.mutate("chat.stop", undefined);
      await idle(run, from);
      run.raw.send({ id: run.sub, method: "subscription.stop" });
      await run.raw.waitFor((f) => f.json?.id === run.sub && f.json.result?.type === "stopped", 5_000, from);
      run.raw.send({ id: "s2", method: "subscription", params: { path: CHAT, input: VOID } });
      await run.raw.waitFor((f) => f.json?.id === "s2" && updateOf(f)?.type === "agent-state");
      await say({ ...run, sub: "s2" }, "again");
    },
  },
  { name: "framing split-surrogate (a delta ends in half an astral character)", options: { framing: "split-surrogate" }, play: echo() },
  { name: "framing zwj-split", options: { framing: "zwj-split" }, play: echo() },
  { name: "framing fragmented (continuation frames)", query: "?framing=fragmented", play: echo() },
  { name: "framing referential-meta (superjson references)", query: "?framing=referential-meta", play: echo() },
  { name: "framing result-first (updates held behind the answer)", query: "?framing=result-first", play: echo() },
  { name: "fault seq-gap", query: "?fault=seq-gap", alters: true, play: async (run) => (await say(run, "one"), void (await say(run, "two"))) },
  { name: "fault untracked-updates", query: "?fault=untracked-updates", alters: true, play: echo() },
  { name: "fault dates-as-strings", query: "?fault=dates-as-strings", alters: true, play: echo() },
  { name: "fault binary-frames", query: "?fault=binary-frames", alters: true, play: echo() },
  { name: "fault aliased-frames", query: "?fault=aliased-frames", alters: true, play: echo() },
  { name: "scenario drop-after-n (the connection closes after 5 deltas)", options: { scenario: "drop-after-n" }, play: echo() },
  {
    name: "scenario restart (the next connection's ids count from the restart)",
    options: { scenario: "restart" },
    play: async (run) => {
      await say(run, "one");
      await run.raw.waitFor(() => false, 2_000).catch(() => {});
      expect(run.raw.closed?.code).toBe(1012);
      const next = await connect(run.mock, "");
      await say({ ...run, ...next }, "two");
      run.raw.frames.push(...next.raw.frames);
    },
  },
];

const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;

/** The frames of one run: those of each subscription, and the others, each in order; timestamps masked. */
function split(frames: readonly Received[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of frames) {
    if (f.text === "PING" || f.text === "PONG") continue;
    const id = f.json?.id;
    const key = (id === "s1" || id === "s2") && f.json?.method !== "reconnect" ? `sub ${id}` : "answers";
    (out[key] ??= []).push(`${f.binary ? "binary " : ""}${f.text.replace(ISO, "<date>")}`);
  }
  return out;
}

/** Plays a case on a fresh mock; `live` counts the updates its connections wrote themselves, `snapshots` the snapshots. */
async function play(c: Case, viaTrpc: boolean): Promise<{ frames: Record<string, string[]>; live: number; snapshots: number }> {
  const mock = await startStagewiseMock({ port: 0, firstDelayMs: 0, chunkDelayMs: 0, chunkSize: 8, ...c.options, viaTrpc });
  open.push(mock);
  let live = 0;
  let snapshots = 0;
  const core = mock.engine.core;
  const ask = core.liveChat;
  if (ask) {
    core.liveChat = (viaTrpcOne) => {
      const writer = ask(viaTrpcOne);
      if (!writer) return undefined;
      const write = writer.write.bind(writer);
      writer.write = (event) => {
        live++;
        write(event);
      };
      const snapshot = writer.snapshot!.bind(writer);
      writer.snapshot = (events) => {
        const written = snapshot(events);
        if (written) snapshots++;
        return written;
      };
      return writer;
    };
  }
  const conn = await connect(mock, c.query ?? "");
  await c.play({ ...conn, mock });
  // Anything still on its way (a held frame, a close) lands before the comparison.
  await new Promise((resolve) => setTimeout(resolve, 30));
  return { frames: split(conn.raw.frames), live, snapshots };
}

describe("stagewise-chat mock: live chat updates written by the mock", () => {
  for (const c of CASES) {
    it(`sends what tRPC sends: ${c.name}`, async () => {
      const slow = await play(c, true);
      const fast = await play(c, false);
      expect(slow.live).toBe(0);
      // The mock's own writes carried the turn (a test of nothing otherwise).
      expect(fast.live).toBeGreaterThan(3);
      expect(slow.snapshots).toBe(0);
      expect(fast.snapshots).toBeGreaterThan(0);
      expect(Object.keys(fast.frames).sort()).toEqual(Object.keys(slow.frames).sort());
      for (const key of Object.keys(slow.frames)) expect(fast.frames[key], key).toEqual(slow.frames[key]);
      // A fault or framing that rewrites frames still does when the mock writes them.
      if (c.alters) expect((await play({ ...c, query: "" }, false)).frames["sub s1"]).not.toEqual(fast.frames["sub s1"]);
    });
  }
});

describe("stagewise-chat mock: pace", () => {
  /**
   * Plays one echo turn; each delta with the event-loop turn it was emitted in and when the mock emitted it (the
   * mock's own clock: arrivals at the toolbar bunch up whenever the loaded test process reads late).
   */
  async function deltas(options: StagewiseStartOptions): Promise<{ turn: number; at: number }[]> {
    const mock = await startStagewiseMock({ port: 0, firstDelayMs: 0, chunkSize: 4, ...options });
    open.push(mock);
    // A counter bumped once per turn of the event loop (setImmediate runs once per loop iteration).
    let loopTurn = 0;
    let ticking = true;
    const tick = () => {
      loopTurn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const emitted: { turn: number; at: number }[] = [];
    const stop = mock.engine.core.agent.store.subscribe(({ update }) => {
      if (update.type === "message-updated") emitted.push({ turn: loopTurn, at: performance.now() });
    });
    const conn = await connect(mock, "");
    const from = conn.raw.frames.length;
    let arrived = 0;
    conn.raw.ws.on("message", (data: Buffer) => {
      if (String(data).includes('"message-updated"')) arrived++;
    });
    await say({ ...conn, mock }, "pace me with thirty characters");
    ticking = false;
    stop();
    expect(conn.raw.frames.length).toBeGreaterThan(from);
    expect(arrived).toBe(emitted.length);
    return emitted;
  }

  it("emits deltas with no pause between them in one turn of the event loop", async () => {
    const got = await deltas({ chunkDelayMs: 0 });
    expect(got.length).toBeGreaterThan(5);
    expect(new Set(got.map((d) => d.turn)).size).toBe(1);
  });

  it("keeps a non-zero pause between deltas", async () => {
    const got = await deltas({ chunkDelayMs: 15 });
    expect(got.length).toBeGreaterThan(5);
    // One delta per turn of the loop, each at least about the pause after the one before on the mock's clock (timers never fire early).
    expect(new Set(got.map((d) => d.turn)).size).toBe(got.length);
    for (let i = 1; i < got.length; i++) expect(got[i]!.at - got[i - 1]!.at).toBeGreaterThan(8);
  });
});
