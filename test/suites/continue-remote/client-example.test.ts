/**
 * The example client (examples/continue-remote-client.mjs) as a real child process under
 * test-client, in both profiles, against a quickly paced mock; then the built CLI as a user runs
 * it: the example exits 0, a bad client exits 1 and the report names the check it broke.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { MockStartOptions } from "../../../src/core/run/protocol.js";
import { runClientTest } from "../../../src/core/run/runner.js";
import { continueRemote } from "../../../src/suites/continue-remote/index.js";
import { runCli, startCli, waitExit } from "../../helpers/cli.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("../../../examples/continue-remote-client.mjs", import.meta.url));
/** A turn of about half a second. */
const QUICK = { thinkMs: 40, chunkMs: 20, chunkChars: 24, gapMs: 30, toolMs: 100 };
const FAST_POLL = ["--poll-interval", "150"];

const run = (args: string[], mock: MockStartOptions = {}, profile?: string) =>
  runClientTest(continueRemote, {
    command: process.execPath,
    args: [EXAMPLE, ...FAST_POLL, ...args],
    stdio: "ignore",
    timeout: 30_000,
    ...(profile ? { profile } : {}),
    mock: { ...mock, settings: { ...QUICK, ...mock.settings } },
  });

const notPassed = (r: Awaited<ReturnType<typeof run>>) => r.checks.filter((c) => c.verdict !== "pass").map((c) => [c.id, c.verdict, c.message]);

// One run at a time: the checks judge a client's timing, and a starved client polls late.
describe("examples/continue-remote-client.mjs under test-client", () => {
  it("answering a permission, passes all nine client checks", async () => {
    const r = await run(["Write notes.txt"], { scenario: "permission" });
    expect(r.checks).toHaveLength(9);
    expect(notPassed(r)).toEqual([]);
    expect(r.error).toBeUndefined();
    expect(r.exitCode).toBe(0);
  });

  it("against the current cn serve's generation (cn-session), passes all nine too", async () => {
    const r = await run(["Write notes.txt"], { scenario: "permission", settings: { profile: "cn-session" } }, "cn-session");
    expect(notPassed(r)).toEqual([]);
    expect(r.exitCode).toBe(0);
  });

  it("with no permission asked, the permission checks skip and the run still passes", async () => {
    const r = await run([]);
    expect(notPassed(r).map(([id, verdict]) => [id, verdict])).toEqual([
      ["continue-remote/client/permission-request-id", "skip"],
      ["continue-remote/client/permission-only-when-pending", "skip"],
    ]);
    expect(r.exitCode).toBe(0);
  });

  it.each(["chunked", "gzip", "extra-fields"])("copes with the %s variant of the answers", async (variant) => {
    const r = await run(["Write notes.txt"], { scenario: "permission", settings: { variant } });
    expect(notPassed(r)).toEqual([]);
    expect(r.error).toBeUndefined();
  });
});

describe("examples/continue-remote-client.mjs arguments", () => {
  const node = (args: string[], env: Record<string, string> = {}) => {
    try {
      return { code: 0, out: execFileSync(process.execPath, [EXAMPLE, ...args], { cwd: ROOT, env: { ...process.env, AGENTWIRE_URL: "", CONTINUE_REMOTE_URL: "", ...env }, stdio: "pipe" }).toString() };
    } catch (e) {
      const err = e as { status: number; stderr: Buffer };
      return { code: err.status, out: err.stderr.toString() };
    }
  };

  it("--help exits 0; a missing URL, an empty message or a bad option exit 2", () => {
    expect(node(["--help"])).toMatchObject({ code: 0, out: expect.stringContaining("--poll-interval") });
    expect(node([]).code).toBe(2);
    const url = { CONTINUE_REMOTE_URL: "http://127.0.0.1:1" };
    expect(node([""], url)).toMatchObject({ code: 2, out: expect.stringContaining("some text") });
    expect(node(["--poll-interval", "0"], url).code).toBe(2);
    expect(node(["--nope"], url).code).toBe(2);
  });

  it("a server that is not there ends the client with exit 1 once the turn timeout passes", () => {
    const r = node(["--poll-interval", "50", "--turn-timeout", "300"], { CONTINUE_REMOTE_URL: "http://127.0.0.1:1" });
    expect(r.code).toBe(1);
  });
});

describe("agentwire test-client continue-remote (built CLI)", () => {
  const dir = mkdtempSync(join(tmpdir(), "agentwire-cr-client-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const quick = Object.entries(QUICK).flatMap(([k, v]) => ["--set", `${k}=${v}`]);

  it("the example client exits 0", async () => {
    const r = await runCli(["test-client", "continue-remote", ...quick, "--quiet", "--", process.execPath, "examples/continue-remote-client.mjs", ...FAST_POLL], { timeoutMs: 60_000 });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toContain("continue-remote/client/polls-state");
  });

  it("a client that shuts the server down with GET /exit exits 1, naming exit-method", async () => {
    const bad = join(dir, "get-exit.mjs");
    writeFileSync(
      bad,
      `const url = process.env.CONTINUE_REMOTE_URL;
await fetch(url + "/message", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "hi" }) });
for (;;) { const s = await (await fetch(url + "/state")).json(); if (!s.isProcessing) break; await new Promise((r) => setTimeout(r, 150)); }
await fetch(url + "/exit");
`,
    );
    const r = await runCli(["test-client", "continue-remote", ...quick, "--quiet", "--reporter", "json", "--", process.execPath, bad], { timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(1);
    const { checks } = JSON.parse(r.stdout) as { checks: { id: string; verdict: string }[] };
    expect(checks.filter((c) => c.verdict === "fail").map((c) => c.id)).toEqual(["continue-remote/client/exit-method"]);
  });

  it("--profile cn-session: the mock plays the current generation and the example still passes", async () => {
    const saved = join(dir, "cn");
    const r = await runCli(
      ["test-client", "continue-remote", "--profile", "cn-session", ...quick, "--quiet", "--save-transcript", saved, "--", process.execPath, "examples/continue-remote-client.mjs", ...FAST_POLL, "#scenario:permission"],
      { timeoutMs: 60_000 },
    );
    expect(r.code, r.stderr + r.stdout).toBe(0);
    // The states served were Sessions: the mock spoke the generation the client was judged against.
    const transcript = readdirSync(saved).map((f) => readFileSync(join(saved, f), "utf8")).join("");
    expect(transcript).toContain('\\"sessionId\\"');
  });
  it("mock --check-client judges whoever connected, and outlives the client's /exit to see what follows", async () => {
    const report = join(dir, "check-client.json");
    const judged = await startCli(["mock", "continue-remote", "--port", "0", ...quick, "--check-client", "--report", report]);
    execFileSync(process.execPath, [EXAMPLE, ...FAST_POLL], { cwd: ROOT, env: { ...process.env, AGENTWIRE_URL: judged.firstLine }, stdio: "pipe" });
    // Past the exit delay a real server is gone; the judging mock answers 503 and records the call.
    await new Promise((r) => setTimeout(r, 300));
    expect((await fetch(`${judged.firstLine}/state`)).status).toBe(503);
    judged.child.kill("SIGINT");
    expect(await waitExit(judged.child, 20_000)).toBe(0);
    const { checks } = JSON.parse(readFileSync(report, "utf8")) as { checks: { id: string; verdict: string; message: string }[] };
    const verdicts = Object.fromEntries(checks.map((c) => [c.id.replace("continue-remote/client/", ""), c.verdict]));
    expect(verdicts).toMatchObject({ "polls-state": "pass", "message-json": "pass", "exit-method": "pass", "known-routes": "pass", "stops-after-exit": "pass" });
  });
});
