import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPiWebMock } from "../../../src/mocks/pi-web/index.js";
import { Client, mock, rawUpgrade, type Json } from "./helpers.js";

let m: Awaited<ReturnType<typeof mock>>;
beforeAll(async () => {
  m = await mock({ token: "s3cret" });
});
afterAll(() => m.close());

const wsUrl = (q = "") => `${m.ws}/ws?token=s3cret${q}`;

describe("pi-web mock: wire (§1)", () => {
  it("listens on a free port on 127.0.0.1", () => {
    expect(m.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("upgrades /ws with the token and an allowed Origin (101, no subprotocol unless offered, no extensions)", async () => {
    const raw = await rawUpgrade(m.url, "/ws?token=s3cret", { Origin: m.origin });
    expect(raw).toMatch(/^HTTP\/1\.1 101 /);
    expect(raw.toLowerCase()).not.toContain("sec-websocket-extensions");
    expect(raw.toLowerCase()).not.toContain("sec-websocket-protocol");
    const c = await Client.open(wsUrl(), { protocols: ["a", "b"] });
    expect(c.socket.protocol).toBe("a");
    c.close();
  });

  it("answers refusals with a bare status line, in the order 404, 401, 403", async () => {
    const bare = (status: string) => `HTTP/1.1 ${status}\r\n\r\n`;
    // Wrong path wins over a wrong token and a foreign Origin.
    expect(await rawUpgrade(m.url, "/socket?token=nope", { Origin: "http://evil.example" })).toBe(bare("404 Not Found"));
    expect(await rawUpgrade(m.url, "/ws/x?token=s3cret", { Origin: m.origin })).toBe(bare("404 Not Found"));
    expect(await rawUpgrade(m.url, "/", { Origin: m.origin })).toBe(bare("404 Not Found"));
    // Wrong or missing token wins over a foreign Origin.
    expect(await rawUpgrade(m.url, "/ws?token=nope", { Origin: "http://evil.example" })).toBe(bare("401 Unauthorized"));
    expect(await rawUpgrade(m.url, "/ws", { Origin: m.origin })).toBe(bare("401 Unauthorized"));
    // Foreign or missing Origin.
    expect(await rawUpgrade(m.url, "/ws?token=s3cret", { Origin: "http://evil.example" })).toBe(bare("403 Forbidden"));
    expect(await rawUpgrade(m.url, "/ws?token=s3cret")).toBe(bare("403 Forbidden"));
  });

  it("allows the loopback origins of its port plus --allowed-origin; other query keys are ignored", async () => {
    const port = new URL(m.url).port;
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
      expect(await rawUpgrade(m.url, "/ws?token=s3cret&x=1", { Origin: origin })).toMatch(/^HTTP\/1\.1 101 /);
    }
    const extra = await startPiWebMock({ port: 0, allowedOrigins: ["http://localhost:5173"] });
    try {
      expect(await rawUpgrade(extra.url, "/ws", { Origin: "http://localhost:5173" })).toMatch(/^HTTP\/1\.1 101 /);
      expect(await rawUpgrade(extra.url, "/ws", { Origin: "http://localhost:5174" })).toBe("HTTP/1.1 403 Forbidden\r\n\r\n");
    } finally {
      await extra.close();
    }
  });

  it("originCheck false (--no-origin-check) accepts any or no Origin; no token means no 401", async () => {
    const open = await startPiWebMock({ port: 0, originCheck: false });
    try {
      expect(await rawUpgrade(open.url, "/ws")).toMatch(/^HTTP\/1\.1 101 /);
      expect(await rawUpgrade(open.url, "/ws?token=anything", { Origin: "http://evil.example" })).toMatch(/^HTTP\/1\.1 101 /);
    } finally {
      await open.close();
    }
  });

  it("refuses unknown ?fault= / ?scenario= / ?framing= names with 400", async () => {
    for (const q of ["fault=nope", "scenario=nope", "framing=nope"]) {
      expect(await rawUpgrade(m.url, `/ws?token=s3cret&${q}`, { Origin: m.origin })).toBe("HTTP/1.1 400 Bad Request\r\n\r\n");
    }
  });

  it("GET /health counts clients and needs no token; / names the WebSocket; anything else is a 404", async () => {
    const before = (await (await fetch(`${m.url}/health`)).json()) as Json;
    const c = await Client.open(wsUrl());
    const res = await fetch(`${m.url}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(await res.json()).toEqual({ status: "ok", clients: before.clients + 1 });
    c.close();
    const page = await fetch(`${m.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`${m.ws}/ws`);
    expect((await fetch(`${m.url}/index.html`)).status).toBe(200);
    const other = await fetch(`${m.url}/nope`);
    expect(other.status).toBe(404);
    expect(other.headers.get("content-type")).toMatch(/^text\/plain/);
  });

  it("fails loudly on bad options before listening", async () => {
    await expect(startPiWebMock({ port: 0, faults: ["nope"] })).rejects.toThrow(/Unknown fault "nope"\. Valid faults: ws-path-moved/);
    await expect(startPiWebMock({ port: 0, scenario: "nope" })).rejects.toThrow(/Unknown scenario/);
    await expect(startPiWebMock({ port: 0, framing: "nope" })).rejects.toThrow(/Unknown framing/);
    await expect(startPiWebMock({ port: 0, settings: { chunkDelay: -1 } })).rejects.toThrow(/invalid settings/);
    await expect(startPiWebMock({ port: 0, settings: { bogus: 1 } })).rejects.toThrow(/invalid settings/);
  });

  it("defaults to port 4781 on 127.0.0.1", async () => {
    const probe = http.createServer();
    const free = await new Promise<boolean>((resolve) => {
      probe.once("error", () => resolve(false));
      probe.listen(4781, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (!free) return; // Someone else's mock holds the port; the default is still asserted below.
    const d = await startPiWebMock({ firstDelay: 0 });
    try {
      expect(d.url).toBe("http://127.0.0.1:4781");
    } finally {
      await d.close();
    }
  });
});

describe("pi-web mock: commands and responses (§2.2, §3 rules 3–4, 19–25)", () => {
  let c: Client;
  beforeAll(async () => {
    c = await Client.open(wsUrl());
  });
  afterAll(() => c.close());

  it("sends nothing on connect", async () => {
    const fresh = await Client.open(wsUrl());
    await new Promise((r) => setTimeout(r, 100));
    expect(fresh.frames).toEqual([]);
    fresh.close();
  });

  it("get_state: the session, model and modes", async () => {
    const r = await c.request({ type: "get_state", id: "req_1" });
    expect(r).toMatchObject({ type: "response", id: "req_1", command: "get_state", success: true });
    expect(r).not.toHaveProperty("error");
    expect(r.data).toEqual({
      sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      thinkingLevel: "medium",
      isStreaming: false,
      isCompacting: false,
      autoCompactionEnabled: true,
      steeringMode: "one-at-a-time",
      followUpMode: "one-at-a-time",
      messageCount: 0,
      pendingMessageCount: 0,
      model: expect.objectContaining({ id: "mock-model", provider: "mock", reasoning: true, contextWindow: 32000, maxTokens: 4096 }),
      sessionFile: expect.stringMatching(/^\/mock\/sessions\/--mock-cwd--\/\d{4}-\d\d-\d\dT[\d-]+Z_[0-9a-f-]{36}\.jsonl$/),
    });
  });

  it("get_messages, get_context_usage before any reply", async () => {
    expect((await c.request({ type: "get_messages" })).data).toEqual({ messages: [] });
    expect((await c.request({ type: "get_context_usage" })).data).toEqual({ usage: { tokens: 0, contextWindow: 32000, percent: 0 } });
  });

  it("list_sessions: the three seeds, newest first; scope cwd filters; the fresh session is unlisted", async () => {
    const all = (await c.request({ type: "list_sessions", scope: "all" })).data.sessions as Json[];
    expect(all.map((s) => s.messageCount)).toEqual([2, 4, 2]);
    expect(all.map((s) => s.cwd)).toEqual(["/mock/cwd", "/mock/cwd", "/mock/other"]);
    const modified = all.map((s) => s.modified);
    expect([...modified].sort().reverse()).toEqual(modified);
    expect(new Set(modified).size).toBe(3);
    for (const s of all) {
      expect(Object.keys(s).sort()).toEqual(
        ["allMessagesText", "created", "cwd", "firstMessage", "id", "messageCount", "modified", "path", ...(s.name ? ["name"] : [])].sort(),
      );
      expect(s.path).toMatch(/^\/mock\/sessions\/--mock-(cwd|other)--\/.+\.jsonl$/);
    }
    expect((await c.request({ type: "list_sessions" })).data.sessions).toEqual(all);
    const cwd = (await c.request({ type: "list_sessions", scope: "cwd" })).data.sessions as Json[];
    expect(cwd.map((s) => s.path)).toEqual(all.slice(0, 2).map((s) => s.path));
  });

  it("abort and clear_queue while idle", async () => {
    const a = await c.request({ type: "abort" });
    expect(a).toEqual({ type: "response", id: a.id, command: "abort", success: true });
    const q = await c.request({ type: "clear_queue" });
    expect(q.data).toEqual({ steering: [], followUp: [] });
  });

  it("echoes odd ids byte-identically and omits id when the command had none", async () => {
    for (const id of ["ünï ☃ 🙂", " padded ", 'q"uote\\', "x".repeat(200)]) {
      const r = await c.request({ type: "get_context_usage", id });
      expect(r.id).toBe(id);
    }
    c.send({ type: "clear_queue" });
    const r = await c.waitFor((x) => x.type === "response" && x.command === "clear_queue" && !("id" in x));
    expect(r.success).toBe(true);
  });

  it("bad input: unknown type, typeless object, malformed JSON, non-objects, invalid fields", async () => {
    expect(await c.request({ type: "no_such_command", id: "u1" })).toEqual({
      type: "response",
      id: "u1",
      command: "no_such_command",
      success: false,
      error: "Unknown command: no_such_command",
    });
    c.send({ id: "typeless" });
    expect(await c.waitFor((x) => x.id === "typeless")).toEqual({ type: "response", id: "typeless", success: false, error: "Unknown command: undefined" });
    for (const bad of ['{"id":', "[]", "42", "null"]) c.send(bad);
    c.socket.send(Buffer.from(JSON.stringify({ id: "bin", type: "get_state" })), { binary: true });
    expect((await c.waitFor((x) => x.id === "bin")).success).toBe(true);
    expect(await c.request({ type: "switch_session", id: "s1" })).toMatchObject({
      success: false,
      error: "Invalid switch_session command: must have property 'sessionPath'",
    });
    expect((await c.request({ type: "switch_session", sessionPath: "" })).error).toMatch(/^Invalid switch_session command: /);
    expect((await c.request({ type: "list_sessions", scope: "global" })).error).toMatch(/^Invalid list_sessions command: \/scope/);
    expect((await c.request({ type: "prompt", message: ["Hi"] })).error).toBe("Invalid prompt command: /message must be string");
    expect((await c.request({ type: "prompt", message: "x", streamingBehavior: "steering" })).success).toBe(false);
    expect((await c.request({ type: "prompt", message: "x", images: [{ type: "image", data: "AA==" }] })).error).toMatch(/mimeType/);
    const failure = await c.request({ type: "prompt" });
    expect(failure).not.toHaveProperty("data");
    expect(c.closed).toBeUndefined();
  });

  it("switch_session to a missing file fails with no event", async () => {
    const before = c.events().length;
    const r = await c.request({ type: "switch_session", sessionPath: "/mock/sessions/missing.jsonl" });
    expect(r).toMatchObject({ success: false, error: "Session file not found" });
    expect(c.events().length).toBe(before);
  });

  it("replies to dialogs never get a response (stray ids included)", async () => {
    c.send({ type: "extension_ui_response", id: "nope", value: "x" });
    c.send({ type: "extension_ui_response", id: "nope", cancelled: true });
    const r = await c.request({ type: "get_state" });
    expect(r.success).toBe(true);
    expect(c.messages.filter((x) => x.command === "extension_ui_response")).toEqual([]);
  });
});
