/**
 * A relative msw address ("/api"): in a page (globalThis.location) it is resolved against the page's origin, as a
 * same-origin frontend's fetch("/api/...") is; without a page (Node's setupServer) building the handlers fails with an
 * error that names the handler, the option and the value, and shows an absolute URL to give instead.
 */
import { setupServer } from "msw/node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { continueRemoteHandlers } from "../../src/mocks/continue-remote/msw.js";
import { mcpChatHandlers } from "../../src/mocks/mcp-chat/msw.js";
import { openaiChatHandlers } from "../../src/mocks/openai-chat/msw.js";
import { piWebHandlers } from "../../src/mocks/pi-web/msw.js";
import { stagewiseChatHandlers } from "../../src/mocks/stagewise-chat/msw.js";

const PAGE = "https://app.example.test";

afterEach(() => {
  vi.unstubAllGlobals();
});

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error("did not throw");
}

describe("msw handlers given a relative address", () => {
  it("without a page: an Error naming the handler, the option, the value and an absolute URL to give", () => {
    expect(globalThis.location).toBeUndefined();
    const cases: [() => unknown, string][] = [
      [() => mcpChatHandlers({ baseUrl: "/api" }), 'mcpChatHandlers: baseUrl "/api" is not an absolute URL, and there is no page (globalThis.location) to resolve it against; give an absolute URL such as "http://localhost:8000/api"'],
      [() => openaiChatHandlers({ baseUrl: "/v1" }), 'openaiChatHandlers: baseUrl "/v1" is not an absolute URL, and there is no page (globalThis.location) to resolve it against; give an absolute URL such as "http://localhost:8000/v1"'],
      [() => continueRemoteHandlers({ baseUrl: "/" }), 'continueRemoteHandlers: baseUrl "/" is not an absolute URL, and there is no page (globalThis.location) to resolve it against; give an absolute URL such as "http://127.0.0.1:8000/"'],
      [() => piWebHandlers({ url: "/ws" }), 'piWebHandlers: url "/ws" is not an absolute URL, and there is no page (globalThis.location) to resolve it against; give an absolute URL such as "ws://localhost:4781/ws"'],
      [() => stagewiseChatHandlers({ url: "/" }), 'stagewiseChatHandlers: url "/" is not an absolute URL, and there is no page (globalThis.location) to resolve it against; give an absolute URL such as "http://localhost:5746/"'],
    ];
    for (const [build, message] of cases) {
      const err = thrown(build);
      expect(err.constructor).toBe(Error);
      expect(err.message).toBe(message);
    }
  });

  it("in a page whose origin is opaque, or with a value that is no URL at all: the same kind of error", () => {
    vi.stubGlobal("location", { origin: "null" });
    expect(thrown(() => mcpChatHandlers({ baseUrl: "/api" })).message).toBe(
      'mcpChatHandlers: baseUrl "/api" is not an absolute URL, and the page\'s origin is opaque; give an absolute URL such as "http://localhost:8000/api"',
    );
    vi.stubGlobal("location", { origin: PAGE });
    expect(thrown(() => mcpChatHandlers({ baseUrl: "http://[bad" })).message).toBe(
      `mcpChatHandlers: baseUrl "http://[bad" is not an absolute URL, even against the page's origin ${PAGE}; give an absolute URL such as "http://localhost:8000"`,
    );
  });

  it("in a page: HTTP handlers answer under the page's origin", async () => {
    vi.stubGlobal("location", { origin: PAGE, href: `${PAGE}/chat` });
    const server = setupServer(...mcpChatHandlers({ baseUrl: "/api" }), ...openaiChatHandlers({ baseUrl: "/llm/v1" }), ...continueRemoteHandlers({ baseUrl: "/" }));
    server.listen({ onUnhandledRequest: "error" });
    try {
      const servers = (await (await fetch(`${PAGE}/api/servers`)).json()) as { id: string }[];
      expect(servers.map((s) => s.id)).toContain("weather");
      const models = (await (await fetch(`${PAGE}/llm/v1/models`)).json()) as { object: string };
      expect(models.object).toBe("list");
      const state = await fetch(`${PAGE}/state`);
      expect(state.status).toBe(200);
    } finally {
      server.close();
    }
  });

  it("in a page: WebSocket links on the page's host, wss: on an https page", () => {
    vi.stubGlobal("location", { origin: PAGE });
    const [pi] = piWebHandlers({ url: "/ws" });
    expect(pi!.test(`wss://app.example.test/ws`)).toBe(true);
    expect(pi!.test(`ws://localhost:4781/ws`)).toBe(false);
    const stagewise = stagewiseChatHandlers({ url: "/" });
    const link = stagewise.find((h) => h.constructor.name === "WebSocketHandler") as { test(url: string): boolean };
    expect(link.test(`wss://app.example.test/stagewise/ws`)).toBe(true);
    vi.stubGlobal("location", { origin: "http://localhost:5173" });
    const [plain] = piWebHandlers({ url: "/ws" });
    expect(plain!.test(`ws://localhost:5173/ws`)).toBe(true);
  });

  it("absolute addresses are used as given, as before", () => {
    vi.stubGlobal("location", { origin: PAGE });
    const [pi] = piWebHandlers({ url: "ws://localhost:9999/socket" });
    expect(pi!.test("ws://localhost:9999/socket")).toBe(true);
    expect(mcpChatHandlers({ baseUrl: "http://localhost:8000/api" })).toHaveLength(1);
  });
});
