/** mcp-chat: mock events/s vs a bare SSE writer; checker events/s vs JSON.parse + ajv; RSS. */
import { Ajv2020 } from "ajv/dist/2020.js";
import { PROTOCOLS } from "../dist/protocols.js";
import { registry } from "../dist/core/schemas/schema-registry.js";
import { checkerVsParse, recordedRun, memoryRow, MEM_EVENTS, mockVsBare, quick, rssThroughSuite, sseBytes } from "./common.js";

const protocol = PROTOCOLS.find((p) => p.id === "mcp-chat");
const text = (i) => JSON.stringify({ type: "text", content: `chunk ${i} é 漢 🙂 ` });

export async function benchMcpChat() {
  const rows = [];
  const mock = await protocol.startMock({
    host: "127.0.0.1",
    port: 0,
    settings: { headersDelay: 0, firstEventDelay: 0, eventDelay: 0, toolDuration: 0, closeDelay: 0 },
  });
  await fetch(`${mock.url}/connect/weather`, { method: "POST" }).then((r) => r.arrayBuffer());
  rows.push(await mockVsBare({ name: "mcp-chat mock events/s", mockUrl: mock.url, path: "/chat/stream", body: { message: "!scenario long-answer" }, rounds: quick ? 60 : 200 }));
  await mock.close();

  const n = quick ? 50_000 : 200_000;
  const chunks = [sseBytes(JSON.stringify({ type: "tool_start", id: "tc-1", name: "get_weather", args: { city: "Paris" } })), sseBytes(JSON.stringify({ type: "tool_end", id: "tc-1", name: "get_weather" }))];
  for (let i = 0; i < n; i++) chunks.push(sseBytes(text(i)));
  chunks.push(sseBytes("[DONE]"));
  const ajv = new Ajv2020({ strict: false });
  const validate = ajv.compile({ ...registry.schema("mcp-chat", "text-event"), $id: undefined });
  const recorded = await recordedRun(protocol);
  rows.push(...checkerVsParse({ name: "mcp-chat checker events/s", protocol, recorded, label: "chat-stream", body: JSON.stringify({ message: "bench" }), chunks, validate, oneCheck: "mcp-chat/sse/content-type" }));

  const small = await rssThroughSuite(protocol, "chat-stream", 1_000, (i) => `data: ${text(i)}\n\n`, "data: [DONE]\n\n");
  const big = await rssThroughSuite(protocol, "chat-stream", MEM_EVENTS, (i) => `data: ${text(i)}\n\n`, "data: [DONE]\n\n");
  rows.push(memoryRow(`mcp-chat RSS after ${MEM_EVENTS.toLocaleString("en")} events`, small, big));
  return rows;
}
