import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "node:net";
import { createAgentServer, FIRST_PORT, LAST_PORT, type AgentHooks, type AgentServer, type AgentServerOptions } from "../../src/stagewise/index.js";
import { compareChatStates } from "../../src/stagewise/snapshot-compare.js";
import { connect, Follower, METADATA, rejection, sleep, until, type Toolbar } from "./adapter-client.js";

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

async function agent(options: AgentServerOptions = {}): Promise<AgentServer> {
  const server = await createAgentServer({ port: 0, coalesceMs: 0, ...options });
  open.push(() => server.close());
  return server;
}

function toolbar(server: AgentServer): Toolbar {
  const t = connect(server.wsUrl);
  open.push(() => t.close());
  return t;
}

const text = (t: string) => ({ chatId: "", content: [{ type: "text" as const, text: t }] as [{ type: "text"; text: string }], metadata: METADATA });

/** A fresh subscriber's snapshot, reduced. */
async function freshState(server: AgentServer) {
  const f = new Follower(toolbar(server));
  await f.waitFor((e) => e.update.type === "agent-state");
  f.stop();
  return f.reduced();
}

describe("stagewise agent adapter: discovery and lifecycle", () => {
  it("answers discovery with CORS, refuses other routes with JSON, and takes the first free port from 5746", async () => {
    const a = await createAgentServer({ name: "t", description: "d" });
    open.push(() => a.close());
    const b = await createAgentServer();
    open.push(() => b.close());
    for (const s of [a, b]) expect(s.port).toBeGreaterThanOrEqual(FIRST_PORT), expect(s.port).toBeLessThanOrEqual(LAST_PORT);
    expect(b.port).not.toBe(a.port);
    expect(a.host).toBe("127.0.0.1");

    const info = await fetch(a.infoUrl, { headers: { origin: "http://localhost:3000" } });
    expect(info.status).toBe(200);
    expect(info.headers.get("access-control-allow-origin")).toBe("*");
    expect(await info.json()).toEqual({ name: "t", description: "d", capabilities: { toolCalling: false, chatHistory: true } });
    expect((await fetch(a.infoUrl, { method: "OPTIONS" })).status).toBe(204);
    const missing = await fetch(`${a.url}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toHaveProperty("error");
    expect((await fetch(a.infoUrl, { method: "POST" })).status).toBe(405);
  });

  it("close() frees the port and ends the sockets", async () => {
    const s = await createAgentServer({ port: 0 });
    const t = connect(s.wsUrl);
    const f = new Follower(t);
    await f.waitFor((e) => e.update.type === "agent-state");
    await s.close();
    await new Promise<void>((resolve, reject) => {
      const probe = createServer();
      probe.once("error", reject);
      probe.listen(s.port, "127.0.0.1", () => probe.close(() => resolve()));
    });
    await t.close();
  });
});

describe("stagewise agent adapter: sync", () => {
  it("a subscribe gets the snapshot at the head, then gap-free deltas; following them equals a fresh snapshot", async () => {
    const changes: number[] = [];
    const s = await agent({ coalesceMs: 5, hooks: { onChange: (_update, seq) => changes.push(seq) } });
    const first = s.chat.activeChatId!;
    const m = s.chat.addMessage({ role: "assistant", content: [] });
    s.chat.streamPart(m, 0, "Hel");
    const a = new Follower(toolbar(s));
    const snapshot = await a.waitFor((e) => e.update.type === "agent-state");
    // chat-list, the active chat's full sync and agent-state, all carrying the head.
    expect(a.events.map((e) => e.update.type)).toEqual(["chat-list", "chat-full-sync", "agent-state"]);
    expect(new Set(a.events.map((e) => e.seq))).toEqual(new Set([s.chat.seq]));
    expect(snapshot.seq).toBe(2);

    // Every kind of change, some of them coalesced.
    s.chat.streamPart(m, 0, "lo");
    s.chat.streamPart(m, 0, " world");
    s.chat.streamPart(m, 1, { type: "reasoning", text: "r" });
    s.chat.setPart(m, 1, { type: "text", text: "replaced" });
    s.chat.finishMessage(m);
    const second = s.chat.createChat({ title: "Second" });
    s.chat.addMessage({ role: "assistant", content: [{ type: "text", text: "in second" }] });
    const other = s.chat.addMessage({ role: "assistant", content: [] }, { chatId: first });
    s.chat.streamPart(other, 0, "while inactive");
    s.chat.updateChatTitle(first, "First");
    s.chat.switchChat(first);
    s.chat.setWorking(true, "thinking hard");
    s.chat.setWorking(false);
    s.chat.deleteChat(second);
    const head = s.chat.seq;
    await a.reach(head);
    await sleep(30);
    const deltas = a.events.slice(3);
    expect(deltas.map((e) => e.seq)).toEqual(Array.from({ length: head - snapshot.seq }, (_, i) => snapshot.seq + 1 + i));
    // The three appends to part 0 went out as one.
    expect(deltas.filter((e) => e.update.type === "message-updated" && e.update.update.updateType === "append")).toHaveLength(1);

    // The persistence observer saw every delta, in order.
    expect(changes).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    const reduced = a.reduced();
    const fresh = await freshState(s);
    expect(compareChatStates(reduced, fresh)).toBeNull();
    expect(compareChatStates(reduced, s.chat.state())).toBeNull();
    expect(reduced.messages.map((x) => x.content)).toEqual([[{ type: "text", text: "Hello world" }, { type: "text", text: "replaced" }], [{ type: "text", text: "while inactive" }]]);
  });

  it("resubscribing with any lastEventId gets a fresh snapshot, and two subscribers see the same ids", async () => {
    const s = await agent();
    const t = toolbar(s);
    const a = new Follower(t);
    await a.waitFor((e) => e.update.type === "agent-state");
    s.chat.addMessage({ role: "assistant", content: [{ type: "text", text: "x" }] });
    const b = new Follower(t);
    await b.waitFor((e) => e.update.type === "agent-state");
    s.chat.updateChatTitle(s.chat.activeChatId!, "T");
    await a.reach(2);
    await b.reach(2);
    expect(a.events.at(-1)).toEqual(b.events.at(-1));
    const resumed = await new Promise<unknown[]>((resolve) => {
      const seen: unknown[] = [];
      const sub = t.trpc.chat.getChatUpdates.subscribe(
        { lastEventId: "x" },
        {
          onData: (e: unknown) => {
            seen.push(e);
            if (seen.length === 3) (sub.unsubscribe(), resolve(seen));
          },
        },
      );
    });
    expect(resumed.map((e) => (e as { id: string }).id)).toEqual(["2", "2", "2"]);
  });

  it("messaging.getMessage mirrors the latest assistant reply; a follower equals a fresh resync", async () => {
    const s = await agent();
    const t = toolbar(s);
    const frames: { messageId: string; resync: boolean; updateParts: unknown[] }[] = [];
    const sub = t.trpc.messaging.getMessage.subscribe(undefined, { onData: (u) => frames.push(u as never) });
    await until(() => frames.length > 0, "the first messaging frame");
    expect(frames[0]).toMatchObject({ resync: true, updateParts: [] });
    const m = s.chat.addMessage({ role: "assistant", content: [] });
    s.chat.streamPart(m, 0, "Hi");
    s.chat.streamPart(m, 0, " there");
    await until(() => JSON.stringify(frames.at(-1)).includes(" there"), "the streamed part");
    sub.unsubscribe();
    expect(frames.at(-1)).toMatchObject({ messageId: m, resync: false, updateParts: [{ contentIndex: 0, part: { type: "text", text: " there" } }] });
    expect(s.messaging.get()).toMatchObject({ messageId: m, parts: [{ type: "text", text: "Hi there" }] });
    expect(await t.trpc.messaging.sendUserMessage.mutate({ id: "u1", contentItems: [{ type: "text", text: "hi" }], createdAt: new Date() as never, metadata: METADATA, pluginContent: {}, sentByPlugin: false })).toBeUndefined();
  });
});

describe("stagewise agent adapter: toolbar requests", () => {
  /** An agent whose turn waits until released, so the gate can be probed. */
  async function busyAgent(hooks: AgentHooks = {}) {
    // The hook may start a moment after the working state is broadcast: release waits for it.
    let entered!: (release: () => void) => void;
    const hookEntered = new Promise<() => void>((resolve) => (entered = resolve));
    const s = await agent({
      hooks: {
        ...hooks,
        onUserMessage: ({ signal }) =>
          new Promise<void>((resolve) => {
            entered(resolve);
            signal.addEventListener("abort", () => resolve());
          }),
      },
    });
    const t = toolbar(s);
    const f = new Follower(t);
    await f.waitFor((e) => e.update.type === "agent-state");
    return { s, t, f, release: async () => (await hookEntered)() };
  }

  it("a turn: user message stored and echoed, working brackets the hook, the id comes back", async () => {
    const { s, t, f, release } = await busyAgent();
    const chatId = s.chat.activeChatId!;
    const id = await t.trpc.chat.sendMessage.mutate({ ...text("hello"), chatId });
    const added = await f.waitFor((e) => e.update.type === "message-added");
    expect(added.update).toMatchObject({ chatId, message: { id, role: "user", content: [{ type: "text", text: "hello" }], metadata: METADATA } });
    await f.waitFor((e) => e.update.type === "agent-state" && e.update.isWorking, 3_000, 3);
    expect(s.chat.isWorking).toBe(true);
    expect(s.state.get().state).toBe("working");
    await release();
    await f.waitFor((e) => e.update.type === "agent-state" && !e.update.isWorking, 3_000, 5);
    expect(s.state.get().state).toBe("idle");
  });

  it("while working, gated calls get CONFLICT agent-working and change nothing; ids, order and input come first", async () => {
    const { s, t, f, release } = await busyAgent();
    const chatId = s.chat.activeChatId!;
    const other = await t.trpc.chat.createChat.mutate({ title: "Other" });
    await t.trpc.chat.switchChat.mutate({ chatId });
    const userMessage = await t.trpc.chat.sendMessage.mutate({ ...text("go"), chatId });
    await f.waitFor((e) => e.update.type === "agent-state" && e.update.isWorking, 3_000, 3);
    const head = s.chat.seq;
    const before = s.chat.state();

    const gated = [
      t.trpc.chat.createChat.mutate(undefined),
      t.trpc.chat.switchChat.mutate({ chatId: other }),
      t.trpc.chat.deleteChat.mutate({ chatId: other }),
      t.trpc.chat.deleteMessageAndSubsequent.mutate({ chatId, messageId: userMessage }),
      t.trpc.chat.sendMessage.mutate({ ...text("again"), chatId }),
    ];
    for (const call of gated) expect(await rejection(call)).toMatchObject({ code: "CONFLICT", httpStatus: 409, reason: "agent-working" });
    // Unknown ids are named before the gate; bad input before anything.
    expect(await rejection(t.trpc.chat.deleteChat.mutate({ chatId: "nope" }))).toMatchObject({ code: "NOT_FOUND", reason: "chat-not-found" });
    expect(await rejection(t.trpc.chat.deleteMessageAndSubsequent.mutate({ chatId, messageId: "nope" }))).toMatchObject({ code: "NOT_FOUND", reason: "message-not-found" });
    expect(await rejection(t.trpc.chat.createChat.mutate({ title: "" }))).toMatchObject({ code: "BAD_REQUEST", httpStatus: 400, reason: "invalid-input" });
    expect(await rejection(t.trpc.chat.sendMessage.mutate({ chatId, content: [], metadata: METADATA } as never))).toMatchObject({ code: "BAD_REQUEST", reason: "invalid-input" });
    expect(await rejection(t.trpc.chat.approveToolCall.mutate({ chatId, toolCallId: "nope", approved: true, metadata: METADATA }))).toMatchObject({ code: "NOT_FOUND", reason: "tool-call-not-found" });
    // Switching to the active chat is a no-op even while working; a title is always allowed.
    await t.trpc.chat.switchChat.mutate({ chatId });
    expect(s.chat.seq).toBe(head);
    expect(s.chat.state()).toBe(before);
    await t.trpc.chat.updateChatTitle.mutate({ chatId, title: "Renamed" });
    expect(s.chat.seq).toBe(head + 1);
    await release();
    await f.waitFor((e) => e.update.type === "agent-state" && !e.update.isWorking, 3_000, 3 + (head - 2));
    // Idle again: a non-active chat refuses messages, the gate opens.
    expect(await rejection(t.trpc.chat.sendMessage.mutate({ ...text("x"), chatId: other }))).toMatchObject({ code: "CONFLICT", reason: "chat-not-active" });
    await t.trpc.chat.deleteChat.mutate({ chatId: other });
    expect(s.chat.chats().map((c) => c.id)).toEqual([chatId]);
    expect(f.errors).toEqual([]);
  });

  it("hooks may refuse: false or reject() give FORBIDDEN rejected-by-agent and no update", async () => {
    const { reject } = await import("../../src/stagewise/index.js");
    const s = await agent({ hooks: { onCreateChat: () => false, onDeleteChat: () => reject("keep it") } });
    const t = toolbar(s);
    const head = s.chat.seq;
    expect(await rejection(t.trpc.chat.createChat.mutate(undefined))).toMatchObject({ code: "FORBIDDEN", httpStatus: 403, reason: "rejected-by-agent" });
    expect(await rejection(t.trpc.chat.deleteChat.mutate({ chatId: s.chat.activeChatId! }))).toMatchObject({ code: "FORBIDDEN", reason: "rejected-by-agent", message: "keep it" });
    expect(s.chat.seq).toBe(head);
  });

  it("approval and toolbar results: only pending calls are approved, only awaited results reported; stop closes what is open", async () => {
    const seen: string[] = [];
    let turn!: Promise<void>;
    const s = await agent({
      hooks: {
        onToolApproval: (a) => seen.push(`approval ${a.toolCallId} ${String(a.approved)}`),
        onToolResult: (r) => seen.push(`result ${r.toolName}`),
        onUserMessage: ({ signal }) =>
          (turn = (async () => {
            const m = s.chat.addMessage({ role: "assistant", content: [] });
            const approval = s.chat.requestApproval(m, { toolCallId: "t1", toolName: "getStyles", input: {}, runtime: "toolbar" });
            expect((await approval).approved).toBe(true);
            const result = await s.chat.waitForToolResult("t1");
            s.chat.streamPart(m, 1, `got ${String(result.output)}`);
            const second = s.chat.requestApproval(m, { toolCallId: "t2", toolName: "writeFile", input: {}, runtime: "backend" });
            await expect(second).rejects.toThrow(/stopped/);
            expect(signal.aborted).toBe(true);
          })()),
      },
    });
    const t = toolbar(s);
    const f = new Follower(t);
    const chatId = s.chat.activeChatId!;
    await f.waitFor((e) => e.update.type === "agent-state");
    await t.trpc.chat.sendMessage.mutate({ ...text("style?"), chatId });
    await f.waitFor((e) => e.update.type === "message-updated" && e.update.update.content.type === "tool-call");
    const approve = { chatId, toolCallId: "t1", approved: true, metadata: METADATA };
    expect(await rejection(t.trpc.chat.reportToolResult.mutate({ chatId, toolCallId: "t1", output: "red" }))).toMatchObject({ reason: "tool-call-not-pending" });
    await t.trpc.chat.approveToolCall.mutate(approve);
    expect(await rejection(t.trpc.chat.approveToolCall.mutate(approve))).toMatchObject({ code: "CONFLICT", reason: "tool-call-not-pending" });
    await t.trpc.chat.reportToolResult.mutate({ chatId, toolCallId: "t1", output: "red" });
    expect(await rejection(t.trpc.chat.reportToolResult.mutate({ chatId, toolCallId: "t1", output: "red" }))).toMatchObject({ reason: "tool-call-not-pending" });
    await f.waitFor((e) => e.update.type === "message-updated" && e.update.update.content.type === "tool-call" && e.update.update.content.toolCallId === "t2");
    await t.trpc.chat.stop.mutate(undefined);
    await turn;
    await f.waitFor((e) => e.update.type === "agent-state" && !e.update.isWorking, 3_000, 5);
    const messages = s.chat.messages();
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "tool"]);
    expect(messages[2]!.content).toEqual([{ type: "tool-approval", toolCallId: "t1", approved: true }]);
    expect(messages[3]!.content).toEqual([{ type: "tool-result", toolCallId: "t1", toolName: "getStyles", output: "red" }]);
    // The backend call left open by the stop got its "cancelled" error result in its own message.
    expect(messages[1]!.content.at(-1)).toEqual({ type: "tool-result", toolCallId: "t2", toolName: "writeFile", output: "cancelled", isError: true });
    expect(seen).toEqual(["approval t1 true", "result getStyles"]);
    // stop while idle is a no-op.
    const head = s.chat.seq;
    await t.trpc.chat.stop.mutate(undefined);
    expect(s.chat.seq).toBe(head);
    expect(compareChatStates(f.reduced(), await freshState(s))).toBeNull();
  });
});

describe("stagewise agent adapter: emitter misuse throws and changes nothing", () => {
  it.each<[string, (s: AgentServer, m: string) => unknown, RegExp]>([
    ["unknown message", (s) => s.chat.streamPart("nope", 0, "x"), /no message "nope"/],
    ["index beyond the end", (s, m) => s.chat.streamPart(m, 5, "x"), /out of range/],
    ["append onto another type", (s, m) => s.chat.streamPart(m, 0, { type: "reasoning", text: "x" }), /only text or reasoning/],
    ["user messages", (s) => s.chat.addMessage({ role: "user", content: [{ type: "text", text: "x" }] } as never), /assistant or tool/],
    ["invalid part", (s, m) => s.chat.setPart(m, 1, { type: "tool-call", toolCallId: "c", toolName: "x", input: {}, runtime: "server", requiresApproval: false } as never), /not a valid chat-message/],
    ["replacing a tool call", (s, m) => s.chat.setPart(m, 1, { type: "text", text: "x" }), /never replaced/],
    ["a second result", (s) => s.chat.addToolResult("c0", "again"), /already has a result/],
    ["unknown tool call", (s) => s.chat.addToolResult("zz", 1), /no tool call "zz"/],
    ["a result before approval", (s, m) => (s.chat.requestApproval(m, { toolCallId: "c9", toolName: "w", input: {}, runtime: "backend" }).catch(() => {}), s.chat.addToolResult("c9", "ok")), /not approved yet/],
    ["setWorking with a long description", (s) => s.chat.setWorking(true, "x".repeat(200)), /at most 128/],
    ["state incoherent with the working flag", (s) => s.state.set({ state: "working" }), /contradicts/],
    ["chat management while working", (s) => (s.chat.setWorking(true), s.chat.createChat()), /working gate/],
  ])("%s", async (_name, misuse, message) => {
    const s = await agent();
    const m = s.chat.addMessage({ role: "assistant", content: [{ type: "text", text: "a" }, { type: "tool-call", toolCallId: "c0", toolName: "x", input: {}, runtime: "backend", requiresApproval: false }] });
    s.chat.addToolResult("c0", "done");
    const head = s.chat.seq;
    const before = s.chat.state();
    let thrown: unknown;
    try {
      misuse(s, m);
    } catch (error) {
      thrown = error;
    }
    expect(String(thrown)).toMatch(message);
    // Only the setup of the case itself (a tool call, the working flag) may have moved the state.
    if (!/before approval|while working/.test(_name)) {
      expect(s.chat.seq).toBe(head);
      expect(s.chat.state()).toBe(before);
    }
  });

  it("edits of a finished message throw", async () => {
    const s = await agent();
    const m = s.chat.addMessage({ role: "assistant", content: [] });
    s.chat.streamPart(m, 0, "x");
    s.chat.finishMessage(m);
    expect(() => s.chat.streamPart(m, 0, "y")).toThrow(/is finished/);
    expect(() => s.chat.setPart(m, 1, { type: "text", text: "y" })).toThrow(/is finished/);
  });
});
