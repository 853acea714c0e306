/**
 * A target that gzips its answers, its event streams included (compression middleware does by default), seen through
 * the proxy by a fetch client that asks for gzip: the checks judge the decoded streams, as the client reads them; the
 * client gets the coded bytes as sent; and a small body that unpacks past the kit's limit ends at that limit.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { TranscriptEvent } from "../../src/core/transcript/transcript.js";
import type { CheckResult } from "../../src/core/verdicts/result.js";
import { startProxy } from "../../src/proxy/index.js";
import { mcpChat } from "../../src/suites/mcp-chat/index.js";
import { openaiChat } from "../../src/suites/openai-chat/index.js";
import { activeCatalogue, offeredTools, toolDefinitions } from "../../src/suites/openai-chat/catalogue.js";
import { TranscriptBus } from "../../src/core/transcript/transcript.js";
import type { ProtocolDef } from "../../src/core/run/protocol.js";
import { quickMock } from "../helpers/quick-pacing.js";
import { failed } from "./harness.js";
import { gzipFront } from "./gzip-front.js";

const verdict = (checks: CheckResult[], id: string): string => checks.find((c) => c.id === id)!.verdict;

/** The protocol's mock behind a gzipping front, the proxy before that; `drive` runs against the proxy. */
async function gzipped(protocol: ProtocolDef, drive: (url: string) => Promise<void>) {
  const mock = await protocol.startMock({ host: "127.0.0.1", port: 0, bus: new TranscriptBus(), ...quickMock(protocol.id as "mcp-chat") });
  const front = await gzipFront(mock.url);
  const dir = mkdtempSync(join(tmpdir(), "agentwire-proxy-gzip-"));
  const proxy = await startProxy({ protocol: protocol.id, target: front.url, params: { ...(protocol.selfTest?.params ?? {}) }, saveTranscript: dir });
  const driven = await drive(proxy.url).then(
    () => undefined,
    (e: unknown) => e,
  );
  const result = await proxy.close();
  await front.close();
  await mock.close();
  if (driven !== undefined) throw driven;
  const events = readFileSync(result.server!.transcript!, "utf8").split("\n").slice(1).filter(Boolean).map((l) => JSON.parse(l) as TranscriptEvent);
  return { result, events };
}

/** What the client's fetch was told, and how it came: the stream's text and its Content-Encoding. */
async function post(url: string, body: object, headers: Record<string, string> = {}): Promise<[string, string | null]> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "accept-encoding": "gzip, deflate, br", ...headers }, body: JSON.stringify(body) });
  return [await res.text(), res.headers.get("content-encoding")];
}

describe.concurrent("a gzip-coded stream through the proxy", () => {
  it("mcp-chat: the stream rules judge the decoded events and pass; the byte rules say why they cannot judge a coded body", async () => {
    let told: [string, string | null] = ["", null];
    const { result, events } = await gzipped(mcpChat, async (url) => {
      const servers = (await (await fetch(`${url}/servers`)).json()) as { id: string }[];
      await (await fetch(`${url}/connect/${encodeURIComponent(servers[0]!.id)}`, { method: "POST" })).text();
      told = await post(`${url}/chat/stream`, { message: "What is the weather in Paris?" });
    });
    expect(told[1]).toBe("gzip");
    expect(told[0]).toContain("data: [DONE]");
    expect(failed(result.server!.checks)).toEqual([]);
    for (const id of ["mcp-chat/sse/lf-only", "mcp-chat/terminal/required", "mcp-chat/sse/data-lines-only", "mcp-chat/tools/end-matches-start"]) expect(verdict(result.server!.checks, id), id).toBe("pass");
    // The transcript keeps the bytes as sent: the gzip magic opens the stream's first chunk.
    const first = events.find((e) => e.kind === "body-chunk" && e.label.includes("stream"));
    expect([...Buffer.from((first as unknown as { base64: string }).base64, "base64").subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    for (const id of ["mcp-chat/sse/utf8", "mcp-chat/sse/event-per-write"]) {
      const c = result.server!.checks.find((x) => x.id === id)!;
      expect([c.verdict, c.message], id).toEqual(["incomplete", expect.stringContaining("gzip-coded")]);
    }
  });

  it("openai-chat: a streamed answer and a streamed tool call pass on their decoded events", async () => {
    const tools = toolDefinitions(offeredTools(activeCatalogue("seed")));
    const { result } = await gzipped(openaiChat, async (url) => {
      const models = (await (await fetch(`${url}/models`)).json()) as { data: { id: string }[] };
      const messages = [{ role: "user", content: "Read README.md" }];
      const model = models.data[0]!.id;
      expect((await post(`${url}/chat/completions`, { model, messages, stream: true, stream_options: { include_usage: true } }))[1]).toBe("gzip");
      await post(`${url}/chat/completions`, { model, messages, stream: true, tools, tool_choice: "required" });
    });
    expect(failed(result.server!.checks)).toEqual([]);
    for (const id of ["openai-chat/delta/role-first", "openai-chat/done/present", "openai-chat/models/list-shape"]) expect(verdict(result.server!.checks, id), id).toBe("pass");
    expect(result.server!.checks.find((x) => x.id === "openai-chat/sse/utf8")!.message).toContain("gzip-coded");
  });
});

describe("a coding that breaks, through the proxy", () => {
  it("a stream that says gzip but is not: relayed as sent, its end recorded as the coding's error, naming it", async () => {
    const plain = "data: {\"type\":\"text\",\"content\":\"hi\"}\n\ndata: [DONE]\n\n";
    const target = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream", "content-encoding": "gzip" });
      res.end(plain);
    });
    await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
    const proxy = await startProxy({ protocol: "mcp-chat", target: `http://127.0.0.1:${(target.address() as AddressInfo).port}`, maxExchanges: 1, saveTranscript: mkdtempSync(join(tmpdir(), "agentwire-proxy-badgzip-")) });
    const got = await new Promise<string>((resolve, reject) => {
      const req = http.request(`${proxy.url}/chat/stream`, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString("latin1")));
        res.on("end", () => resolve(text));
      });
      req.on("error", reject);
      req.end(JSON.stringify({ message: "hi" }));
    });
    await proxy.limitReached;
    const result = await proxy.close();
    target.close();
    expect(got).toBe(plain);
    const end = readFileSync(result.server!.transcript!, "utf8").split("\n").slice(1).filter(Boolean).map((l) => JSON.parse(l) as TranscriptEvent).find((e) => e.kind === "body-end");
    expect(end).toMatchObject({ reason: "error", error: expect.stringMatching(/^the body's gzip coding does not decode after \d+ coded byte\(s\): /) });
  });
});

describe("a gzip bomb through the proxy", () => {
  it("a stream that unpacks past the kit's limit is relayed as sent and ends at the kit's limit; no rule blames the target", async () => {
    const event = `data: ${JSON.stringify({ type: "text", content: "a".repeat(60_000) })}\n\n`;
    const bomb = gzipSync(event.repeat(1200));
    const target = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream", "content-encoding": "gzip" });
      res.end(bomb);
    });
    await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
    const proxy = await startProxy({ protocol: "mcp-chat", target: `http://127.0.0.1:${(target.address() as AddressInfo).port}`, maxExchanges: 1, saveTranscript: mkdtempSync(join(tmpdir(), "agentwire-proxy-bomb-")) });
    // node:http, which decodes nothing: the client gets the bytes as the target sent them.
    const got = await new Promise<Buffer>((resolve, reject) => {
      const req = http.request(`${proxy.url}/chat/stream`, { method: "POST", headers: { "content-type": "application/json", "accept-encoding": "gzip" } }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () => resolve(Buffer.concat(parts)));
      });
      req.on("error", reject);
      req.end(JSON.stringify({ message: "hi" }));
    });
    // Decoded for the checks after the client had it all: judged once the exchange has ended.
    await proxy.limitReached;
    const result = await proxy.close();
    target.close();
    expect(got.equals(bomb)).toBe(true);
    const end = readFileSync(result.server!.transcript!, "utf8").split("\n").slice(1).filter(Boolean).map((l) => JSON.parse(l) as TranscriptEvent).find((e) => e.kind === "body-end");
    expect(end).toMatchObject({ reason: "limit", bytes: bomb.length, error: `the gzip-coded body decodes to more than the ${64 * 1024 * 1024} bytes the kit reads; reading stopped there` });
    expect(failed(result.server!.checks)).toEqual([]);
    const terminal = result.server!.checks.find((c) => c.id === "mcp-chat/terminal/required")!;
    expect(terminal.verdict).toBe("incomplete");
  });
});
