/**
 * pi-web through the proxy: the example client (plain `ws`) against the reference mock, clean and
 * with faults; frames one for one; a target that is down closes the client's socket with 1011.
 */
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { runSuite } from "../../src/core/run/runner.js";
import { startProxy } from "../../src/proxy/index.js";
import { piWeb } from "../../src/suites/pi-web/index.js";
import { quickMock } from "../helpers/quick-pacing.js";
import { example, failed, judgedIds, mockBehindProxy, runNode } from "./harness.js";

const QUICK = { params: { ...(piWeb.selfTest?.params ?? {}) } };
/** The client claims the mock's own origin: the proxy forwards Origin unchanged, and the mock allows only its own. */
const client = (url: string, mock: string, args: string[] = []) =>
  runNode(example("pi-web-client.mjs"), ["--no-shutdown", "--url", url, "--origin", mock, ...args], { AGENTWIRE_URL: "", PI_WEB_URL: "" });

describe.concurrent("pi-web through agentwire proxy", () => {
  it("the example client against the reference mock: no failure on either side, both judged", async () => {
    const run = await mockBehindProxy(piWeb, quickMock("pi-web"), QUICK);
    expect(run.proxy.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws$/);
    const { code, stderr } = await client(run.proxy.url, run.mock.url);
    const result = await run.close();
    expect(code, stderr).toBe(0);
    expect(failed(result.server!.checks)).toEqual([]);
    expect(failed(result.client!.checks)).toEqual([]);
    for (const id of ["pi-web/conn/ws-upgrade", "pi-web/framing/server-schema", "pi-web/rpc/response-per-command", "pi-web/event/agent-bracketing"]) {
      expect(judgedIds(result.server!.checks), id).toContain(id);
    }
    for (const id of ["pi-web/client/connect", "pi-web/client/command-schema", "pi-web/client/id-unique"]) expect(judgedIds(result.client!.checks), id).toContain(id);
  });

  it("the example client's server-shutdown step: the commands the shutdown cut off fail no rule", async () => {
    const run = await mockBehindProxy(piWeb, quickMock("pi-web"), QUICK);
    const { code, stderr } = await runNode(example("pi-web-client.mjs"), ["--url", run.proxy.url, "--origin", run.mock.url], { AGENTWIRE_URL: "", PI_WEB_URL: "" });
    const result = await run.close();
    expect(code, stderr).toBe(0);
    expect(failed(result.server!.checks)).toEqual([]);
    expect(judgedIds(result.server!.checks)).toContain("pi-web/rpc/response-per-command");
  });

  it.each(["snake-case-fields", "duplicate-response", "message-end-missing"])("fault %s: exactly its checks fail", async (fault) => {
    const info = piWeb.faults.find((f) => f.name === fault)!;
    const run = await mockBehindProxy(piWeb, { ...quickMock("pi-web"), faults: [fault] }, QUICK);
    await client(run.proxy.url, run.mock.url, ["--step-timeout", "3000"]);
    const result = await run.close();
    expect(failed(result.server!.checks)).toEqual([...info.violates].sort());
    expect(failed(result.client!.checks)).toEqual([]);
  });

  // The client's mistakes, judged on the target's real dialogs and runs (no mock state needed).
  it.each([
    ["reply-twice", "pi-web/client/ui-response-once"],
    ["select-unlisted", "pi-web/client/ui-select-option"],
    ["reply-unknown-id", "pi-web/client/ui-response-id"],
    ["no-streaming-behavior", "pi-web/client/streaming-behavior"],
    ["no-id", "pi-web/client/id-present"],
  ])("a client run with --broken %s fails %s, and nothing on the server side", async (broken, check) => {
    const run = await mockBehindProxy(piWeb, quickMock("pi-web"), QUICK);
    await client(run.proxy.url, run.mock.url, ["--broken", broken, "--step-timeout", "3000"]);
    const result = await run.close();
    expect(failed(result.client!.checks)).toEqual([check]);
    expect(failed(result.server!.checks)).toEqual([]);
  });

  it("`agentwire test --url <proxy>` gives the same server verdicts as `--url <mock>`", async () => {
    const run = await mockBehindProxy(piWeb, { suite: true, bus: undefined });
    // The Origin goes through unchanged, and the mock allows its own: the probes claim it both times.
    const opts = { params: { ...(piWeb.selfTest?.params ?? {}), origin: run.mock.url }, timeout: 10_000, ...(run.mock.token ? { token: run.mock.token } : {}) };
    const direct = await runSuite(piWeb, { url: run.mock.url, ...opts });
    const proxied = await runSuite(piWeb, { url: run.proxy.base, ...opts });
    await run.close();
    const verdicts = (r: typeof direct) => r.checks.map((c) => [c.id, c.verdict]);
    expect(verdicts(proxied)).toEqual(verdicts(direct));
  });

  it("relays frames one for one, text as text and binary as binary, and closes with the target's code", async () => {
    const { WebSocketServer } = await import("ws");
    const echo = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    echo.on("connection", (s) => s.on("message", (d, binary) => (String(d) === "bye" ? s.close(4001, "done") : s.send(d, { binary }))));
    await new Promise((r) => echo.once("listening", r));
    const port = (echo.address() as { port: number }).port;
    const proxy = await startProxy({ protocol: "pi-web", target: `ws://127.0.0.1:${port}/ws` });
    const ws = new WebSocket(proxy.url);
    const got: { binary: boolean; data: Buffer }[] = [];
    ws.on("message", (d, binary) => got.push({ binary, data: d as Buffer }));
    await new Promise((r) => ws.once("open", r));
    ws.send('{"type":"get_state","id":"1"}');
    ws.send(Buffer.from([0xff, 0x00, 0x7b]), { binary: true });
    ws.send("bye");
    const [code, reason] = await new Promise<[number, string]>((r) => ws.once("close", (c, why) => r([c, String(why)])));
    await proxy.close();
    echo.close();
    expect(got).toEqual([
      { binary: false, data: Buffer.from('{"type":"get_state","id":"1"}') },
      { binary: true, data: Buffer.from([0xff, 0x00, 0x7b]) },
    ]);
    expect([code, reason]).toEqual([4001, "done"]);
  });

  it("a target that is down: the client's socket closes with 1011 and the report says so", async () => {
    const proxy = await startProxy({ protocol: "pi-web", target: "ws://127.0.0.1:1/ws" });
    const ws = new WebSocket(proxy.url);
    const code = await new Promise<number>((r) => ws.once("close", (c) => r(c)));
    expect(code).toBe(1011);
    const result = await proxy.close();
    expect(result.server!.error).toContain("target unreachable");
  });
});

describe("pi-web through agentwire proxy, the target given as ws://", () => {
  it("relays the plain HTTP routes to the same server over http, and the WebSocket as before", async () => {
    const mock = await piWeb.startMock({ host: "127.0.0.1", port: 0, ...quickMock("pi-web") });
    const base = new URL(mock.url);
    const proxy = await startProxy({ protocol: "pi-web", target: `ws://${base.host}/ws`, ...QUICK });
    try {
      const health = await fetch(new URL("/health", proxy.base));
      expect(health.status).toBe(200);
      const ws = new WebSocket(proxy.url, { origin: mock.url });
      await new Promise((resolve, reject) => (ws.once("open", resolve), ws.once("error", reject)));
      ws.close();
    } finally {
      await proxy.close();
      await mock.close();
    }
  });
});
