/**
 * The HTTP relay's own caps: it relays every byte, but keeps for the checks only so much of a body (the text of a
 * non-stream answer, an SSE line). A body the kit stopped reading ends at the kit's limit, so no rule judges the target
 * on the part the kit did not read: the rules it starved end incomplete, none fails.
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
import { startProxy, type ProxyResult } from "../../src/proxy/index.js";
import { failed } from "./harness.js";

const listen = async (server: http.Server): Promise<string> => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const byId = (checks: CheckResult[], id: string): CheckResult => checks.find((c) => c.id === id)!;

const bodyEnds = (r: ProxyResult): Extract<TranscriptEvent, { kind: "body-end" }>[] =>
  readFileSync(r.server!.transcript!, "utf8")
    .split("\n")
    .slice(1)
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TranscriptEvent)
    .filter((e): e is Extract<TranscriptEvent, { kind: "body-end" }> => e.kind === "body-end");

/** Runs `drive` against an mcp-chat target answering with `handler` behind the proxy; the proxy's result. */
async function through(handler: http.RequestListener, drive: (url: string) => Promise<void>): Promise<ProxyResult> {
  const target = http.createServer(handler);
  const proxy = await startProxy({ protocol: "mcp-chat", target: await listen(target), saveTranscript: mkdtempSync(join(tmpdir(), "agentwire-proxy-cap-")) });
  let result: ProxyResult;
  try {
    await drive(proxy.url);
  } finally {
    result = await proxy.close();
    target.close();
  }
  return result;
}

describe.concurrent("the HTTP relay's own caps are the kit's", () => {
  it("a JSON answer longer than the text the proxy keeps: relayed whole, and left unjudged rather than failed as no JSON", async () => {
    const listing = JSON.stringify([{ id: "files", name: "x".repeat(1_500_000), path: "/srv/files.py" }]);
    let got = "";
    const result = await through(
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(listing);
      },
      async (url) => void (got = await (await fetch(`${url}/servers`)).text()),
    );
    expect(got).toBe(listing);
    expect(bodyEnds(result)).toMatchObject([{ reason: "limit", bytes: listing.length, error: `the body is longer than the ${1024 * 1024} bytes the proxy keeps for the checks; reading stopped there` }]);
    expect(failed(result.server!.checks)).toEqual([]);
    const shape = byId(result.server!.checks, "mcp-chat/servers/list-shape");
    expect(shape.verdict).toBe("incomplete");
    expect(shape.message).toContain("the kit stopped reading GET /servers");
  });

  it("a JSON answer the target resets after the text the proxy keeps: the reset stays the target's, not the kit's limit", async () => {
    const result = await through(
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.write(`[{"id":"files","name":"${"x".repeat(1_200_000)}`);
        // Past the proxy's cap, then the target breaks the connection mid-body.
        setTimeout(() => res.socket?.destroy(), 50);
      },
      async (url) => {
        await fetch(`${url}/servers`)
          .then((r) => r.text())
          .catch(() => undefined);
      },
    );
    const [end] = bodyEnds(result);
    expect(end?.reason).toBe("error");
  });

  it("an SSE line longer than the proxy reads: the stream is relayed whole and ends at the kit's limit, so no sentinel rule fails", async () => {
    const long = `data: ${JSON.stringify({ type: "text", content: "a".repeat(9 * 1024 * 1024) })}\n\n`;
    let got = 0;
    const result = await through(
      (_req, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(long);
        res.end("data: [DONE]\n\n");
      },
      async (url) => {
        const res = await fetch(`${url}/chat/stream`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "hi", history: [] }) });
        got = (await res.text()).length;
      },
    );
    expect(got).toBe(long.length + "data: [DONE]\n\n".length);
    const [end] = bodyEnds(result);
    expect(end).toMatchObject({ reason: "limit" });
    expect(end!.error).toMatch(/^an SSE line is longer than \d+ characters; reading stopped there$/);
    expect(failed(result.server!.checks)).toEqual([]);
    const required = byId(result.server!.checks, "mcp-chat/terminal/required");
    expect(required.verdict).toBe("incomplete");
    expect(required.message).toContain("the kit stopped reading chat-stream (limit) before a sentinel");
  });

  it("a gzip-coded JSON answer (the client's fetch asked for it) is judged on the JSON the client reads, not on the coded bytes", async () => {
    const listing = JSON.stringify([{ id: "files", name: "Files", path: "/srv/files.py" }]);
    let asked = "";
    const result = await through(
      (req, res) => {
        asked = String(req.headers["accept-encoding"]);
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        res.end(gzipSync(listing));
      },
      async (url) => expect(await (await fetch(`${url}/servers`)).json()).toEqual(JSON.parse(listing)),
    );
    expect(asked).toMatch(/gzip/);
    expect(bodyEnds(result)).toMatchObject([{ reason: "eof", text: listing }]);
    expect(failed(result.server!.checks)).toEqual([]);
    expect(byId(result.server!.checks, "mcp-chat/servers/list-shape").verdict).toBe("pass");
  });

  it("a coded answer that unpacks past the text the proxy keeps: left unjudged, as a long one", async () => {
    const listing = JSON.stringify([{ id: "files", name: "x".repeat(2_000_000), path: "/srv/files.py" }]);
    const result = await through(
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        res.end(gzipSync(listing));
      },
      async (url) => void (await (await fetch(`${url}/servers`)).text()),
    );
    expect(bodyEnds(result)).toMatchObject([{ reason: "limit", error: `the body decodes to more than the ${1024 * 1024} bytes the proxy keeps for the checks; reading stopped there` }]);
    expect(failed(result.server!.checks)).toEqual([]);
    expect(byId(result.server!.checks, "mcp-chat/servers/list-shape").verdict).toBe("incomplete");
  });
});
