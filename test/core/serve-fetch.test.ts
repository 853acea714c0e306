/** The node server of the fetch-style mocks: when the head goes out, paced bodies, failing sources. */
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { pacedBody, type TimedChunk } from "../../src/core/mock/paced-body.js";
import { serveFetch, type Served } from "../../src/core/mock/serve-fetch.js";

const enc = new TextEncoder();
const served: Served[] = [];
afterEach(async () => {
  for (const s of served.splice(0)) await s.close();
});

async function serve(body: (request: Request) => Iterable<TimedChunk>): Promise<string> {
  const s = await serveFetch(async (request) => new Response(pacedBody(body(request), 0, request.signal), { headers: { "content-type": "text/event-stream" } }));
  served.push(s);
  return s.url;
}

/** POSTs and records when the head and each body chunk arrived, and how the body ended. */
function get(url: string, body = "{}"): Promise<{ status: number; headAt: number; chunks: { at: number; text: string }[]; ended: "end" | "error" }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const req = http.request(url, { method: "POST", agent: false }, (res) => {
      const headAt = performance.now() - t0;
      const chunks: { at: number; text: string }[] = [];
      res.on("data", (d: Buffer) => chunks.push({ at: performance.now() - t0, text: d.toString() }));
      res.on("end", () => resolve({ status: res.statusCode!, headAt, chunks, ended: "end" }));
      res.on("error", () => resolve({ status: res.statusCode!, headAt, chunks, ended: "error" }));
    });
    req.on("error", () => resolve({ status: 0, headAt: -1, chunks: [], ended: "error" }));
    req.end(body);
  });
}

describe("serveFetch", () => {
  it("sends the head at once when the first write waits", async () => {
    const url = await serve(function* () {
      yield { bytes: enc.encode("data: late\n\n"), delay: 400 };
    });
    const r = await get(url);
    expect(r.status).toBe(200);
    expect(r.chunks.map((c) => c.text).join("")).toBe("data: late\n\n");
    expect(r.chunks[0]!.at - r.headAt).toBeGreaterThan(200);
  });

  it("writes a body without pauses in full, the head with it", async () => {
    const events = Array.from({ length: 500 }, (_, i) => `data: ${i} é\n\n`);
    const url = await serve(function* () {
      for (const e of events) yield { bytes: enc.encode(e), delay: 0 };
    });
    const r = await get(url);
    expect(r.status).toBe(200);
    expect(r.ended).toBe("end");
    expect(r.chunks.map((c) => c.text).join("")).toBe(events.join(""));
  });

  it("hands the request body to the handler", async () => {
    const echo = await serveFetch(async (request) => new Response(`got ${await request.text()}`));
    served.push(echo);
    const r = await get(echo.url, '{"message":"hi"}');
    expect(r.chunks.map((c) => c.text).join("")).toBe('got {"message":"hi"}');
  });

  it("stops the source when the client goes away mid-stream", async () => {
    let stopped = false;
    const s = await serveFetch(async (request) =>
      new Response(
        pacedBody(
          (function* () {
            try {
              for (;;) yield { bytes: enc.encode("data: tick\n\n"), delay: 10 };
            } finally {
              stopped = true;
            }
          })(),
          0,
          request.signal,
        ),
      ),
    );
    served.push(s);
    await new Promise<void>((resolve) => {
      const req = http.request(s.url, { method: "POST", agent: false }, (res) => res.once("data", () => (req.destroy(), resolve())));
      req.on("error", () => undefined);
      req.end("{}");
    });
    for (let i = 0; i < 100 && !stopped; i++) await new Promise((r) => setTimeout(r, 20));
    expect(stopped).toBe(true);
  });

  it("sends the head before resetting when the source fails at once", async () => {
    const url = await serve(function* () {
      throw new Error("drop the connection");
    });
    const r = await get(url);
    expect(r.status).toBe(200);
    expect(r.ended).toBe("error");
  });
});
