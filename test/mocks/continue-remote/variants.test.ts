import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContinueRemoteEngine } from "../../../src/mocks/continue-remote/engine.js";
import { startContinueRemoteMock, type RunningContinueRemoteMock } from "../../../src/mocks/continue-remote/server.js";
import { splitBytes, VARIANTS, type ContinueRemoteVariant } from "../../../src/mocks/continue-remote/variants.js";
import { expectConsistent, expectValid, type Json } from "./helpers.js";

const mocks = new Map<ContinueRemoteVariant, RunningContinueRemoteMock>();
beforeAll(async () => {
  for (const { name } of VARIANTS) mocks.set(name, await startContinueRemoteMock({ port: 0, clock: "poll", variant: name }));
});
afterAll(async () => {
  await Promise.all([...mocks.values()].map((m) => m.close()));
});

async function turnOver(url: string): Promise<Json[]> {
  const r = await fetch(`${url}/message`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message: "#scenario:tool-error go" }),
  });
  expectValid("message-response", await r.json(), "seed");
  const seen: Json[] = [];
  for (let i = 0; i < 200; i++) {
    const s = (await (await fetch(`${url}/state`)).json()) as Json;
    expectValid("state-response", s, "seed");
    if (seen.length) expectConsistent(seen.at(-1) as Json, s, "seed");
    seen.push(s);
    if (!s.isProcessing) return seen;
  }
  throw new Error("still processing");
}

describe("continue-remote mock HTTP variants (§6)", () => {
  it.each(VARIANTS.map((v) => v.name).filter((n) => n !== "drip"))("%s: a whole turn reads the same over HTTP", async (name) => {
    const seen = await turnOver((mocks.get(name) as RunningContinueRemoteMock).url);
    const last = seen.at(-1) as Json;
    expect(last.chatHistory.map((e: Json) => e.content)).toEqual([
      "#scenario:tool-error go",
      "I'll read missing.txt.",
      "○ Read(missing.txt)",
      "✗ Tool error: File not found",
      "The file does not exist.",
    ]);
  });

  it("chunked cuts inside ○ and ✗; drip sends one byte at a time", async () => {
    const pieces = splitBytes(new TextEncoder().encode('"○ ✗"'));
    expect(pieces.some((p) => p.at(-1) === 0xe2)).toBe(true);
    expect(new TextDecoder().decode(Uint8Array.from(pieces.flatMap((p) => [...p])))).toBe('"○ ✗"');

    const drip = createContinueRemoteEngine({ variant: "drip" });
    const res = await drip.handle(new Request("http://127.0.0.1:8000/nope"));
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const got: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      got.push(value);
    }
    expect(got.every((p) => p.length === 1)).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(Uint8Array.from(got.flatMap((p) => [...p]))))).toEqual({ error: "Cannot GET /nope" });
  });

  it("headers and layout: pretty, shuffle-keys, extra-fields, no-charset, connection-close, gzip", async () => {
    const get = (v: ContinueRemoteVariant) => fetch(`${(mocks.get(v) as RunningContinueRemoteMock).url}/diff`);
    expect(await (await get("pretty")).text()).toMatch(/^\{\n {2}"diff"/);
    const shuffled = await (await fetch(`${(mocks.get("shuffle-keys") as RunningContinueRemoteMock).url}/state`)).text();
    expect(Object.keys(JSON.parse(shuffled))[0]).toBe("pendingPermission");
    expect(await (await get("extra-fields")).json()).toMatchObject({ agentwireExtra: { note: "ignore me" } });
    expect((await get("no-charset")).headers.get("content-type")).toBe("application/json");
    expect((await get("connection-close")).headers.get("connection")).toBe("close");
    const gz = await get("gzip");
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect((await gz.json()).diff).toMatch(/^diff --git/);
  });

  it("etag: a weak tag, and 304 when it matches", async () => {
    const url = `${(mocks.get("etag") as RunningContinueRemoteMock).url}/diff`;
    const first = await fetch(url);
    const tag = first.headers.get("etag") as string;
    expect(tag).toMatch(/^W\/"/);
    expect((await fetch(url, { headers: { "if-none-match": tag } })).status).toBe(304);
    expect((await fetch(url, { headers: { "if-none-match": 'W/"other"' } })).status).toBe(200);
  });

  it("an unknown variant is named", () => {
    expect(() => createContinueRemoteEngine({ variant: "zigzag" as never })).toThrow(/unknown variant "zigzag" \(known: chunked/);
  });
});
