/** The stagewise-chat reference mock on the wire: discovery, control endpoints, validation, scenarios and framings. */
import { afterEach, describe, expect, it } from "vitest";
import { MockOptionError } from "../../../src/core/run/protocol.js";
import { startStagewiseMock, type RunningStagewiseMock } from "../../../src/mocks/stagewise-chat/index.js";
import { CHAT, following, METADATA, quickMock, Raw, turn, type Json } from "./helpers.js";

const open: (RunningStagewiseMock | Raw)[] = [];
afterEach(async () => {
  for (const x of open.splice(0)) await x.close();
});

async function mockAndRaw(options: Parameters<typeof quickMock>[0] = {}) {
  const mock = await quickMock(options);
  const raw = await Raw.open(mock.wsUrl);
  open.push(raw, mock);
  return { mock, raw };
}

const textOf = (raw: Raw, sub: number) =>
  raw
    .chat(sub)
    .filter((e) => e.update.type === "message-updated" && e.update.update.content.type === "text")
    .map((e) => e.update.update.content.text as string)
    .join("");

describe("stagewise-chat mock: HTTP", () => {
  it("answers discovery with CORS, OPTIONS with 204, unknown paths with a JSON 404", async () => {
    const mock = await quickMock();
    open.push(mock);
    const info = await fetch(`${mock.url}/stagewise/info`, { headers: { origin: "http://localhost:3000" } });
    expect(info.status).toBe(200);
    expect(info.headers.get("access-control-allow-origin")).toBe("*");
    expect(await info.json()).toEqual({ name: expect.any(String), description: expect.any(String), capabilities: { toolCalling: false, chatHistory: true } });
    expect((await fetch(`${mock.url}/stagewise/info`, { method: "OPTIONS" })).status).toBe(204);
    const missing = await fetch(`${mock.url}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toHaveProperty("error");
  });

  it("listens on the first free port from 5746 on loopback when given the default port", async () => {
    const mock = await startStagewiseMock({ port: 5746 });
    open.push(mock);
    const port = Number(new URL(mock.url).port);
    expect(port).toBeGreaterThanOrEqual(5746);
    expect(port).toBeLessThanOrEqual(5776);
    expect(new URL(mock.url).hostname).toBe("127.0.0.1");
  });

  it("switches scenarios by POST /__agentwire/scenario and refuses bad bodies with 400", async () => {
    const { mock, raw } = await mockAndRaw();
    const post = (body: string) => fetch(`${mock.url}/__agentwire/scenario`, { method: "POST", body });
    const ok = await post(JSON.stringify({ scenario: "reasoning" }));
    expect(ok.status).toBe(200);
    expect(mock.engine.scenario).toBe("reasoning");
    for (const bad of ["{", JSON.stringify({ scenario: 3 }), JSON.stringify({ scenario: "nope" })]) {
      const r = await post(bad);
      expect(r.status).toBe(400);
      expect(((await r.json()) as Json).error).toEqual(expect.any(String));
    }
    expect((await fetch(`${mock.url}/__agentwire/scenario`)).status).toBe(405);
    const sub = await following(raw);
    await turn(raw, mock, "hi", sub);
    expect(raw.chat(sub).some((e) => e.update.type === "message-updated" && e.update.update.content.type === "reasoning")).toBe(true);
  });

  it("drops every connection on POST /__agentwire/drop", async () => {
    const { mock, raw } = await mockAndRaw();
    const r = await fetch(`${mock.url}/__agentwire/drop`, { method: "POST" });
    expect(await r.json()).toEqual({ dropped: 1 });
    await raw.waitFor(() => false, 2_000).catch(() => {});
    expect(raw.closed).not.toBeNull();
  });

  it("refuses unknown names and bad knobs before listening", async () => {
    await expect(startStagewiseMock({ port: 0, scenario: "nope" })).rejects.toThrow(MockOptionError);
    await expect(startStagewiseMock({ port: 0, faults: ["nope"] })).rejects.toThrow(/Valid faults/);
    await expect(startStagewiseMock({ port: 0, framing: "nope" })).rejects.toThrow(/Valid framings/);
    await expect(startStagewiseMock({ port: 0, chunkSize: 0 })).rejects.toThrow(/chunkSize/);
    await expect(startStagewiseMock({ port: 0, settings: { chunkDelayMs: -1 } })).rejects.toThrow(MockOptionError);
  });
});

describe("stagewise-chat mock: tRPC", () => {
  it("validates every input (BAD_REQUEST, invalid-input) and keeps the socket open", async () => {
    const { mock, raw } = await mockAndRaw();
    const chatId = mock.engine.core.agent.activeChatId;
    const bad: [string, unknown][] = [
      ["chat.sendMessage", { chatId, content: [], metadata: METADATA }],
      ["chat.sendMessage", { chatId, content: [{ type: "text", text: "x" }] }],
      ["chat.createChat", { title: "" }],
      ["chat.switchChat", "c1"],
      ["chat.approveToolCall", { chatId, toolCallId: "t", approved: true }],
      ["chat.reportToolResult", { chatId, toolCallId: "t" }],
      ["messaging.sendUserMessage", { id: "m" }],
    ];
    for (const [path, input] of bad) {
      const answer = await raw.mutate(path, input);
      expect(answer.error?.json?.data, path).toMatchObject({ code: "BAD_REQUEST", httpStatus: 400, reason: "invalid-input" });
    }
    expect((await raw.mutate("chat.createChat", { title: "Fine" })).result?.data?.json).toEqual(expect.any(String));
  });

  it("plays the echo turn: user message, working, assistant create + appends, idle; messaging mirrors it", async () => {
    const { mock, raw } = await mockAndRaw();
    const sub = await following(raw);
    const messaging = raw.subscribe("messaging.getMessage");
    const answer = await turn(raw, mock, "hello there, mock", sub);
    const types = raw.chat(sub).map((e) => (e.update.type === "message-updated" ? `${e.update.type}:${e.update.update.updateType}` : e.update.type));
    expect(types.slice(0, 3)).toEqual(["chat-list", "chat-full-sync", "agent-state"]);
    expect(types.slice(3, 7)).toEqual(["message-added", "agent-state", "message-added", "message-updated:create"]);
    expect(types.at(-1)).toBe("agent-state");
    expect(types.filter((t) => t === "message-updated:append").length).toBeGreaterThan(0);
    expect(textOf(raw, sub)).toBe("Echo: hello there, mock");
    const ids = raw.chat(sub).map((e) => Number(e.seq));
    expect(ids.slice(3)).toEqual(ids.slice(3).map((_, i) => ids[2]! + 1 + i));
    expect(answer.result.data.json).toEqual(raw.chat(sub)[3]!.update.message.id);
    const mirrored = raw.values(messaging).filter((v) => !v.resync).flatMap((v) => v.updateParts.map((p: Json) => p.part.text)).join("");
    expect(mirrored).toBe("Echo: hello there, mock");
  });

  it("echoes only the first 200 characters of a huge message, so the turn stays short", async () => {
    const { mock, raw } = await mockAndRaw({ chunkDelayMs: 0 });
    const sub = await following(raw);
    const text = "z".repeat(20_000); // echoed whole, it was 2,500 deltas of 8 characters
    const from = raw.frames.length;
    await turn(raw, mock, text, sub);
    expect(textOf(raw, sub)).toBe(`Echo: ${"z".repeat(200)}…`);
    const appends = raw.chat(sub).filter((e) => e.update.type === "message-updated" && e.update.update.updateType === "append");
    expect(appends.length).toBeLessThanOrEqual(Math.ceil(207 / 8));
    // The user's message comes back whole once; the reply adds little to it.
    expect(raw.frames.slice(from).reduce((n, f) => n + f.text.length, 0)).toBeLessThan(3 * text.length);
  });
});

describe("stagewise-chat mock: scenarios", () => {
  it("tool-approval: approved → result part and Done, rejected → error result and Cancelled", async () => {
    const { mock, raw } = await mockAndRaw({ scenario: "tool-approval" });
    const sub = await following(raw);
    const agent = mock.engine.core.agent;
    for (const approved of [true, false]) {
      const from = raw.frames.length;
      await raw.mutate("chat.sendMessage", { chatId: agent.activeChatId, content: [{ type: "text", text: "write it" }], metadata: METADATA });
      const call = await raw.waitFor((f) => f.json?.id === sub && f.json.result?.data?.json?.data?.update?.content?.type === "tool-call", 5_000, from);
      const part = call.json!.result.data.json.data.update.content;
      expect(part).toMatchObject({ toolName: "writeFile", runtime: "backend", requiresApproval: true });
      expect((await raw.mutate("chat.approveToolCall", { chatId: agent.activeChatId, toolCallId: part.toolCallId, approved, metadata: METADATA })).result).toBeDefined();
      await raw.waitFor((f) => f.json?.id === sub && f.json.result?.data?.json?.data?.type === "agent-state" && f.json.result.data.json.data.isWorking === false, 5_000, from);
      const reply = agent.messages().find((m) => m.content.some((p) => p.type === "tool-call" && p.toolCallId === part.toolCallId))!;
      const result = reply.content.find((p) => p.type === "tool-result");
      expect(result).toMatchObject(approved ? { output: "wrote b.css" } : { isError: true });
      expect(JSON.stringify(reply.content.at(-1))).toContain(approved ? "Done" : "Cancelled");
      expect(agent.messages().at(-1)!.content[0]).toMatchObject({ type: "tool-approval", approved });
    }
  });

  it("toolbar-tool waits for reportToolResult; cli-tool answers in a tool message", async () => {
    const { mock, raw } = await mockAndRaw({ scenario: "toolbar-tool" });
    const sub = await following(raw);
    const agent = mock.engine.core.agent;
    const start = raw.frames.length;
    await raw.mutate("chat.sendMessage", { chatId: agent.activeChatId, content: [{ type: "text", text: "styles?" }], metadata: METADATA });
    const call = await raw.waitFor((f) => f.json?.result?.data?.json?.data?.update?.content?.type === "tool-call");
    const toolCallId = call.json!.result.data.json.data.update.content.toolCallId;
    expect((await raw.mutate("chat.reportToolResult", { chatId: agent.activeChatId, toolCallId, output: { color: "red" } })).result).toBeDefined();
    await raw.waitFor((f) => f.json?.id === sub && f.json.result?.data?.json?.data?.isWorking === false, 5_000, start);
    expect(agent.messages().map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);

    const from = raw.frames.length;
    await raw.mutate("chat.sendMessage", { chatId: agent.activeChatId, content: [{ type: "text", text: "scenario:cli-tool run" }], metadata: METADATA });
    await raw.waitFor((f) => f.json?.id === sub && f.json.result?.data?.json?.data?.isWorking === false, 5_000, from);
    const roles = agent.messages().slice(4).map((m) => m.role);
    expect(roles).toEqual(["user", "assistant", "tool", "assistant"]);
  });

  it("multi-chat starts with three chats and history; no-chats with none", async () => {
    for (const [scenario, count] of [["multi-chat", 3], ["no-chats", 0]] as const) {
      const { raw } = await mockAndRaw({ scenario });
      const sub = await following(raw);
      const list = raw.chat(sub)[0]!.update;
      expect(list.chats).toHaveLength(count);
      const types = raw.chat(sub).map((e) => e.update.type);
      expect(types).toEqual(count ? ["chat-list", "chat-full-sync", "agent-state"] : ["chat-list", "agent-state"]);
    }
  });

  it("long-stream replies with 2000 characters", async () => {
    const { mock, raw } = await mockAndRaw({ scenario: "long-stream", chunkSize: 200, chunkDelayMs: 1 });
    const sub = await following(raw);
    await turn(raw, mock, "go", sub);
    expect(textOf(raw, sub)).toHaveLength(2000);
  });

  it("busy-send rejects a second send while working (CONFLICT agent-working)", async () => {
    const { mock, raw } = await mockAndRaw({ scenario: "busy-send" });
    const sub = await following(raw);
    const chatId = mock.engine.core.agent.activeChatId;
    await raw.mutate("chat.sendMessage", { chatId, content: [{ type: "text", text: "one" }], metadata: METADATA });
    await raw.waitFor((f) => f.json?.id === sub && f.json.result?.data?.json?.data?.type === "message-updated");
    const second = await raw.mutate("chat.sendMessage", { chatId, content: [{ type: "text", text: "two" }], metadata: METADATA });
    expect(second.error.json.data).toMatchObject({ code: "CONFLICT", reason: "agent-working" });
  });

  it("drop-after-n closes the connection after five deltas", async () => {
    const { mock, raw } = await mockAndRaw({ scenario: "drop-after-n" });
    const sub = await following(raw);
    await raw.mutate("chat.sendMessage", { chatId: mock.engine.core.agent.activeChatId, content: [{ type: "text", text: "a long enough message to stream" }], metadata: METADATA });
    await raw.waitFor(() => false, 3_000).catch(() => {});
    expect(raw.closed).not.toBeNull();
    expect(raw.chat(sub).length).toBe(3 + 5);
  });

  it("reconnect-notice asks to reconnect after the turn; restart drops and counts ids from 0 again", async () => {
    const { mock, raw } = await mockAndRaw({ scenario: "reconnect-notice" });
    const sub = await following(raw);
    await turn(raw, mock, "hi", sub);
    await raw.waitFor((f) => f.json?.method === "reconnect" && f.json.id === null);

    const m2 = await quickMock({ scenario: "restart" });
    open.push(m2);
    const a = await Raw.open(m2.wsUrl);
    open.push(a);
    const s = await following(a);
    await turn(a, m2, "hi", s);
    const last = Number(a.chat(s).at(-1)!.seq);
    await a.waitFor(() => false, 1_000).catch(() => {});
    expect(a.closed).not.toBeNull();
    const b = await Raw.open(m2.wsUrl);
    open.push(b);
    const s2 = await following(b, { lastEventId: String(last) });
    expect(Number(b.chat(s2)[0]!.seq)).toBeLessThan(last);
  });
});

describe("stagewise-chat mock: framings", () => {
  it("result-first sends a mutation's answer before the updates it caused", async () => {
    const { mock, raw } = await mockAndRaw({ framing: "result-first" });
    const sub = await following(raw);
    const from = raw.frames.length;
    const answer = await turn(raw, mock, "hi", sub);
    const later = raw.frames.slice(from);
    const at = later.findIndex((f) => f.json?.id === answer.id);
    const added = later.findIndex((f) => f.json?.result?.data?.json?.data?.type === "message-added");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(at).toBeLessThan(added);
  });

  it("server-ping pings a silent toolbar", async () => {
    const { raw } = await mockAndRaw({ framing: "server-ping" });
    await raw.waitFor((f) => f.text === "PING", 3_000);
    raw.send("PONG");
  });

  it("split-surrogate and zwj-split cut astral characters and ZWJ sequences between deltas", async () => {
    for (const [framing, cut] of [
      ["split-surrogate", (a: string, b: string) => /[\ud800-\udbff]$/.test(a) && /^[\udc00-\udfff]/.test(b)],
      ["zwj-split", (_a: string, b: string) => b.startsWith("\u200d")],
    ] as const) {
      const { mock, raw } = await mockAndRaw({ framing });
      const sub = await following(raw);
      await turn(raw, mock, "hi", sub);
      const texts = raw.chat(sub).filter((e) => e.update.type === "message-updated").map((e) => e.update.update.content.text as string);
      expect(texts.some((t, i) => i > 0 && cut(texts[i - 1]!, t)), framing).toBe(true);
      expect(mock.engine.core.agent.messages().at(-1)!.content[0]).toMatchObject({ text: expect.stringMatching(framing === "zwj-split" ? /\u{1F469}\u200D\u{1F4BB}$/u : /\u{1F3A8}$/u) });
    }
  });

  it("referential-meta shares equal objects through superjson's referentialEqualities", async () => {
    const { mock, raw } = await mockAndRaw({ framing: "referential-meta" });
    await following(raw);
    const chatId = mock.engine.core.agent.activeChatId;
    for (const text of ["one", "two"]) {
      const sub = await following(raw);
      await turn(raw, mock, text, sub);
    }
    await following(raw);
    expect(raw.frames.some((f) => f.json?.result?.data?.meta?.referentialEqualities !== undefined)).toBe(true);
    expect(chatId).toBeTruthy();
  });

  it("big-frame pads the first chat event past 8 MB; the JSON still parses", async () => {
    const { raw } = await mockAndRaw({ framing: "big-frame" });
    const sub = await following(raw);
    const first = raw.frames.find((f) => f.json?.id === sub && f.json.result?.type === "data")!;
    expect(first.text.length).toBeGreaterThan(8 * 1024 * 1024);
    expect(first.json!.result.data.json.data.type).toBe("chat-list");
  });

  it("fragmented frames reach a toolbar whole", async () => {
    const { mock, raw } = await mockAndRaw({ framing: "fragmented" });
    const sub = await following(raw);
    await turn(raw, mock, "héllo ✓", sub);
    expect(textOf(raw, sub)).toBe("Echo: héllo ✓");
  });
});

describe("stagewise-chat mock: clean wire", () => {
  it("sends text frames only, tagged Dates, started first, one answer per mutation", async () => {
    const { mock, raw } = await mockAndRaw();
    const sub = await following(raw);
    await turn(raw, mock, "hi", sub);
    expect(raw.frames.every((f) => !f.binary)).toBe(true);
    expect(raw.frames.find((f) => f.json?.id === sub)!.json!.result.type).toBe("started");
    const list = raw.chat(sub)[0]!.frame.json!.result.data.meta.values;
    expect(list).toHaveProperty(["data.chats.0.createdAt"], ["Date"]);
  });

  it("closes nothing on bad JSON and answers PARSE_ERROR with id null", async () => {
    const { raw } = await mockAndRaw();
    raw.send("{bad");
    const e = await raw.waitFor((f) => f.json?.error !== undefined);
    expect(e.json).toMatchObject({ id: null, error: { json: { data: { code: "PARSE_ERROR" } } } });
    const sub = await following(raw);
    expect(raw.chat(sub).length).toBe(3);
  });

  it("words every malformed input for the toolbar, never with the engine's or superjson's internals", async () => {
    const { raw } = await mockAndRaw();
    const nested = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    const createChat = (input: string, id: number) => `{"id":${id},"method":"mutation","params":{"path":"chat.createChat"${input}}}`;
    const answer = async (frame: string, id: number | null) => {
      const from = raw.frames.length;
      raw.send(frame);
      return (await raw.waitFor((f) => f.json !== undefined && f.json.id === id && f.json.error !== undefined, 5_000, from)).json!.error.json;
    };
    // Deep input is invalid input (BAD_REQUEST, with the request's id), at any depth.
    for (const [n, id] of [[300, 1], [5000, 2], [200_000, 3]] as const) {
      const e = await answer(createChat(`,"input":{"json":{"title":${nested(n)}}}`, id), id);
      expect(e.data, `depth ${n}`).toMatchObject({ code: "BAD_REQUEST", reason: "invalid-input" });
      expect(e.message, `depth ${n}`).toBe("invalid input: nested deeper than 256 levels");
    }
    // A malformed envelope is a PARSE_ERROR (id null), saying what is wrong.
    const parse: [string, RegExp][] = [
      ["", /^params\.input is missing/],
      [`,"input":5`, /^params\.input must be superjson's \{json, meta\?\}, got 5$/],
      [`,"input":{"json":{"title":"x"},"meta":{"values":{"title":["custom","nope"]}}}`, /^meta\.values at "title": unknown superjson type "custom"$/],
      [`,"input":{"json":{"title":"x"},"meta":{"values":{"title":"nope"}}}`, /^meta\.values at "title": "nope" is not an annotation$/],
      [`,"input":{"json":{"title":"x"},"meta":{"values":{"title":["bigint"]}}}`, /^params\.input: its meta does not fit its json$/],
      [`,"input":{"json":{"title":{}},"meta":{"values":{"__proto__.polluted":["Date"]}}}`, /^params\.input: __proto__ is not allowed as a property$/],
      [`,"input":{"json":null,"meta":{"values":${nested(5000)}}}`, /^meta\.values nested deeper than 256 levels$/],
    ];
    for (const [input, message] of parse) {
      const e = await answer(createChat(input, 9), null);
      expect(e.data.code, input).toBe("PARSE_ERROR");
      expect(e.message, input).toMatch(message);
    }
    // The socket is still served.
    const ok = await raw.mutate("chat.createChat", { title: "Fine" });
    expect(ok.result?.data?.json).toEqual(expect.any(String));
  });

  it("answers an unknown path or the wrong kind with NOT_FOUND", async () => {
    const { raw } = await mockAndRaw();
    for (const [path, method] of [["chat.nope", "mutation"], ["chat.stop", "query"], ["toolCalling.getPendingToolCalls", "subscription"]]) {
      const answer = await raw.mutate(path!, undefined, method);
      expect(answer.error.json.data.code, path).toBe("NOT_FOUND");
    }
  });
});

export { CHAT };
