/**
 * A client the kit stops (its time limit, Ctrl-C or SIGTERM, the proxy stopping) is judged on what it did until then:
 * a poll it still had time to make is not judged, one it had let slip by then fails. Driven end to end: a client that
 * sends one continue-remote message and then idles, under test-client (and its saved transcript replayed) and through
 * the proxy.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replayTranscript, runClientTest } from "../../src/core/run/runner.js";
import { continueRemote } from "../../src/suites/continue-remote/index.js";
import type { CheckResult } from "../../src/core/verdicts/result.js";
import { mockBehindProxy } from "../proxy/harness.js";

const POLLS = "continue-remote/client/polls-state";

/** Sends one message, writes `ready` once it was accepted, then idles until stopped (it never polls). */
const IDLE_CLIENT = `
const base = process.env.AGENTWIRE_URL.replace(/\\/+$/, "");
const r = await fetch(base + "/message", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "hi" }) });
await r.text();
if (process.argv[1]) (await import("node:fs")).writeFileSync(process.argv[1], "ready");
setInterval(() => undefined, 1000);
`;

const idle = (ready = "") => ({ command: process.execPath, args: ["--input-type=module", "-e", IDLE_CLIENT, ready], stdio: "ignore" as const });
const polls = (checks: CheckResult[]) => checks.find((c) => c.id === POLLS)!;

async function until(done: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error("the client never said it was ready");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a client run the kit stopped", () => {
  it("test-client's time limit within 2 s of the accepted message: the poll still due is not judged, replayed alike", async () => {
    const saved = mkdtempSync(join(tmpdir(), "agentwire-stop-"));
    const r = await runClientTest(continueRemote, { ...idle(), timeout: 1500, saveTranscript: saved });
    expect(r.error).toBe("client command did not exit within 1500 ms; stopped");
    const c = polls(r.checks);
    expect([c.outcome, c.message]).toEqual(["incomplete", expect.stringMatching(/a GET \/state was still due after the message accepted .* when the kit stopped the run \(the 1500 ms time limit\)/)]);
    // The stop is in the transcript: a replay judges it as the run did.
    const replayed = await replayTranscript(continueRemote, readFileSync(r.transcript!, "utf8"), { file: r.transcript! });
    expect(polls(replayed.checks).message).toBe(c.message);
  });

  it("a time limit that came after the poll was due: the client had let it slip, and fails", async () => {
    const r = await runClientTest(continueRemote, { ...idle(), timeout: 3500 });
    const c = polls(r.checks);
    expect([c.outcome, c.message]).toEqual(["fail", expect.stringContaining("(until the kit stopped the run (the 3500 ms time limit)")]);
  });

  it("Ctrl-C or SIGTERM right after the message: named as the stop, nothing failed", async () => {
    const ready = join(mkdtempSync(join(tmpdir(), "agentwire-stop-")), "ready");
    const abort = new AbortController();
    const running = runClientTest(continueRemote, { ...idle(ready), timeout: 30_000, signal: abort.signal });
    await until(() => existsSync(ready));
    abort.abort("SIGTERM");
    const r = await running;
    expect(r.error).toBe("the client command was stopped with the run");
    expect(r.checks.filter((c) => c.outcome === "fail")).toEqual([]);
    expect(polls(r.checks).message).toContain("when the kit stopped the run (SIGTERM)");
  });

  it("the proxy stopped right after a relayed message: the client side fails nothing for the poll it still owed", async () => {
    const run = await mockBehindProxy(continueRemote);
    const r = await fetch(`${run.proxy.url}/message`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "hi" }) });
    await r.text();
    const result = await run.proxy.close("Ctrl-C");
    await run.mock.close();
    const c = polls(result.client!.checks);
    expect([c.outcome, c.message]).toEqual(["incomplete", expect.stringContaining("when the kit stopped the run (Ctrl-C)")]);
  });
});
