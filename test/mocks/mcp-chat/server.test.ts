import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningMock } from "../../../src/core/run/protocol.js";
import { startMcpChatMock } from "../../../src/mocks/mcp-chat/index.js";
import { canonicalPayloads, FAST, ORIGIN } from "./helpers.js";

/** The seed's "Complete SSE Stream Example", byte for byte. */
const SEED_STREAM =
  'data: {"type": "tool_start", "id": "tc-1", "name": "get_weather", "args": {"city": "San Francisco"}}\n\n' +
  'data: {"type": "tool_end", "id": "tc-1", "name": "get_weather"}\n\n' +
  'data: {"type": "text", "content": "The current "}\n\n' +
  'data: {"type": "text", "content": "weather in "}\n\n' +
  'data: {"type": "text", "content": "San Francisco "}\n\n' +
  'data: {"type": "text", "content": "is 65°F and sunny."}\n\n' +
  "data: [DONE]\n\n";

let mock: RunningMock;
const url = (p: string) => mock.url + p;
const json = (method: string, body?: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { origin: ORIGIN, "content-type": "application/json", ...headers },
  ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
});

beforeAll(async () => {
  mock = await startMcpChatMock({ port: 0, ...FAST });
});
afterAll(() => mock.close());
beforeEach(async () => {
  await fetch(url("/disconnect"), { method: "POST" });
});

async function rawBody(res: Response): Promise<Uint8Array> {
  return new Uint8Array(await res.arrayBuffer());
}

describe("mcp-chat mock over HTTP", () => {
  it("listens on a free port on 127.0.0.1", () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("GET /servers lists the two registry servers", async () => {
    const res = await fetch(url("/servers"), json("GET"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    const list = (await res.json()) as { id: string; name: string; path: string }[];
    expect(list.map((s) => s.id)).toEqual(["weather", "server-id-1"]);
    expect(list[0]).toEqual({
      id: "weather",
      name: "Weather Service",
      path: "/servers/weather/server.py",
      description: "Get weather information for any location",
    });
  });

  it("the default stream is byte-for-byte the seed's seven-event example", async () => {
    await fetch(url("/connect/weather"), json("POST"));
    const res = await fetch(url("/chat/stream"), json("POST", { message: "What is the weather in San Francisco?" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    expect(res.headers.get("content-encoding")).toBeNull();
    const bytes = await rawBody(res);
    expect(Buffer.from(bytes).equals(Buffer.from(SEED_STREAM, "utf8"))).toBe(true);
    expect(canonicalPayloads(SEED_STREAM)).toHaveLength(7);
  });

  it("asciiJson and compactJson change only the JSON text", async () => {
    const m = await startMcpChatMock({ port: 0, ...FAST, settings: { asciiJson: true, compactJson: true } });
    try {
      await fetch(m.url + "/connect/weather", { method: "POST" });
      const text = await (await fetch(m.url + "/chat/stream", json("POST", { message: "x" }))).text();
      expect(text).toContain('data: {"type":"text","content":"is 65\\u00b0F and sunny."}\n\n');
      expect(text).not.toMatch(/[^\x00-\x7f]/);
    } finally {
      await m.close();
    }
  });

  describe("state", () => {
    it("connect A then B: status shows only B; reconnect is a 200 no-op", async () => {
      const a = await fetch(url("/connect/server-id-1"), json("POST"));
      expect(a.status).toBe(200);
      const b = await fetch(url("/connect/weather"), json("POST"));
      expect(await b.json()).toEqual({
        success: true,
        server_id: "weather",
        server_name: "Weather Service",
        tools: [
          { name: "get_weather", description: "Get current weather for a city" },
          { name: "get_forecast", description: "Get 5-day weather forecast" },
        ],
      });
      const s = (await (await fetch(url("/status"))).json()) as Record<string, unknown>;
      expect(s).toMatchObject({ connected: true, server_id: "weather", server_name: "Weather Service" });
      expect((s.tools as { name: string }[]).map((t) => t.name)).toEqual(["get_weather", "get_forecast"]);
      const again = await fetch(url("/connect/weather"), json("POST"));
      expect(again.status).toBe(200);
      expect((await (await fetch(url("/status"))).json()) as unknown).toEqual(s);
    });

    it("connect accepts no body, an empty body and {}; the id is percent-decoded", async () => {
      expect((await fetch(url("/connect/weather"), { method: "POST" })).status).toBe(200);
      expect((await fetch(url("/connect/weather"), json("POST", ""))).status).toBe(200);
      expect((await fetch(url("/connect/weather"), json("POST", {}))).status).toBe(200);
      expect((await fetch(url("/connect/server%2Did%2D1"), json("POST"))).status).toBe(200);
      expect(((await (await fetch(url("/status"))).json()) as { server_id: string }).server_id).toBe("server-id-1");
    });

    it("an unknown id is 404 {detail} and keeps the state", async () => {
      await fetch(url("/connect/weather"), json("POST"));
      const res = await fetch(url("/connect/agentwire-unknown-42"), json("POST"));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: "Server 'agentwire-unknown-42' not found" });
      expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
      expect(((await (await fetch(url("/status"))).json()) as { server_id: string }).server_id).toBe("weather");
    });

    it("disconnect clears the state and is idempotent", async () => {
      await fetch(url("/connect/weather"), json("POST"));
      for (let i = 0; i < 2; i++) {
        const res = await fetch(url("/disconnect"), json("POST"));
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ success: true });
      }
      expect(await (await fetch(url("/status"))).json()).toEqual({ connected: false, server_id: null, tools: [] });
    });

    it("chat while disconnected is only [ERROR] Not connected…", async () => {
      const text = await (await fetch(url("/chat/stream"), json("POST", { message: "hi" }))).text();
      expect(canonicalPayloads(text)).toEqual([
        "[ERROR] Not connected to any MCP server. Please connect to a server first.",
      ]);
    });
  });

  describe("bad input", () => {
    beforeEach(async () => {
      await fetch(url("/connect/weather"), json("POST"));
    });
    const cases: [string, RequestInit, number][] = [
      ["{}", json("POST", {}), 422],
      ['{"message": 42}', json("POST", { message: 42 }), 422],
      ['{"message": null}', json("POST", { message: null }), 422],
      ['{"message": ["hi"]}', json("POST", { message: ["hi"] }), 422],
      ["malformed JSON", json("POST", '{"message": '), 400],
      ["text/plain", json("POST", "hi", { "content-type": "text/plain" }), 415],
    ];
    for (const [name, init, status] of cases) {
      for (const path of ["/chat/stream", "/chat"]) {
        it(`${path} ${name} → ${status} {detail} with CORS`, async () => {
          const res = await fetch(url(path), init);
          expect(res.status).toBe(status);
          expect(res.headers.get("content-type")).toBe("application/json");
          expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
          expect(res.headers.get("access-control-allow-credentials")).toBe("true");
          expect(typeof ((await res.json()) as { detail: unknown }).detail).toBe("string");
        });
      }
    }

    it("unknown path 404 Not Found, wrong method 405", async () => {
      const nf = await fetch(url("/nope"), json("GET"));
      expect(nf.status).toBe(404);
      expect(await nf.json()).toEqual({ detail: "Not Found" });
      const wm = await fetch(url("/chat/stream"), json("GET"));
      expect(wm.status).toBe(405);
      expect(typeof ((await wm.json()) as { detail: unknown }).detail).toBe("string");
    });

    it("unknown scenario, framing or fault in a request → 400 naming the valid ones", async () => {
      const s = await fetch(url("/chat/stream?scenario=nope"), json("POST", { message: "x" }));
      expect(s.status).toBe(400);
      expect(((await s.json()) as { detail: string }).detail).toMatch(/Unknown scenario "nope".*weather-tool/);
      const f = await fetch(url("/chat/stream"), json("POST", { message: "x" }, { "x-agentwire-framing": "zz" }));
      expect(((await f.json()) as { detail: string }).detail).toMatch(/Unknown framing "zz".*canonical/);
      const m = await fetch(url("/chat/stream"), json("POST", { message: "!scenario zz" }));
      expect(m.status).toBe(400);
      const x = await fetch(url("/servers"), json("GET", undefined, { "x-agentwire-fault": "servers-empty, zz" }));
      expect(x.status).toBe(400);
      expect(((await x.json()) as { detail: string }).detail).toMatch(/Unknown fault "zz".*servers-empty/);
    });

    it("a fault chosen in the query applies as from the header; an unknown one is refused 400", async () => {
      await fetch(url("/connect/weather"), json("POST"));
      const crlf = await fetch(url("/chat/stream?fault=sse-crlf"), json("POST", { message: "x" }));
      expect(crlf.status).toBe(200);
      expect(await crlf.text()).toContain("\r\n\r\n");
      const empty = await fetch(url("/servers?fault=servers-empty"), json("GET"));
      expect(await empty.json()).toEqual([]);
      const bad = await fetch(url("/chat/stream?fault=nope"), json("POST", { message: "x" }));
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { detail: string }).detail).toMatch(/Unknown fault "nope".*sse-crlf/);
    });

    it("POST /chat returns the seed §6 body", async () => {
      const res = await fetch(url("/chat"), json("POST", { message: "What is the weather in San Francisco?" }));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        response: "The current weather in San Francisco is 65°F and sunny.",
        tool_calls: [{ name: "get_weather", args: { city: "San Francisco" }, result: "65°F, sunny, humidity 45%" }],
      });
    });
  });

  describe("CORS", () => {
    const paths = ["/servers", "/connect/weather", "/status", "/disconnect", "/chat/stream", "/chat", "/nope"];
    for (const p of paths) {
      it(`preflight ${p}`, async () => {
        const res = await fetch(url(p), {
          method: "OPTIONS",
          headers: {
            origin: ORIGIN,
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type,authorization",
          },
        });
        expect(res.status).toBe(204);
        expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
        expect(res.headers.get("access-control-allow-credentials")).toBe("true");
        expect(res.headers.get("access-control-allow-headers")).toBe("content-type,authorization");
        expect(res.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
        expect(res.headers.get("access-control-max-age")).toBe("600");
        expect(res.headers.get("vary")).toBe("Origin");
      });
    }

    it("the second allowed origin is echoed too", async () => {
      const res = await fetch(url("/servers"), { headers: { origin: "http://127.0.0.1:3000" } });
      expect(res.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:3000");
    });

    it("a foreign preflight is 400 {detail} and a foreign origin is never echoed", async () => {
      const pre = await fetch(url("/servers"), {
        method: "OPTIONS",
        headers: { origin: "http://evil.example", "access-control-request-method": "GET" },
      });
      expect(pre.status).toBe(400);
      expect(typeof ((await pre.json()) as { detail: unknown }).detail).toBe("string");
      expect(pre.headers.get("access-control-allow-origin")).toBeNull();
      const get = await fetch(url("/servers"), { headers: { origin: "http://evil.example" } });
      expect(get.status).toBe(200);
      expect(get.headers.get("access-control-allow-origin")).toBeNull();
    });

    it("JSON, SSE and error responses carry ACAO and ACAC", async () => {
      await fetch(url("/connect/weather"), json("POST"));
      const sse = await fetch(url("/chat/stream"), json("POST", { message: "hi" }));
      await sse.arrayBuffer();
      const err = await fetch(url("/connect/zz"), json("POST"));
      const ok = await fetch(url("/status"), json("GET"));
      for (const r of [sse, err, ok]) {
        expect(r.headers.get("access-control-allow-origin")).toBe(ORIGIN);
        expect(r.headers.get("access-control-allow-credentials")).toBe("true");
      }
    });
  });

  describe("options", () => {
    it("requireBearer: 401 {detail} without Authorization, preflight still allowed", async () => {
      const m = await startMcpChatMock({ port: 0, settings: { requireBearer: true } });
      try {
        const no = await fetch(m.url + "/servers", { headers: { origin: ORIGIN } });
        expect(no.status).toBe(401);
        expect(no.headers.get("access-control-allow-origin")).toBe(ORIGIN);
        expect(typeof ((await no.json()) as { detail: unknown }).detail).toBe("string");
        const yes = await fetch(m.url + "/servers", { headers: { authorization: "Bearer abc" } });
        expect(yes.status).toBe(200);
        const pre = await fetch(m.url + "/servers", {
          method: "OPTIONS",
          headers: { origin: ORIGIN, "access-control-request-method": "GET" },
        });
        expect(pre.status).toBe(204);
      } finally {
        await m.close();
      }
    });

    it("notConnected http-409 and chatSync false", async () => {
      const m = await startMcpChatMock({ port: 0, notConnected: "http-409", chatSync: false });
      try {
        const res = await fetch(m.url + "/chat/stream", json("POST", { message: "hi" }));
        expect(res.status).toBe(409);
        expect(typeof ((await res.json()) as { detail: unknown }).detail).toBe("string");
        const sync = await fetch(m.url + "/chat", json("POST", {}));
        expect(sync.status).toBe(404);
      } finally {
        await m.close();
      }
    });

    it("close() ends a stream that is held open", async () => {
      const m = await startMcpChatMock({ port: 0, ...FAST, faults: ["hold-open-after-done"] });
      await fetch(m.url + "/connect/weather", { method: "POST" });
      const res = await fetch(m.url + "/chat/stream", json("POST", { message: "hi" }));
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      const t0 = performance.now();
      await m.close();
      await reader.read().catch(() => undefined);
      expect(performance.now() - t0).toBeLessThan(1000);
    });

    it("unknown names and bad settings throw before listening", async () => {
      await expect(startMcpChatMock({ port: 0, faults: ["nope"] })).rejects.toThrow(/Unknown fault "nope"/);
      await expect(startMcpChatMock({ port: 0, scenario: "nope" })).rejects.toThrow(/Unknown scenario "nope"/);
      await expect(startMcpChatMock({ port: 0, framing: "nope" })).rejects.toThrow(/Unknown framing "nope"/);
      await expect(startMcpChatMock({ port: 0, settings: { notConnected: "x" } })).rejects.toThrow(/invalid settings/);
      await expect(startMcpChatMock({ port: 0, settings: { bogus: 1 } })).rejects.toThrow(/invalid settings/);
    });

    it("firstByteMs delays the head; the stream is paced (first event well before the sentinel)", async () => {
      const m = await startMcpChatMock({ port: 0, firstByteMs: 150, firstEventDelay: 10, toolDuration: 150 });
      try {
        await fetch(m.url + "/connect/weather", { method: "POST" });
        const t0 = performance.now();
        const res = await fetch(m.url + "/chat/stream", json("POST", { message: "hi" }));
        const head = performance.now() - t0;
        expect(head).toBeGreaterThanOrEqual(140);
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        const first = await reader.read();
        const tFirst = performance.now();
        expect(new TextDecoder().decode(first.value)).toContain("tool_start");
        let text = "";
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += new TextDecoder().decode(value);
        }
        expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
        expect(performance.now() - tFirst).toBeGreaterThanOrEqual(140);
      } finally {
        await m.close();
      }
    });
  });
});
