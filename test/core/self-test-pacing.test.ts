/**
 * The suite paces itself quickly only against its own mock: without --url the runner lays the
 * protocol's self-test parameters and waits over the defaults (a profile, the caller and
 * --timeout still win), and starts the mock as the suite's target; with --url nothing changes.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { MockStartOptions, ProbeContext, ProtocolDef } from "../../src/core/run/protocol.js";
import { runSuite } from "../../src/core/run/runner.js";
import { IMPLEMENTED_IDS, loadMock, loadProtocol } from "../../src/protocol-loader.js";
import { PROTOCOLS } from "../../src/protocols.js";

function fakeProtocol(seen: { ctx?: ProbeContext; mock?: MockStartOptions }): ProtocolDef {
  return {
    id: "mcp-chat",
    title: "fake",
    seed: "",
    checks: PROTOCOLS[0]!.checks,
    scenarios: [],
    faults: [],
    framings: [],
    profiles: [{ name: "slow", description: "", params: { quietMs: 500 } }],
    defaultPort: 0,
    defaultParams: { quietMs: 300, gapMs: 100 },
    timeouts: { request: 10_000, headers: 10_000, firstEvent: 10_000, idle: 60_000, stream: 300_000, close: 2_000 },
    selfTest: { params: { quietMs: 50, gapMs: 20 }, timeouts: { idle: 2_000, close: 250 } },
    async runProbes(ctx) {
      seen.ctx = ctx;
    },
    async startMock(opts) {
      seen.mock = opts;
      const server = createServer((_req, res) => res.end("{}"));
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
    },
  };
}

describe("self-test pacing", () => {
  it("applies to the built-in mock, under the profile, the caller and --timeout", async () => {
    const seen: { ctx?: ProbeContext; mock?: MockStartOptions } = {};
    await runSuite(fakeProtocol(seen), { params: { gapMs: 30 } });
    expect(seen.mock?.suite).toBe(true);
    expect(seen.ctx?.params).toMatchObject({ quietMs: 50, gapMs: 30 });
    expect(seen.ctx?.timeouts).toEqual({ request: 10_000, headers: 10_000, firstEvent: 10_000, idle: 2_000, stream: 300_000, close: 250 });

    await runSuite(fakeProtocol(seen), { profile: "slow", timeout: 1_000 });
    expect(seen.ctx?.params).toMatchObject({ quietMs: 500, gapMs: 20 });
    expect(seen.ctx?.timeouts).toEqual({ request: 1_000, headers: 1_000, firstEvent: 1_000, idle: 1_000, stream: 1_000, close: 250 });
  });

  it("leaves a real target (--url) the contract's defaults", async () => {
    const seen: { ctx?: ProbeContext; mock?: MockStartOptions } = {};
    const target = await fakeProtocol({}).startMock({});
    try {
      await runSuite(fakeProtocol(seen), { url: target.url });
    } finally {
      await target.close();
    }
    expect(seen.mock).toBeUndefined();
    expect(seen.ctx?.params).toMatchObject({ quietMs: 300, gapMs: 100 });
    expect(seen.ctx?.timeouts).toEqual({ request: 10_000, headers: 10_000, firstEvent: 10_000, idle: 60_000, stream: 300_000, close: 2_000 });
  });

  it("every protocol has quick waits for its self-test, none longer than its defaults", () => {
    for (const p of PROTOCOLS) {
      expect(p.selfTest, p.id).toBeDefined();
      for (const [k, v] of Object.entries(p.selfTest?.timeouts ?? {})) expect(v, `${p.id} ${k}`).toBeLessThanOrEqual(p.timeouts[k as keyof typeof p.timeouts]);
      for (const k of Object.keys(p.selfTest?.params ?? {})) expect(p.defaultParams, `${p.id} ${k}`).toHaveProperty(k);
    }
  });
});

describe("protocol loader", () => {
  it("loads each implemented protocol and its mock by id, as the CLI does", async () => {
    expect(IMPLEMENTED_IDS).toEqual(PROTOCOLS.map((p) => p.id));
    for (const p of PROTOCOLS) {
      expect(await loadProtocol(p.id)).toBe(p);
      const mock = await loadMock(p.id);
      expect(mock.defaultPort, p.id).toBe(p.defaultPort);
      expect(mock.startMock, p.id).toBe(p.startMock);
    }
  });
});
