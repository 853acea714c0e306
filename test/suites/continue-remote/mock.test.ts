/**
 * The reference mock conforms to the server suite in both generations (one shared run each, under
 * --strict), and the branches its default takes not are judged when it takes them: a legacy
 * server that interrupts for a message (`interruptOnMessage`), and `--no-exit`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CheckResult, RunResult } from "../../../src/core/verdicts/result.js";
import { runSuite } from "../../../src/core/run/runner.js";
import { continueRemote } from "../../../src/suites/continue-remote/index.js";
import { byId, explain, serverSide } from "../../helpers/run-results.js";

const ok = (c: CheckResult) => c.verdict === "pass" || (c.level === "INFO" && c.verdict === "info");
/** Skips the reference mock earns: the other generation's rules, and the legacy willInterrupt it does not play by default. */
const allowedSkip = (c: CheckResult, profile: "seed" | "cn-session") =>
  c.verdict === "skip" &&
  (/^not applicable: a (seed|cn-session) rule/.test(c.message) ||
    (profile === "seed" && c.id === "continue-remote/queue/will-interrupt-honoured" && /willInterrupt/.test(c.message)));

const runs: Record<string, RunResult> = {};

beforeAll(async () => {
  const [seed, cn, legacy] = await Promise.all([
    runSuite(continueRemote, { profile: "seed", strict: true }),
    runSuite(continueRemote, { profile: "cn-session", strict: true }),
    runSuite(continueRemote, { profile: "seed", strict: true, params: { noExit: true }, mock: { settings: { interruptOnMessage: true } } }),
  ]);
  Object.assign(runs, { seed, cn, legacy });
}, 30_000);

describe.each([
  ["seed", "seed"],
  ["cn", "cn-session"],
] as const)("continue-remote suite against the built-in mock (%s)", (key, profile) => {
  it("has the 49 server checks of the catalogue, each passing or skipped for a stated reason, and exits 0 under --strict", () => {
    const r = runs[key]!;
    const checks = serverSide(r);
    expect(checks).toHaveLength(49);
    const bad = (c: CheckResult) => !ok(c) && !allowedSkip(c, profile);
    expect(checks.filter(bad), explain(checks, bad)).toEqual([]);
    expect(r.exitCode).toBe(0);
  });

  it("judges the branches the probes drive: permissions approved and denied, bad input refused, the shutdown", () => {
    const checks = serverSide(runs[key]!);
    expect(byId(checks, "continue-remote/permission/approve").message).toMatch(/^1 approval/);
    expect(byId(checks, "continue-remote/permission/deny").message).toMatch(/^1 denial/);
    expect(byId(checks, "continue-remote/permission/approved-boolean").message).toMatch(/^2 non-boolean/);
    expect(byId(checks, "continue-remote/queue/position-while-processing").message).toMatch(/^[1-9]\d* message\(s\) sent while busy/);
    expect(byId(checks, "continue-remote/exit/shuts-down").verdict).toBe("pass");
    expect(byId(checks, "continue-remote/security/no-auth").verdict).toBe("info");
  });
});

describe("continue-remote suite, other branches", () => {
  it("under seed, the pause rule is the other generation's and /pause is never sent", () => {
    const r = runs.seed!;
    expect(byId(serverSide(r), "continue-remote/pause/semantics").message).toMatch(/a cn-session rule/);
    expect(byId(serverSide(runs.cn!), "continue-remote/pause/semantics").message).toMatch(/stopped the running turn/);
  });

  it("judges willInterrupt:true when the server says it, and --no-exit leaves the server running", () => {
    const checks = serverSide(runs.legacy!);
    const honoured = byId(checks, "continue-remote/queue/will-interrupt-honoured");
    expect(honoured.verdict, honoured.message).toBe("pass");
    expect(honoured.message).toMatch(/interrupt\(s\) stopped the turn/);
    const exit = byId(checks, "continue-remote/exit/shuts-down");
    expect(exit.verdict).toBe("skip");
    expect(exit.message).toBe("not applicable: --no-exit: POST /exit was not sent");
    expect(byId(checks, "continue-remote/exit/post-only").verdict).toBe("pass");
    const bad = (c: CheckResult) => !ok(c) && c.verdict !== "skip";
    expect(checks.filter(bad), explain(checks, bad)).toEqual([]);
  });
});
