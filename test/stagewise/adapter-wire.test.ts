/** The adapter's wire under a raw socket: malformed frames, unknown procedures and keep-alive never end the server. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createAgentServer, type AgentServer } from "../../src/stagewise/index.js";

let server: AgentServer;
let ws: WebSocket;
const frames: string[] = [];

beforeAll(async () => {
  server = await createAgentServer({ port: 0 });
  ws = new WebSocket(server.wsUrl, { headers: { origin: "http://localhost:3000" } });
  ws.on("message", (data) => frames.push(data.toString()));
  await new Promise((resolve, reject) => (ws.once("open", resolve), ws.once("error", reject)));
});
afterAll(async () => {
  ws.close();
  await server.close();
});

/** Sends a frame and waits for the next answer matching `test`. */
async function answer(frame: string | Buffer, test: (msg: Record<string, unknown> | string) => boolean = () => true): Promise<Record<string, unknown> | string> {
  const from = frames.length;
  ws.send(frame);
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline) {
    for (const raw of frames.slice(from)) {
      let msg: Record<string, unknown> | string = raw;
      try {
        msg = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // PONG and friends stay text
      }
      if (test(msg)) return msg;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no answer to ${String(frame)}; frames: ${frames.slice(from).join(" | ")}`);
}

const errorOf = (msg: Record<string, unknown> | string) => (msg as { error: { json: { code: number; message: string; data: Record<string, unknown> } } }).error.json;

describe("stagewise agent adapter: raw frames", () => {
  it("bad JSON and a request without input get PARSE_ERROR with id null", async () => {
    for (const frame of ["{not json", JSON.stringify({ id: 3, method: "mutation", params: { path: "chat.stop" } })]) {
      const msg = await answer(frame);
      expect(msg).toMatchObject({ id: null });
      expect(errorOf(msg)).toMatchObject({ code: -32700, data: { code: "PARSE_ERROR", httpStatus: 400 } });
      expect(errorOf(msg).data).not.toHaveProperty("stack");
    }
  });

  it("unknown paths, toolCalling and the wrong kind get NOT_FOUND with the request id", async () => {
    const cases: [number, string, string][] = [
      [11, "query", "chat.stop"],
      [12, "mutation", "toolCalling.getTools"],
      [13, "subscription", "chat.nothing"],
    ];
    for (const [id, method, path] of cases) {
      const msg = await answer(JSON.stringify({ id, method, params: { path, input: { json: null, meta: { values: ["undefined"] } } } }), (m) => (m as { id?: unknown }).id === id);
      expect(errorOf(msg)).toMatchObject({ code: -32004, data: { code: "NOT_FOUND", httpStatus: 404, path } });
    }
  });

  it("schema failures are BAD_REQUEST with reason invalid-input; a binary frame is refused; the socket stays usable", async () => {
    const bad = await answer(JSON.stringify({ id: 21, method: "mutation", params: { path: "chat.switchChat", input: { json: { chatId: 5 } } } }), (m) => (m as { id?: unknown }).id === 21);
    expect(errorOf(bad)).toMatchObject({ code: -32600, data: { code: "BAD_REQUEST", reason: "invalid-input" } });
    const binary = await answer(Buffer.from(JSON.stringify({ id: 22, method: "mutation", params: { path: "chat.stop", input: { json: null } } })));
    expect(errorOf(binary).data).toMatchObject({ code: "PARSE_ERROR" });
    expect(await answer("PING", (m) => m === "PONG")).toBe("PONG");
    const ok = await answer(JSON.stringify({ id: 23, method: "mutation", params: { path: "chat.stop", input: { json: null, meta: { values: ["undefined"] } } } }), (m) => (m as { id?: unknown }).id === 23);
    expect(ok).toMatchObject({ result: { type: "data" } });
    expect(ws.readyState).toBe(WebSocket.OPEN);
  });

  it("a subscription answers started, then tracked snapshot frames with superjson Date tags", async () => {
    const from = frames.length;
    const list = (await answer(
      JSON.stringify({ id: 31, method: "subscription", params: { path: "chat.getChatUpdates", input: { json: null, meta: { values: ["undefined"] } } } }),
      (m) => (m as { result?: { data?: { json?: { data?: { type?: string } } } } }).result?.data?.json?.data?.type === "chat-list",
    )) as { result: { id: string; data: { json: { id: string }; meta: { values: Record<string, unknown> } } } };
    expect(JSON.parse(frames[from]!)).toEqual({ id: 31, result: { type: "started" } });
    expect(list.result.id).toBe(String(server.chat.seq));
    expect(list.result.data.json.id).toBe(list.result.id);
    expect(list.result.data.meta.values).toEqual({ "data.chats.0.createdAt": ["Date"] });
  });

  it("requestReconnect tells every toolbar to reconnect", async () => {
    const from = frames.length;
    server.requestReconnect();
    await expect.poll(() => frames.slice(from).map((f) => JSON.parse(f) as unknown)).toContainEqual({ id: null, method: "reconnect" });
  });

  it("an upgrade on another path is refused with 404", async () => {
    const other = new WebSocket(server.wsUrl.replace("/stagewise/ws", "/ws"));
    const status = await new Promise<number | undefined>((resolve) => other.once("unexpected-response", (_req, res) => resolve(res.statusCode)));
    expect(status).toBe(404);
  });
});
