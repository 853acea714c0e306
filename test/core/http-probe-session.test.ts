/** The core HTTP probe session's per-request options and its per-protocol rule for a target that stopped answering. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HttpProbeSession, type HttpProbeRequest, type HttpProbeSettings } from "../../src/core/probes/http-probe-session.js";
import { StopProbing } from "../../src/core/probes/probe-session.js";
import type { ProbeContext } from "../../src/core/run/protocol.js";
import { TranscriptBus } from "../../src/core/transcript/transcript.js";

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

/** Answers every request with the Content-Type it received, and `size` bytes of JSON padding. */
async function serve(size = 0): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ type: req.headers["content-type"] ?? null, pad: "x".repeat(size) }));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function context(url: string): ProbeContext {
  const timeouts = { request: 2_000, headers: 2_000, firstEvent: 2_000, idle: 2_000, stream: 2_000, close: 500 };
  return { url, bus: new TranscriptBus(), timeouts, headers: {}, profile: { name: "default", description: "" }, params: {}, maxBytes: 1 << 20, signal: new AbortController().signal, progress: () => {} };
}

class Session extends HttpProbeSession {
  constructor(ctx: ProbeContext, extra: Partial<HttpProbeSettings> = {}) {
    super(ctx, "test", { jsonMaxBytes: 64 * 1024, maxRetryAfterMs: () => 0, closeWaitMs: () => 0, ...extra });
  }
  send(label: string, req: Omit<HttpProbeRequest, "method" | "headers" | "timing">) {
    return this.sendOnce(label, { method: "POST", headers: {}, timing: "quick", ...req, url: req.url });
  }
}

describe("HttpProbeSession", () => {
  it("sends JSON's Content-Type with a body by default, the one a request names, or none", async () => {
    const url = await serve();
    const s = new Session(context(url));
    const typeOf = async (req: Partial<HttpProbeRequest>) => ((await s.send("l", { url, ...req })).json as { type: unknown }).type;
    expect(await typeOf({ body: "{}" })).toBe("application/json");
    expect(await typeOf({ body: "x", contentType: "text/plain" })).toBe("text/plain");
    expect(await typeOf({ body: "{}", contentType: null })).toBe(null);
    expect(await typeOf({})).toBe(null);
  });

  it("stops after three failed answers in a row, counting the endings the protocol names, in its words", async () => {
    const url = await serve(4096);
    // A read cap the probe did not choose ends each answer with "limit".
    const strict = new Session(context(url), { jsonMaxBytes: 100 });
    await strict.send("a", { url });
    await strict.send("b", { url });
    await expect(strict.send("c", { url })).rejects.toThrow(/^3 exchanges in a row got no complete answer \(last: c, limit\)$/);

    // A protocol for which only time limits and errors are failures goes on.
    const lenient = new Session(context(url), { jsonMaxBytes: 100, failedEnds: new Set(["timeout", "error"]), noun: "requests" });
    for (const label of ["a", "b", "c", "d"]) expect((await lenient.send(label, { url })).endReason).toBe("limit");
  });

  it("does not count a request that may fail, and names the protocol's noun when it stops", async () => {
    const url = await serve(4096);
    const s = new Session(context(url), { jsonMaxBytes: 100, noun: "requests" });
    await s.send("a", { url, mayFail: true });
    await s.send("b", { url, mayFail: true });
    await s.send("c", { url, mayFail: true });
    await s.send("d", { url });
    await s.send("e", { url });
    const stopped = s.send("f", { url });
    await expect(stopped).rejects.toBeInstanceOf(StopProbing);
    await expect(stopped).rejects.toThrow(/^3 requests in a row/);
  });

  it("gives a quick request the shorter limit it asks for", async () => {
    const server = http.createServer(() => {}); // never answers
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const s = new Session(context(url));
    const started = performance.now();
    const r = await s.send("slow", { url, timeoutMs: 150, mayFail: true });
    expect(r.status).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});
