/**
 * Writes the client-side fixture transcripts of mcp-chat, fixtures/mcp-chat/transcripts/client/:
 * - traffic fixtures, recorded from the mock engine in-process while it answers a scripted client
 *   (each breaks one client/* rule, plus a clean one);
 * - adapter runs, recorded from the mock over real HTTP while an adapter runs every robustness
 *   case (spec, and naive-line-splitter).
 * The verdicts each must give are in expected.json there, written by hand.
 *
 *   npx tsx scripts/make-client-fixtures.ts
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { eventToJsonLine, TranscriptBus, type TranscriptEvent } from "../src/core/transcript/transcript.js";
import { createMcpChatEngine } from "../src/mocks/mcp-chat/engine.js";
import { startMcpChatMock } from "../src/mocks/mcp-chat/server.js";
import { mcpChatAdapters } from "../src/suites/mcp-chat/client/adapters/index.js";
import { createClientCaseRoutes } from "../src/suites/mcp-chat/client/routes.js";
import { runMcpChatCases } from "../src/suites/mcp-chat/client/run-cases.js";

const OUT = fileURLToPath(new URL("../fixtures/mcp-chat/transcripts/client/", import.meta.url));
const BASE = "http://127.0.0.1:8000";
const JSON_TYPE = { "content-type": "application/json" };

interface Call {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

const servers: Call = { method: "GET", path: "/servers" };
const connect = (id: string): Call => ({ method: "POST", path: `/connect/${id}`, headers: JSON_TYPE });
const chat = (body: string, headers: Record<string, string> = JSON_TYPE): Call => ({
  method: "POST",
  path: "/chat/stream",
  body,
  headers,
});
const hi = '{"message": "What is the weather in San Francisco?"}';

/** Scripted clients: each breaks one client/* rule (or none), and otherwise behaves. */
const TRAFFIC: Record<string, Call[]> = {
  clean: [servers, connect("weather"), chat(hi)],
  "chat-text-plain": [servers, connect("weather"), chat("What is the weather?", { "content-type": "text/plain" })],
  "chat-msg-field": [servers, connect("weather"), chat('{"msg": "hi"}')],
  "connect-unknown-id": [servers, connect("nope"), connect("weather"), chat(hi)],
  "chat-before-connect": [servers, chat(hi), connect("weather"), chat(hi)],
};

async function recordTraffic(calls: Call[]): Promise<TranscriptEvent[]> {
  const { bus, events } = recordingBus();
  const engine = createMcpChatEngine({ bus, firstEventDelay: 0, eventDelay: 0, toolDuration: 0 });
  for (const c of calls) {
    const response = await engine.handle(
      new Request(`${BASE}${c.path}`, { method: c.method, headers: c.headers ?? {}, ...(c.body !== undefined ? { body: c.body } : {}) }),
    );
    await response.arrayBuffer();
  }
  return events;
}

async function recordAdapterRun(adapter: string): Promise<TranscriptEvent[]> {
  const { bus, events } = recordingBus();
  // A gap between the writes of a split event, so each arrives as its own read over TCP.
  const mock = await startMcpChatMock({ port: 0, bus, routes: createClientCaseRoutes(bus), firstEventDelay: 0, toolDuration: 0, eventDelay: 2, chunkGap: 1 });
  try {
    await runMcpChatCases(mock.url, mcpChatAdapters[adapter]!);
  } finally {
    await mock.close();
  }
  return events;
}

function recordingBus() {
  const bus = new TranscriptBus();
  const events: TranscriptEvent[] = [];
  bus.subscribe((e) => events.push(e));
  return { bus, events };
}

function write(name: string, events: TranscriptEvent[]): void {
  const file = join(OUT, `${name}.jsonl`);
  writeFileSync(file, events.map((e) => eventToJsonLine(e) + "\n").join(""));
  console.log(`wrote ${file} (${events.length} events)`);
}

mkdirSync(OUT, { recursive: true });
for (const [name, calls] of Object.entries(TRAFFIC)) write(name, await recordTraffic(calls));
for (const adapter of ["spec", "naive-line-splitter"]) write(`adapter-${adapter}`, await recordAdapterRun(adapter));
