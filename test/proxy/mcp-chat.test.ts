/**
 * mcp-chat through the proxy: the example client and a scripted chat against the reference mock,
 * clean and with faults; bytes equal to a direct connection; the probes' own verdicts unchanged.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { startProxy } from "../../src/index.js";
import { runSuite } from "../../src/core/run/runner.js";
import { mcpChat } from "../../src/suites/mcp-chat/index.js";
import { quickMock } from "../helpers/quick-pacing.js";
import { casePath, findCase } from "../../src/suites/mcp-chat/client/cases.js";
import { example, failed, judgedIds, mockBehindProxy, runNode } from "./harness.js";

/** The mock at the suite's self-test pace, judged with the self-test's parameters (as `agentwire test` judges its own mock). */
const QUICK = { params: { ...(mcpChat.selfTest?.params ?? {}) } };

/** A frontend's session: list, connect, status, one streamed chat, disconnect. */
async function chatSession(base: string): Promise<string> {
  const servers = (await (await fetch(`${base}/servers`)).json()) as { id: string }[];
  await (await fetch(`${base}/connect/${encodeURIComponent(servers[0]!.id)}`, { method: "POST" })).text();
  await (await fetch(`${base}/status`)).text();
  const stream = await fetch(`${base}/chat/stream`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "What is the weather in Paris?" }) });
  const text = await stream.text();
  await (await fetch(`${base}/disconnect`, { method: "POST" })).text();
  return text;
}

describe.concurrent("mcp-chat through agentwire proxy", () => {
  it("the example client against the reference mock: no failure on either side, both sides judged", async () => {
    const run = await mockBehindProxy(mcpChat, quickMock("mcp-chat"), QUICK);
    const { code } = await runNode(example("mcp-chat-client.mjs"), [], { AGENTWIRE_URL: run.proxy.url });
    const result = await run.close();
    expect(code).toBe(0);
    expect(failed(result.server!.checks)).toEqual([]);
    expect(failed(result.client!.checks)).toEqual([]);
    expect(judgedIds(result.server!.checks)).toContain("mcp-chat/servers/list-shape");
    expect(judgedIds(result.client!.checks)).toContain("mcp-chat/client/connect-known-id");
    // The robustness cases break rules at the client's request: no server rule judged them.
    expect(result.server!.checks.find((c) => c.id === "mcp-chat/sse/lf-only")!.verdict).toBe("incomplete");
    // Rules that need the kit's own probes or mock say so.
    const unknown = result.server!.checks.find((c) => c.id === "mcp-chat/connect/unknown-id-4xx")!;
    expect([unknown.verdict, unknown.message]).toEqual(["skip", expect.stringContaining("needs `agentwire test`")]);
    const parse = result.client!.checks.find((c) => c.id.startsWith("mcp-chat/client-parse/"))!;
    expect([parse.verdict, parse.message]).toEqual(["skip", expect.stringContaining("agentwire test-client")]);
  });

  it("a scripted session judges the stream rules, and a fault fails exactly its checks", async () => {
    const clean = await mockBehindProxy(mcpChat, quickMock("mcp-chat"), QUICK);
    await chatSession(clean.proxy.url);
    const ok = await clean.close();
    expect(failed(ok.server!.checks)).toEqual([]);
    expect(failed(ok.client!.checks)).toEqual([]);
    // connect/matches-listing and tools/name-in-tool-list learn the listing and the tools from the relayed answers.
    for (const id of ["mcp-chat/sse/lf-only", "mcp-chat/terminal/required", "mcp-chat/status/connected-shape", "mcp-chat/disconnect/success-shape", "mcp-chat/connect/matches-listing", "mcp-chat/tools/name-in-tool-list"]) {
      expect(ok.server!.checks.find((c) => c.id === id)!.verdict, id).toBe("pass");
    }
    // The client rules that read the mock's state get it from the relayed traffic.
    for (const id of ["mcp-chat/client/connect-before-chat", "mcp-chat/client/connect-known-id", "mcp-chat/client/chat-request"]) {
      expect(ok.client!.checks.find((c) => c.id === id)!.verdict, id).toBe("pass");
    }
    for (const fault of ["sse-crlf", "servers-duplicate-id", "connect-missing-server-name"]) {
      const info = mcpChat.faults.find((f) => f.name === fault)!;
      const run = await mockBehindProxy(mcpChat, { ...quickMock("mcp-chat"), faults: [fault] }, QUICK);
      await chatSession(run.proxy.url);
      const result = await run.close();
      expect(failed(result.server!.checks), fault).toEqual([...info.violates].sort());
      expect(failed(result.client!.checks), fault).toEqual([]);
    }
  });

  it("a client that chats before connecting, or connects to an id never listed, fails the client rules", async () => {
    const run = await mockBehindProxy(mcpChat, quickMock("mcp-chat"), QUICK);
    const base = run.proxy.url;
    await (await fetch(`${base}/servers`)).text();
    await (await fetch(`${base}/disconnect`, { method: "POST" })).text();
    await (await fetch(`${base}/chat/stream`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"message":"hi"}' })).text();
    await (await fetch(`${base}/connect/not-listed`, { method: "POST" })).text();
    const result = await run.close();
    expect(failed(result.client!.checks)).toEqual(["mcp-chat/client/connect-before-chat", "mcp-chat/client/connect-known-id"]);
  });

  it("a connect sent before the client fetched the listing through the proxy is not judged on the listing", async () => {
    const run = await mockBehindProxy(mcpChat, quickMock("mcp-chat"), QUICK);
    const base = run.proxy.url;
    await (await fetch(`${base}/connect/weather`, { method: "POST" })).text();
    const result = await run.close();
    const r = result.client!.checks.find((c) => c.id === "mcp-chat/client/connect-known-id")!;
    expect([r.outcome, r.message]).toEqual(["incomplete", expect.stringContaining("the listing was unknown")]);
    // Once the client fetched the listing, the same connect is judged on both halves.
    const listed = await mockBehindProxy(mcpChat, quickMock("mcp-chat"), QUICK);
    await (await fetch(`${listed.proxy.url}/servers`)).text();
    await (await fetch(`${listed.proxy.url}/connect/weather`, { method: "POST" })).text();
    const after = await listed.close();
    expect(after.client!.checks.find((c) => c.id === "mcp-chat/client/connect-known-id")!.outcome).toBe("pass");
  });

  it("the client gets the target's bytes, in the target's chunks (a UTF-8 character split across two)", async () => {
    // Lockstep: the target writes its next piece only once the reader got the last one, so no
    // machine load can merge two pieces on the way; a relay that held one back would stall here.
    const pieces = [Buffer.from('data: {"type":"text","content":"caf'), Buffer.from([0xc3]), Buffer.from([0xa9, 0x22, 0x7d, 0x0a, 0x0a]), Buffer.from("data: [DONE]\n\n")];
    let delivered: () => void = () => undefined;
    const target = http.createServer(async (req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const p of pieces) {
        const got = new Promise<void>((r) => (delivered = r));
        res.write(p);
        await Promise.race([got, new Promise((r) => setTimeout(r, 3000))]);
      }
      res.end();
    });
    await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const proxy = await startProxy({ protocol: "mcp-chat", target: url });
    const read = async (base: string) => {
      const res = await fetch(`${base}/chat/stream`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"message":"hi"}' });
      const out: Buffer[] = [];
      for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) {
        out.push(Buffer.from(c));
        delivered();
      }
      return out;
    };
    const direct = await read(url);
    const proxied = await read(proxy.url);
    const result = await proxy.close();
    target.close();
    expect(direct).toEqual(pieces);
    expect(proxied).toEqual(pieces);
    // The split character is judged as one: the stream is valid UTF-8.
    expect(result.server!.checks.find((c) => c.id === "mcp-chat/sse/utf8")!.verdict).toBe("pass");
  });

  it("the mock's split-inside-UTF-8 case arrives byte for byte", async () => {
    const run = await mockBehindProxy(mcpChat, quickMock("mcp-chat"), QUICK);
    const path = casePath(findCase("utf8-split")!);
    const body = async (base: string) => {
      await fetch(`${base}/connect/weather`, { method: "POST" });
      return Buffer.from(await (await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"message":"hi"}' })).arrayBuffer());
    };
    const direct = await body(run.mock.url);
    const proxied = await body(run.proxy.url);
    await run.close();
    expect(proxied.equals(direct)).toBe(true);
    expect(direct.toString("utf8")).toMatch(/[^\x00-\x7f]/);
  });

  it("`agentwire test --url <proxy>` gives the same server verdicts as `--url <mock>`", async () => {
    const run = await mockBehindProxy(mcpChat, { suite: true, bus: undefined });
    const opts = { params: { ...(mcpChat.selfTest?.params ?? {}) }, timeout: 10_000 };
    const direct = await runSuite(mcpChat, { url: run.mock.url, ...opts });
    const proxied = await runSuite(mcpChat, { url: run.proxy.url, ...opts });
    await run.close();
    const verdicts = (r: typeof direct) => r.checks.map((c) => [c.id, c.verdict]);
    expect(verdicts(proxied)).toEqual(verdicts(direct));
  });

  it("a target that is down: the client gets a 502 with a JSON body, and the report says so", async () => {
    const proxy = await startProxy({ protocol: "mcp-chat", target: "http://127.0.0.1:1" });
    const res = await fetch(`${proxy.url}/servers`);
    expect(res.status).toBe(502);
    expect(((await res.json()) as { detail: string }).detail).toContain("refused");
    expect(res.headers.get("x-agentwire-target-error")).toBe("ECONNREFUSED");
    const result = await proxy.close();
    expect(result.server!.error).toContain("target unreachable");
    expect(result.server!.checks.find((c) => c.id === "mcp-chat/servers/list-shape")!.verdict).toBe("incomplete");
  });

  it("`agentwire test --url <proxy>` with the target down: the probes record the target's refusal, as they do directly", async () => {
    const proxy = await startProxy({ protocol: "mcp-chat", target: "http://127.0.0.1:1" });
    const opts = { params: { ...(mcpChat.selfTest?.params ?? {}) }, timeout: 5_000 };
    const proxied = await runSuite(mcpChat, { url: proxy.url, ...opts });
    const direct = await runSuite(mcpChat, { url: "http://127.0.0.1:1", ...opts });
    await proxy.close();
    expect(proxied.exitCode).toBe(direct.exitCode);
    expect(proxied.checks.map((c) => c.verdict)).toEqual(direct.checks.map((c) => c.verdict));
    expect(proxied.checks.some((c) => c.outcome === "fail")).toBe(false);
  });
});
