/**
 * The example client (examples/pi-web-client.mjs) as a real child process under test-client:
 * plain Node and `ws` against the pi-web mock. Run as it is, it passes every client check, also
 * through the contract's §8 robustness cases, the fork profile and odd framings; each
 * `--broken NAME` commits one mistake and fails exactly the check that owns it.
 */
import { execFile } from "node:child_process";
import { createServer, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { MockStartOptions } from "../../../src/core/run/protocol.js";
import { runClientTest } from "../../../src/core/run/runner.js";
import { PI_WEB_CLIENT_CHECKS } from "../../../src/suites/pi-web/client/index.js";
import { piWeb } from "../../../src/suites/pi-web/index.js";
import { quickMock } from "../../helpers/quick-pacing.js";

const EXAMPLE = fileURLToPath(new URL("../../../examples/pi-web-client.mjs", import.meta.url));

// The mock at the self-test pace (the verdicts do not depend on it: the client checks judge what
// the client sends, not how fast the mock answers)...
const run = (args: string[], mock: MockStartOptions = {}, profile?: string) =>
  runClientTest(piWeb, {
    command: process.execPath,
    args: [EXAMPLE, ...args],
    stdio: "ignore",
    timeout: 90_000,
    mock: { ...mock, settings: quickMock("pi-web", mock.settings).settings },
    ...(profile ? { profile } : {}),
  });
// ...but once as `agentwire test-client pi-web -- node examples/pi-web-client.mjs` starts it:
// default timing, so the verdicts are the ones a user of the CLI gets.
const runAsCli = (args: string[]) =>
  runClientTest(piWeb, { command: process.execPath, args: [EXAMPLE, ...args], stdio: "ignore", timeout: 90_000 });

/** `--broken` flag → the one check it must fail. */
const BROKEN: Record<string, string> = {
  "wrong-path": "pi-web/client/connect",
  "no-origin": "pi-web/client/connect",
  "binary-frame": "pi-web/framing/json-object-frames",
  "invalid-command": "pi-web/client/command-schema",
  "unknown-command": "pi-web/client/known-commands",
  "extra-field": "pi-web/client/unknown-fields",
  "no-id": "pi-web/client/id-present",
  "reuse-id": "pi-web/client/id-unique",
  "reply-to-notify": "pi-web/client/ui-response-id",
  "reply-unknown-id": "pi-web/client/ui-response-id",
  "confirm-with-value": "pi-web/client/ui-response-shape",
  "reply-twice": "pi-web/client/ui-response-once",
  "select-unlisted": "pi-web/client/ui-select-option",
  "no-streaming-behavior": "pi-web/client/streaming-behavior",
  "no-resync": "pi-web/client/reconnect-resync",
};

const notPassed = (r: Awaited<ReturnType<typeof run>>) => r.checks.filter((c) => c.outcome !== "pass").map((c) => `${c.id}: ${c.outcome} ${c.message}`);

describe.concurrent("examples/pi-web-client.mjs under test-client", () => {
  it("passes every client check and exits 0, at the CLI's default timing", async () => {
    const r = await runAsCli([]);
    expect(notPassed(r)).toEqual([]);
    expect(r.error).toBeUndefined();
    expect(r.exitCode).toBe(0);
  });

  it("with --robustness (the §8 cases a prompt or ?scenario= selects) still passes every client check", async () => {
    const r = await run(["--robustness"]);
    expect(notPassed(r)).toEqual([]);
    expect(r.error).toBeUndefined();
  });

  it("passes against the pi-fork-0.54 mock and against fragmented, pretty, escaped, large frames", async () => {
    const [fork, framing] = await Promise.all([
      run([], { settings: { profile: "pi-fork-0.54" } }, "pi-fork-0.54"),
      run([], { settings: { fragment: 7, pretty: true, escapeUnicode: true, largeFrames: true } }),
    ]);
    // At the quick pace a loaded machine may let the queue run end before the client's steer: the
    // steer is then no prompt during a run, and streaming-behavior rightly skips (the CLI-timing run above judges it).
    const timingSkip = (line: string) => line.startsWith("pi-web/client/streaming-behavior: skip ");
    expect(notPassed(fork).filter((l) => !timingSkip(l))).toEqual([]);
    expect(fork.error).toBeUndefined();
    expect(notPassed(framing).filter((l) => !timingSkip(l))).toEqual([]);
    expect(framing.error).toBeUndefined();
  });

  it("every client check has a --broken flag that fails it", () => {
    expect([...new Set(Object.values(BROKEN))].sort()).toEqual(PI_WEB_CLIENT_CHECKS.map((c) => c.id).sort());
  });

  it("with a token on the mock: the kit hands PI_WEB_TOKEN to the client; withheld, client/connect fails with 401", async () => {
    const withToken = (env: Record<string, string>) =>
      runClientTest(piWeb, { command: process.execPath, args: [EXAMPLE, "--no-shutdown"], stdio: "ignore", timeout: 60_000, env, mock: quickMock("pi-web", { token: "s3cr=t&" }) });
    // The kit gives the client the mock's token; an empty override withholds it.
    const [good, bad] = await Promise.all([withToken({}), withToken({ PI_WEB_TOKEN: "" })]);
    expect(good.checks.filter((c) => c.outcome === "fail")).toEqual([]);
    expect(good.checks.find((c) => c.id === "pi-web/client/connect")!.outcome).toBe("pass");
    expect(good.error).toBeUndefined();
    const connect = bad.checks.find((c) => c.id === "pi-web/client/connect")!;
    expect(connect.outcome).toBe("fail");
    expect(connect.message).toContain("401");
    expect(bad.error).toContain("exited with 1");
  });

  it("under pi-fork-0.54, an undocumented command is reported (INFO), not failed", async () => {
    const r = await run(["--broken", "unknown-command"], { settings: { profile: "pi-fork-0.54" } }, "pi-fork-0.54");
    const known = r.checks.find((c) => c.id === "pi-web/client/known-commands")!;
    expect([known.outcome, known.verdict]).toEqual(["fail", "info"]);
    expect(r.checks.filter((c) => c.verdict !== "pass" && c.verdict !== "info")).toEqual([]);
    expect(r.exitCode).toBe(0);
  });

  for (const [flag, check] of Object.entries(BROKEN)) {
    it(`--broken ${flag} fails exactly ${check}`, async () => {
      const r = await run(["--broken", flag]);
      expect(r.checks.filter((c) => c.outcome === "fail").map((c) => c.id)).toEqual([check]);
      expect(r.checks.filter((c) => c.outcome !== "fail" && c.outcome !== "pass")).toEqual([]);
      // The mistake is a verdict, not a crash: the client ran to the end.
      expect(r.error).toBeUndefined();
    });
  }
});

describe("examples/pi-web-client.mjs arguments", () => {
  const node = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number | null; out: string; err: string; ms: number }>((resolve) => {
      const t0 = Date.now();
      execFile(process.execPath, [EXAMPLE, ...args], { env: { ...process.env, AGENTWIRE_URL: "", PI_WEB_URL: "", ...env }, timeout: 30_000 }, (e, out, err) =>
        resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, out, err, ms: Date.now() - t0 }),
      );
    });

  it("--help lists the --broken flags and exits 0", async () => {
    const { code, out } = await node(["--help"]);
    expect(code).toBe(0);
    for (const flag of Object.keys(BROKEN)) expect(out).toContain(flag);
  });

  it("refuses an unknown flag, an unknown --broken and a missing URL with exit 2", async () => {
    expect((await node(["--nope"], { PI_WEB_URL: "ws://127.0.0.1:1/ws" })).code).toBe(2);
    expect((await node(["--broken", "nope"], { PI_WEB_URL: "ws://127.0.0.1:1/ws" })).code).toBe(2);
    const missing = await node([]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("PI_WEB_URL");
  });

  it("never hangs: a server that accepts and says nothing fails the step in --step-timeout", async () => {
    const sockets: Socket[] = [];
    const server = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as { port: number };
    try {
      const r = await node(["--step-timeout", "300"], { AGENTWIRE_URL: `http://127.0.0.1:${port}` });
      expect(r.code).toBe(1);
      expect(r.err).toContain("timed out after 300 ms");
      expect(r.ms).toBeLessThan(10_000);
    } finally {
      for (const s of sockets) s.destroy();
      server.close();
    }
  });
});
