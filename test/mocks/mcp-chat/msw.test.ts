import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMock } from "../../../src/core/run/protocol.js";
import { startMcpChatMock } from "../../../src/mocks/mcp-chat/index.js";
import { mcpChatHandlers } from "../../../src/mocks/mcp-chat/msw.js";
import { canonicalPayloads, FAST, ORIGIN } from "./helpers.js";

const BASE = "http://localhost:8000";
const server = setupServer(...mcpChatHandlers({ ...FAST }));
let node: RunningMock;

beforeAll(async () => {
  // Requests to the node mock (127.0.0.1) are not matched and go to the network.
  server.listen({ onUnhandledRequest: "bypass" });
  node = await startMcpChatMock({ port: 0, ...FAST });
});
afterAll(async () => {
  server.close();
  await node.close();
});

async function streamFrom(base: string, query = "") {
  await fetch(`${base}/connect/weather`, { method: "POST", headers: { origin: ORIGIN } });
  const res = await fetch(`${base}/chat/stream${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify({ message: "What is the weather?" }),
  });
  return { res, text: await res.text() };
}

describe("mcp-chat msw handlers", () => {
  it("serve the same stream as the node mock", async () => {
    const viaMsw = await streamFrom(BASE);
    const viaNode = await streamFrom(node.url);
    expect(viaMsw.res.status).toBe(200);
    expect(viaMsw.res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(viaMsw.res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(canonicalPayloads(viaMsw.text)).toEqual(canonicalPayloads(viaNode.text));
    expect(canonicalPayloads(viaMsw.text)).toHaveLength(7);
  });

  it("serve other scenarios and the JSON endpoints", async () => {
    const { text } = await streamFrom(BASE, "?scenario=parallel-tools");
    expect(canonicalPayloads(text)[1]).toBe('{"type": "tool_start", "id": "tc-2", "name": "get_weather", "args": {"city": "Rome"}}');
    const servers = (await (await fetch(`${BASE}/servers`)).json()) as { id: string }[];
    expect(servers.map((s) => s.id)).toEqual(["weather", "server-id-1"]);
    const status = (await (await fetch(`${BASE}/status`)).json()) as { server_id: string };
    expect(status.server_id).toBe("weather");
    const nf = await fetch(`${BASE}/nope`);
    expect(nf.status).toBe(404);
  });

  it("msw.ts imports nothing from node", async () => {
    const { readFile } = await import("node:fs/promises");
    const seen = new Set<string>();
    const visit = async (file: URL) => {
      if (seen.has(file.href)) return;
      seen.add(file.href);
      const src = await readFile(file, "utf8");
      // Type-only imports are erased at build time, so only value imports count.
      for (const m of src.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gm)) {
        const spec = m[1] as string;
        expect(spec.startsWith("node:"), `${file.pathname} imports ${spec}`).toBe(false);
        if (spec.startsWith(".")) await visit(new URL(spec.replace(/\.js$/, ".ts"), file));
        else expect(["msw"], `${file.pathname} imports ${spec}`).toContain(spec);
      }
    };
    await visit(new URL("../../../src/mocks/mcp-chat/msw.ts", import.meta.url));
    expect(seen.size).toBeGreaterThan(5);
  });
});
