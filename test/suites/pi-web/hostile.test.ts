/**
 * Hostile WebSocket targets end in verdicts within a bounded time: no crash, no hang, no internal
 * error, no vacuous pass of the rules they break. Each runs with --timeout 1500 and a 256 KiB cap.
 */
import { describe, expect, it } from "vitest";
import type { RunResult } from "../../../src/core/verdicts/result.js";
import { runSuite } from "../../../src/core/run/runner.js";
import { piWeb } from "../../../src/suites/pi-web/index.js";
import { closedPortUrl, runAgainst } from "../../helpers/hostile-servers.js";
import { hostilePiWeb, wsBehaviours, type WsBehaviour } from "../../helpers/pi-web-hostile.js";
import { byId, explain, serverSide } from "../../helpers/run-results.js";

const TIMEOUT = 1500;
/** Health, five upgrades, then at most three unanswered commands and two reconnects: a few timeouts, plus slack. */
const BOUND = 12 * TIMEOUT + 3000;

/** A run against its own hostile server, closed after the run (the tests run side by side: they mostly wait out timeouts). */
const against = async (behaviour: WsBehaviour | "no-upgrade") => runAgainst(piWeb, await hostilePiWeb(behaviour), { timeout: TIMEOUT, maxBytes: 256 * 1024 });

const verdict = (r: RunResult, id: string) => byId(serverSide(r), `pi-web/${id}`).verdict;

/** Rules about the conversation that a broken conversation must never pass. */
const CONVERSATION = [
  "rpc/response-per-command",
  "rpc/response-echo",
  "cmd/prompt-accepted",
  "cmd/get-messages",
  "event/agent-bracketing",
  "stream/block-grammar",
  "tool/round-trip",
  "fanout/broadcast",
];

function sane(r: RunResult, ms: number, conversation = CONVERSATION): void {
  const checks = serverSide(r);
  expect(ms).toBeLessThan(BOUND);
  expect(checks).toHaveLength(52);
  expect(checks.some((c) => c.message.startsWith("internal error")), explain(checks)).toBe(false);
  expect(r.exitCode).not.toBe(0);
  for (const id of conversation) expect(verdict(r, id), `${id}\n${explain(checks)}`).not.toBe("pass");
}

describe.concurrent("hostile WebSocket targets", () => {
  it("a closed port: every check incomplete, exit code 3", async () => {
    const url = await closedPortUrl();
    const r = await runSuite(piWeb, { url, timeout: TIMEOUT });
    expect(serverSide(r).every((c) => c.verdict === "incomplete"), explain(serverSide(r))).toBe(true);
    expect(r.exitCode).toBe(3);
    expect(r.error).toMatch(/unreachable/);
  });

  it("no upgrade (plain HTTP answers): the upgrade fails, the rest is incomplete", { timeout: BOUND + 5000 }, async () => {
    const { r, ms } = await against("no-upgrade");
    sane(r, ms);
    expect(verdict(r, "conn/ws-upgrade")).toBe("fail");
    expect(verdict(r, "conn/health")).toBe("pass");
    expect(serverSide(r).filter((c) => c.verdict === "fail").map((c) => c.id)).toEqual(["pi-web/conn/ws-upgrade"]);
  });

  it("upgrade, then silence: commands time out and the probes stop early", { timeout: BOUND + 5000 }, async () => {
    const { r, ms } = await against(wsBehaviours.silence);
    sane(r, ms);
    expect(verdict(r, "conn/ws-upgrade")).toBe("pass");
    expect(verdict(r, "rpc/response-per-command")).toBe("fail");
    expect(byId(serverSide(r), "pi-web/rpc/response-per-command").message).toMatch(/no response within 1500 ms/);
    expect(verdict(r, "framing/json-object-frames")).toBe("incomplete");
  });

  it("binary garbage: framing fails, nothing crashes", { timeout: BOUND + 5000 }, async () => {
    const { r, ms } = await against(wsBehaviours.binaryGarbage);
    sane(r, ms);
    expect(verdict(r, "framing/json-object-frames")).toBe("fail");
    expect(byId(serverSide(r), "pi-web/framing/json-object-frames").message).toMatch(/binary frame/);
  });

  it("invalid UTF-8 in a text frame: recorded as a framing failure", { timeout: BOUND + 5000 }, async () => {
    const { r, ms } = await against(wsBehaviours.invalidUtf8);
    sane(r, ms);
    const f = byId(serverSide(r), "pi-web/framing/json-object-frames");
    expect(f.verdict).toBe("fail");
    expect(f.message).toMatch(/invalid UTF-8/);
  });

  it("a close with 1011 in the middle of a run: the cut runs are untestable, the kit reconnects a bounded number of times", { timeout: BOUND + 5000 }, async () => {
    const { r, ms } = await against(wsBehaviours.close1011MidRun);
    // It answers its commands: only the rules about the cut run must not pass.
    sane(r, ms, ["cmd/get-messages", "event/agent-bracketing", "stream/block-grammar", "tool/round-trip", "event/extras-consistent"]);
    expect(verdict(r, "event/agent-bracketing")).toBe("incomplete");
    expect(verdict(r, "stream/block-grammar")).toBe("incomplete");
    expect(r.error ?? byId(serverSide(r), "pi-web/cmd/get-messages").message).toMatch(/closed the main connection 3 times/);
  });

  it("an event flood: cut at the byte limit, memory bounded, verdicts in time", { timeout: BOUND + 5000 }, async () => {
    const { r, ms } = await against(wsBehaviours.eventFlood);
    sane(r, ms);
    expect(verdict(r, "event/message-nesting")).toBe("fail");
  });

  it("a run that never ends (updates repeated, no agent_end): one stream limit, then the later runs are not attempted", { timeout: BOUND + 5000 }, async () => {
    const progress: string[] = [];
    const target = await hostilePiWeb(wsBehaviours.neverEnds);
    const { r, ms } = await runAgainst(piWeb, target, { timeout: TIMEOUT, maxBytes: 256 * 1024, progress: (m) => progress.push(m) });
    // One run's stream limit and the settle wait, not two limits per run (about 30).
    expect(ms).toBeLessThan(6 * TIMEOUT + 3000);
    sane(r, ms, ["cmd/get-messages", "event/agent-bracketing", "stream/block-grammar", "tool/round-trip", "queue/steer-injected", "queue/follow-up-at-end", "ext/dialog-resolves"]);
    expect(progress.some((m) => /pi-web: prompt:text: no agent_end within the 1500 ms stream limit: the remaining runs are not attempted/.test(m)), progress.join("\n")).toBe(true);
    const skipped = serverSide(r).filter((c) => c.verdict === "incomplete" && /runs were skipped: prompt:text: no agent_end/.test(c.message));
    expect(skipped.map((c) => c.id)).toContain("pi-web/tool/round-trip");
  });

  it("a server that never answers a command: every command fails its response rule", { timeout: BOUND + 5000 }, async () => {
    const { r, ms } = await against(wsBehaviours.neverAnswers);
    // Its runs are well bracketed; everything about answers must not pass.
    sane(r, ms, ["rpc/response-per-command", "rpc/response-echo", "rpc/result-shape", "cmd/prompt-accepted", "cmd/abort", "timing/query-latency"]);
    expect(verdict(r, "rpc/response-per-command")).toBe("fail");
    expect(verdict(r, "rpc/bad-input")).not.toBe("pass");
  });
});
