/**
 * The pi-web mock checks ?token= in constant time (crypto.timingSafeEqual over equal-length
 * digests), so neither the content nor the length of a guess changes how long a refusal takes.
 */
import { afterEach, describe, expect, it, vi } from "vitest";

const compared = vi.hoisted(() => ({ calls: [] as [number, number][] }));
vi.mock("node:crypto", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:crypto")>();
  return {
    ...real,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      compared.calls.push([a.byteLength, b.byteLength]);
      return real.timingSafeEqual(a, b);
    },
  };
});

// Loaded afresh, so the mock takes the replaced node:crypto even where an earlier test file in the
// same worker loaded it already (files share their modules: vitest.config.ts).
vi.resetModules();
const { startPiWebMock } = await import("../../src/mocks/pi-web/index.js");
const { default: WebSocket } = await import("ws");

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  compared.calls.length = 0;
});

function upgradeStatus(url: string, token: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${url.replace(/^http/, "ws")}/ws?token=${encodeURIComponent(token)}`, { headers: { origin: url } });
    ws.on("open", () => {
      ws.close();
      resolve(101);
    });
    ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.on("error", () => undefined);
  });
}

describe("pi-web mock token check", () => {
  it("compares every presented token in constant time, whatever its length", async () => {
    const mock = await startPiWebMock({ port: 0, settings: { token: "correct-horse" } });
    close = mock.close;
    expect(await upgradeStatus(mock.url, "correct-horse")).toBe(101);
    expect(await upgradeStatus(mock.url, "wrong")).toBe(401);
    expect(await upgradeStatus(mock.url, "correct-horsf")).toBe(401);
    expect(await upgradeStatus(mock.url, "x".repeat(500))).toBe(401);
    expect(compared.calls.length).toBe(4);
    // Equal lengths every time: the comparison never throws or short-cuts on a length mismatch.
    for (const [a, b] of compared.calls) expect(a).toBe(b);
  });
});
