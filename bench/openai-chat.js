/** openai-chat: mock chunks/s vs a bare SSE writer; checker chunks/s vs JSON.parse + ajv; RSS. */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { PROTOCOLS } from "../dist/protocols.js";
import { registry } from "../dist/core/schemas/schema-registry.js";
import { checkerVsParse, readSse, recordedRun, timeStreamsAlternating, memoryRow, MEM_EVENTS, mockVsBare, quick, rssThroughSuite, sseBytes } from "./common.js";

const protocol = PROTOCOLS.find((p) => p.id === "openai-chat");
const chunk = (i, delta, finish = null) =>
  JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1767225600, model: "agentwire-mock", choices: [{ index: 0, delta, finish_reason: finish }] });

/**
 * The openai-chat mock against CopilotKit's aimock (the AI mock users pick today) streaming the same
 * answer: the mock's long-stream text, cut by aimock into as many content chunks, both at zero delay.
 */
async function mockVsAimock(mockUrl, body, rounds) {
  const { LLMock } = await import("@copilotkit/aimock");
  const sample = await readSse(`${mockUrl}/v1/chat/completions`, body);
  const datas = sample.raw.split("\n\n").map((e) => e.replace(/^data: /, "")).filter((d) => d.startsWith("{"));
  const text = datas.map((d) => JSON.parse(d).choices?.[0]?.delta?.content ?? "").join("");
  const chunks = datas.length;
  const aimock = new LLMock({ port: 0, host: "127.0.0.1", latency: 0, logLevel: "silent" });
  aimock.onMessage("long-stream", { content: text }, { chunkSize: Math.max(1, Math.ceil(text.length / chunks)), latency: 0 });
  await aimock.start();
  const aimockUrl = `${aimock.url}/v1/chat/completions`;
  const check = await readSse(aimockUrl, body);
  if (check.events < chunks / 2) throw new Error(`aimock sent ${check.events} events for ${chunks} chunks; check the fixture`);
  const { kit, base } = await timeStreamsAlternating(`${mockUrl}/v1/chat/completions`, aimockUrl, body, rounds);
  await aimock.stop();
  return { name: "openai-chat mock chunks/s vs aimock", kit, base, baseName: "@copilotkit/aimock 1.x", work: `${chunks} chunks, ${text.length} chars, median of ${rounds} alternating rounds` };
}

export async function benchOpenaiChat() {
  const rows = [];
  const mock = await protocol.startMock({
    host: "127.0.0.1",
    port: 0,
    settings: { headersDelayMs: 0, ttftMs: 0, chunkDelayMs: 0, closeDelayMs: 0 },
  });
  const body = { model: "agentwire-mock", stream: true, messages: [{ role: "user", content: "!scenario long-stream" }] };
  rows.push(await mockVsBare({ name: "openai-chat mock chunks/s", mockUrl: mock.url, path: "/v1/chat/completions", body, rounds: quick ? 30 : 60 }));
  rows.push(await mockVsAimock(mock.url, body, quick ? 30 : 60));
  await mock.close();

  const n = quick ? 50_000 : 200_000;
  const chunks = [sseBytes(chunk(0, { role: "assistant", content: "" }))];
  for (let i = 0; i < n; i++) chunks.push(sseBytes(chunk(i, { content: `tok${i} ` })));
  chunks.push(sseBytes(chunk(n, {}, "stop")), sseBytes("[DONE]"));
  const ajv = new Ajv2020({ strict: false });
  addFormatsModule(ajv);
  for (const m of registry.messages("openai-chat")) ajv.addSchema(registry.schema("openai-chat", m));
  const validate = ajv.getSchema("https://agentwire.dev/schemas/openai-chat/chat-completion-chunk.schema.json");
  const recorded = await recordedRun(protocol);
  const request = JSON.stringify({ model: "agentwire-mock", stream: true, messages: [{ role: "user", content: "bench" }] });
  rows.push(...checkerVsParse({ name: "openai-chat checker chunks/s", protocol, recorded, label: "text-stream", body: request, chunks, validate, oneCheck: "openai-chat/sse/content-type" }));

  const at = (i) => `data: ${chunk(i, { content: `tok${i} ` })}\n\n`;
  const end = `data: ${chunk(0, {}, "stop")}\n\ndata: [DONE]\n\n`;
  const small = await rssThroughSuite(protocol, "text-stream", 1_000, at, end);
  const big = await rssThroughSuite(protocol, "text-stream", MEM_EVENTS, at, end);
  rows.push(memoryRow(`openai-chat RSS after ${MEM_EVENTS.toLocaleString("en")} chunks`, small, big));
  return rows;
}
