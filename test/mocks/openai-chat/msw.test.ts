import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMock } from "../../../src/core/run/protocol.js";
import { TranscriptBus, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { startOpenaiChatMock } from "../../../src/mocks/openai-chat/index.js";
import { openaiChatHandlers } from "../../../src/mocks/openai-chat/msw.js";
import { FAST, forcedRead, SEED_TOOLS, user } from "./helpers.js";

const mswBus = new TranscriptBus();
const nodeBus = new TranscriptBus();
const mswEvents: TranscriptEvent[] = [];
const nodeEvents: TranscriptEvent[] = [];
mswBus.subscribe((e) => mswEvents.push(e));
nodeBus.subscribe((e) => nodeEvents.push(e));

const server = setupServer(...openaiChatHandlers({ ...FAST, bus: mswBus }));
const MSW_BASE = "http://localhost:8000/v1";
let node: RunningMock;

beforeAll(async () => {
  // Requests to the node mock (127.0.0.1) are not matched and go to the network.
  server.listen({ onUnhandledRequest: "bypass" });
  node = await startOpenaiChatMock({ port: 0, ...FAST, bus: nodeBus });
});
afterAll(async () => {
  server.close();
  await node.close();
});

/** A session: models, a forced streamed call, its follow-up, a sync call, an error, a 404, a preflight. */
async function session(base: string) {
  const bodies: string[] = [];
  const post = async (body: unknown, extra: Record<string, string> = {}) => {
    const res = await fetch(`${base}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer x", ...extra },
      body: JSON.stringify(body),
    });
    bodies.push(`${res.status} ${res.headers.get("content-type")} ${await res.text()}`);
  };
  const models = await fetch(`${base}/models`);
  bodies.push(`${models.status} ${await models.text()}`);
  await post({ model: "agentwire-mock", stream: true, stream_options: { include_usage: true }, ...forcedRead });
  await post({
    model: "agentwire-mock",
    stream: true,
    tools: SEED_TOOLS,
    messages: [
      ...forcedRead.messages,
      { role: "assistant", content: "", tool_calls: [{ id: "call_aw000001", type: "function", function: { name: "read_file", arguments: '{"filepath":"README.md"}' } }] },
      { role: "tool", tool_call_id: "call_aw000001", content: "# hi" },
    ],
  });
  await post({ model: "agentwire-mock", ...forcedRead });
  await post({ model: "agentwire-mock", stream: true, messages: [user("hi")] }, { "x-agentwire-framing": "split-random" });
  await post({ model: "nope", messages: [user("hi")] });
  const nf = await fetch(`${base}/nope`);
  bodies.push(`${nf.status} ${await nf.text()}`);
  const pre = await fetch(`${base}/chat/completions`, {
    method: "OPTIONS",
    headers: { origin: "http://localhost:5173", "access-control-request-method": "POST" },
  });
  bodies.push(`${pre.status} ${pre.headers.get("access-control-allow-origin")}`);
  return bodies;
}

/** What a client check sees of an event, minus what differs between transports by nature. */
function comparable(e: TranscriptEvent) {
  if (e.kind === "http-request") {
    const { seq: _s, t: _t, url: _u, headers, ...rest } = e;
    return { ...rest, contentType: headers["content-type"] ?? null, authorization: headers.authorization ?? null };
  }
  if (e.kind === "http-response") {
    const { seq: _s, t: _t, ...rest } = e;
    return rest;
  }
  return e.kind;
}

describe("openai-chat msw handlers", () => {
  it("serve the same bytes and record the same events as the node mock", async () => {
    const viaMsw = await session(MSW_BASE);
    const viaNode = await session(`${node.url}/v1`);
    expect(viaMsw).toEqual(viaNode);
    expect(viaMsw[1]).toMatch(/^200 text\/event-stream; charset=utf-8 data: /);
    expect(viaMsw[2]).toContain('"delta":{"content":"Done. I "}');
    expect(mswEvents.map(comparable)).toEqual(nodeEvents.map(comparable));
    expect(mswEvents.filter((e) => e.kind === "http-request").map((e) => e.kind === "http-request" && e.label)).toEqual([
      "models",
      "chat-completions",
      "chat-completions",
      "chat-completions",
      "chat-completions",
      "chat-completions",
      "unknown",
      "preflight",
    ]);
  });

  it("respect a custom base URL", async () => {
    server.use(...openaiChatHandlers({ ...FAST, baseUrl: "http://gateway.test/openai/v1" }));
    try {
      const res = await fetch("http://gateway.test/openai/v1/models");
      expect(res.status).toBe(200);
      const stream = await fetch("http://gateway.test/openai/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "agentwire-mock", stream: true, messages: [user("hi")] }),
      });
      expect(await stream.text()).toMatch(/data: \[DONE\]\n\n$/);
      expect((await fetch("http://gateway.test/openai/v1/responses", { method: "POST", body: "{}" })).status).toBe(404);
    } finally {
      server.resetHandlers();
    }
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
        // zod's tree-shakable build only: the full one drags its every locale into the page.
        else expect(["msw", "zod/mini", "zod/v4/locales/en.js"], `${file.pathname} imports ${spec}`).toContain(spec);
      }
    };
    await visit(new URL("../../../src/mocks/openai-chat/msw.ts", import.meta.url));
    expect(seen.size).toBeGreaterThan(10);
  });
});
