/**
 * A conforming agent may take the other path the contract allows: answer the tool prompts without
 * a tool, report no provider failure, open no dialog for an unknown extension command. The mock
 * plays such an agent when the probes' prompts select its plain `text` scenario; the checks about
 * the paths not taken are then skipped with the reason, and the run passes under --strict.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { RunResult } from "../../../src/core/verdicts/result.js";
import { runMock } from "../../helpers/pi-web-runs.js";
import { explain, serverSide } from "../../helpers/run-results.js";

const PLAIN = "scenario:text Say hello in one short sentence.";
/** The prompts of a target that never calls a tool, never fails and has no dialog command. */
const PARAMS = { promptTool: PLAIN, promptTwoTools: PLAIN, promptQueue: PLAIN, promptError: PLAIN, promptErrorRetry: PLAIN, dialogCommand: PLAIN };

const NOT_APPLICABLE: Record<string, string> = {
  "tool/pairing": "the target answered both tool prompts without calling a tool",
  "tool/round-trip": "the target answered both tool prompts without calling a tool",
  "stream/toolcall-end": "the target answered both tool prompts without calling a tool",
  "queue/steer-injected": "the target ran no tool during the queue prompts",
  "queue/steer-skips-tools": "the target ran no tool during the queue prompts",
  "queue/follow-up-at-end": "the target ran no tool during the queue prompts",
  "queue/abort-keeps-queue": "the target ran no tool during the queue prompts",
  "cmd/clear-queue": "the target ran no tool during the queue prompts",
  "event/error-run": 'the two prompts meant to provoke a provider failure were answered without one (no assistant message ended with stopReason "error")',
  "ext/dialog-resolves": "the dialog command opened no dialog",
  "ext/first-reply-wins": "the dialog command opened no dialog",
};

let run: RunResult;

beforeAll(async () => {
  run = await runMock({ params: PARAMS, strict: true });
}, 120_000);

describe("a target that takes the other legal paths", () => {
  it("passes under --strict with exit 0", () => {
    const checks = serverSide(run);
    const bad = checks.filter((c) => c.verdict !== "pass" && c.verdict !== "skip" && c.verdict !== "info");
    expect(bad, explain(bad)).toEqual([]);
    expect(run.exitCode).toBe(0);
  });

  it.each(Object.entries(NOT_APPLICABLE))("skips %s with the reason", (id, reason) => {
    const c = serverSide(run).find((x) => x.id === `pi-web/${id}`)!;
    expect(c.verdict, explain([c])).toBe("skip");
    expect(c.message).toContain(`not applicable: ${reason}`);
  });
});
