/**
 * A run against a real `cn serve` 1.5.47 (`--allow Bash`, the kit's openai-chat mock as its model,
 * the prompt `call Bash {"command": "sleep 2; echo hi"}` so the poller sees the call running,
 * POST /exit at the end), saved with --save-transcript:
 * re-judged, it gives the verdicts established for that build (expected.json beside it). What
 * 1.5.47 really does differently (§5) is INFO under cn-session; judged as the seed, the same run
 * fails the documented API.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { replayTranscript } from "../../../src/core/run/runner.js";
import { continueRemote } from "../../../src/suites/continue-remote/index.js";

const DIR = fileURLToPath(new URL("../../../fixtures/continue-remote/transcripts/cn-1.5.47/", import.meta.url));
const FILE = `${DIR}bash-then-exit.jsonl`;
const text = readFileSync(FILE, "utf8");
const expected = JSON.parse(readFileSync(`${DIR}expected.json`, "utf8")) as Record<string, string>;
const verdicts = async (profile?: string) =>
  Object.fromEntries((await replayTranscript(continueRemote, text, { file: FILE, ...(profile ? { profile } : {}) })).checks.map((c) => [c.id, c.verdict]));

describe("continue-remote: a recorded cn serve 1.5.47", () => {
  it("re-judges to the established verdicts under cn-session", async () => {
    const got = await verdicts();
    expect(got).toEqual(expected);
    // §5 deviations, reported but harmless; nothing fails.
    for (const id of ["wire/json-errors", "bad-input/non-string-message", "bad-input/unparseable-body", "security/loopback-bind", "security/no-auth"]) {
      expect(got[`continue-remote/${id}`], id).toBe("info");
    }
    expect(Object.values(got)).not.toContain("fail");
    // Headless serve never asks: the permission checks are not applicable, approved-boolean included.
    expect(got["continue-remote/permission/approved-boolean"]).toBe("skip");
    // The non-string messages went last, so the tool call and the pause were judged on a healthy session.
    expect(got["continue-remote/session/tool-state-per-call"]).toBe("pass");
    expect(got["continue-remote/session/tool-status-forward"]).toBe("pass");
    expect(Object.values(got)).not.toContain("incomplete");
    expect(got["continue-remote/pause/semantics"]).toBe("pass");
    expect(got["continue-remote/bad-input/server-survives"]).toBe("pass");
  });

  it("fails the documented API when judged as the seed", async () => {
    const got = await verdicts("seed");
    expect(got["continue-remote/state/schema"]).toBe("fail");
    expect(got["continue-remote/security/loopback-bind"]).toBe("warn"); // a SHOULD
  });
});
