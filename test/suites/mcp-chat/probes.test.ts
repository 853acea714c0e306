/** Probe behaviour that the mock does not show: rate limits, and a target that answers oddly. */
import { afterEach, describe, expect, it } from "vitest";
import { runSuite } from "../../../src/core/run/runner.js";
import { TranscriptBus } from "../../../src/core/transcript/transcript.js";
import { mcpChat } from "../../../src/suites/mcp-chat/index.js";
import { backendWithStream, serve, type Handler, type Hostile } from "../../helpers/hostile-servers.js";
import { byId, serverSide } from "../../helpers/run-results.js";

const EVENTS = [
  '{"type": "tool_start", "id": "t1", "name": "echo", "args": {"text": "hi"}}',
  '{"type": "tool_end", "id": "t1", "name": "echo"}',
  '{"type": "text", "content": "hi"}',
  "[DONE]",
];
/** One write per event; the tool "runs" 150 ms, so the stream is visibly incremental. */
const okStream: Handler = (req, res) => {
  res.writeHead(200, { "content-type": "text/event-stream", "access-control-allow-origin": req.headers.origin ?? "", "access-control-allow-credentials": "true" });
  EVENTS.forEach((e, i) => setTimeout(() => (i === EVENTS.length - 1 ? res.end(`data: ${e}\n\n`) : res.write(`data: ${e}\n\n`)), i === 0 ? 0 : 150 + i * 10));
};

/** Answers the first GET /servers with 429 and `retryAfter`, then behaves. */
function limitedOnce(retryAfter: string): Handler {
  const inner = backendWithStream(okStream);
  let limited = false;
  return (req, res) => {
    if (!limited && req.url === "/servers" && req.method === "GET") {
      limited = true;
      res.writeHead(429, { "content-type": "application/json", "retry-after": retryAfter, "access-control-allow-origin": "http://localhost:3000", "access-control-allow-credentials": "true" });
      res.end(JSON.stringify({ detail: "slow down" }));
      return;
    }
    inner(req, res);
  };
}

let open: Hostile | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe("mcp-chat probes", () => {
  it("honour a 429 Retry-After and judge the retried answer", async () => {
    open = await serve(limitedOnce("1"));
    const t0 = performance.now();
    const r = await runSuite(mcpChat, { url: open.url });
    expect(performance.now() - t0).toBeGreaterThan(900);
    expect(byId(serverSide(r), "mcp-chat/servers/list-shape").verdict).toBe("pass");
  });

  it("a listing the kit stopped reading is no failure of list-shape: what it starves is not called its knock-on", async () => {
    const inner = backendWithStream(okStream);
    // The head and the start of a listing, then nothing: the kit's body timeout ends the read.
    open = await serve((req, res) => {
      if (req.url !== "/servers" || req.method !== "GET") return inner(req, res);
      res.writeHead(200, { "content-type": "application/json" });
      res.write('[{"id": "echo", ');
    });
    const r = serverSide(await runSuite(mcpChat, { url: open.url, timeout: 500 }));
    expect(byId(r, "mcp-chat/servers/list-shape").verdict).toBe("incomplete");
    const said = r.filter((c) => /list-shape failed/.test(c.message)).map((c) => c.id);
    expect(said).toEqual([]);
  });

  it("give up on a Retry-After beyond maxRetryAfterMs, leaving the rule untested", async () => {
    open = await serve(limitedOnce("3600"));
    const r = await runSuite(mcpChat, { url: open.url, params: { maxRetryAfterMs: 1000 } });
    const list = byId(serverSide(r), "mcp-chat/servers/list-shape");
    expect(list.verdict).toBe("incomplete");
    expect(list.message).toMatch(/rate-limited/);
  });

  it("stop, in bounded time, against a target that answers every request 429 with a Retry-After", async () => {
    open = await serve((_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
      res.end(JSON.stringify({ detail: "slow down" }));
    });
    const t0 = performance.now();
    const r = await runSuite(mcpChat, { url: open.url, timeout: 2000 });
    // Two requests' worth of Retry-After waits (2 × 2 s), not two for every request of the run.
    expect(performance.now() - t0).toBeLessThan(10_000);
    const checks = serverSide(r);
    // Its 429 bodies are well-formed errors (errors/detail-shape); nothing else is judged.
    expect(checks.filter((c) => c.verdict === "pass").map((c) => c.id)).toEqual(["mcp-chat/errors/detail-shape"]);
    const list = byId(checks, "mcp-chat/status/disconnected-shape");
    expect(list.verdict).toBe("incomplete");
    expect(list.message).toMatch(/the probes stopped early: 6 answers in a row were 429 Too Many Requests/);
  });

  it("run a minimal correct backend with one server to a clean result, --strict included", async () => {
    open = await serve(backendWithStream(okStream));
    const r = await runSuite(mcpChat, { url: open.url, strict: true });
    const checks = serverSide(r);
    expect(checks.filter((c) => c.verdict === "fail" || c.verdict === "warn")).toEqual([]);
    // It refuses chat while disconnected with 409 and has no /chat: both legal, both skipped.
    expect(r.exitCode).toBe(0);
    expect(checks.filter((c) => c.verdict === "skip").map((c) => c.id)).toEqual([
      "mcp-chat/state/single-connection",
      "mcp-chat/state/reconnect-same-id",
      "mcp-chat/tools/all-ended-before-error",
      "mcp-chat/chat-sync/shape",
    ]);
    // One listed server is legal: the two-server rules do not arise, and say so.
    const single = byId(checks, "mcp-chat/state/single-connection");
    expect(`${single.verdict}: ${single.message}`).toMatch(/^skip: not applicable: GET \/servers lists one server \(echo\); switching and reconnecting need two/);
  });

  it("stop at once when the first request finds nothing listening", async () => {
    const bus = new TranscriptBus();
    const requests: string[] = [];
    bus.subscribe((e) => {
      if (e.kind === "http-request") requests.push(e.label);
    });
    await mcpChat.runProbes({
      url: "http://127.0.0.1:9",
      bus,
      timeouts: mcpChat.timeouts,
      headers: {},
      profile: { name: "default", description: "" },
      params: { ...mcpChat.defaultParams },
      maxBytes: 1024,
      signal: new AbortController().signal,
      progress: () => undefined,
    });
    expect(requests).toEqual(["servers"]);
  });

  it("add --header names to the preflight's requested headers and send the headers everywhere", async () => {
    const seen: { method: string; acrh?: string; key?: string }[] = [];
    const inner = backendWithStream(okStream);
    open = await serve((req, res) => {
      seen.push({ method: req.method!, acrh: req.headers["access-control-request-headers"] as string | undefined, key: req.headers["x-api-key"] as string | undefined });
      inner(req, res);
    });
    await runSuite(mcpChat, { url: open.url, headers: { "X-Api-Key": "k" }, only: ["cors/preflight"] });
    const preflights = seen.filter((s) => s.method === "OPTIONS");
    expect(preflights.length).toBeGreaterThan(0);
    expect(preflights.every((p) => p.acrh === "content-type, x-api-key")).toBe(true);
    expect(seen.filter((s) => s.method !== "OPTIONS").every((s) => s.key === "k")).toBe(true);
  });
});
