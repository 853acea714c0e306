/**
 * The pi-fork-0.54 profile relaxes exactly the checks §5 names: the fork-quirk faults pass under it
 * and fail under the default profile, and the mock playing the fork passes it completely.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../../src/core/verdicts/result.js";
import { PI_FORK_054 } from "../../../src/suites/pi-web/profiles.js";
import { piWeb } from "../../../src/suites/pi-web/index.js";
import { runAgainstMock } from "../../helpers/pi-web-runs.js";
import { byId, explain, failedIds, pool } from "../../helpers/run-results.js";

/** The fork-quirk faults of §7 and what each trips under the default profile. */
const QUIRKS: Record<string, string[]> = {
  "duplicate-prompt-response": ["rpc/single-response", "rpc/response-unicast", "cmd/prompt-busy"],
  "scope-default-cwd": ["cmd/list-sessions-default-scope"],
  "switch-missing-creates": ["cmd/switch-session-missing"],
  "switch-suppresses-agent-end": ["event/agent-bracketing"],
};
/** Everything §5 relaxes for the server side (prompt-invalid: the fork's late failure of an invalid prompt). */
const RELAXED = [...new Set([...Object.values(QUIRKS).flat(), "cmd/prompt-invalid"])].map((id) => `pi-web/${id}`).sort();

const runs = new Map<string, CheckResult[]>();

beforeAll(async () => {
  await pool(
    [
      ...Object.keys(QUIRKS).flatMap((f) => [
        async () => runs.set(`${f} default`, await runAgainstMock({ faults: [f] })),
        async () => runs.set(`${f} fork`, await runAgainstMock({ faults: [f], profile: "pi-fork-0.54" })),
      ]),
      async () => runs.set("fork-mock default", await runAgainstMock({ mockProfile: "pi-fork-0.54" })),
      async () => runs.set("fork-mock fork", await runAgainstMock({ mockProfile: "pi-fork-0.54", profile: "pi-fork-0.54" })),
    ],
    10,
  );
}, 300_000);

describe("profile pi-fork-0.54", () => {
  it.each(Object.entries(QUIRKS))("%s fails under default and passes under pi-fork-0.54", (fault, ids) => {
    const dflt = runs.get(`${fault} default`)!;
    const fork = runs.get(`${fault} fork`)!;
    expect(failedIds(dflt), explain(dflt, (c) => c.outcome === "fail")).toEqual(ids.map((id) => `pi-web/${id}`).sort());
    expect(failedIds(fork), explain(fork, (c) => c.outcome === "fail")).toEqual([]);
    for (const id of ids) expect(byId(fork, `pi-web/${id}`).verdict, id).toBe("pass");
  });

  it("the mock playing the fork fails exactly the relaxed checks under default, and nothing under the profile", () => {
    const dflt = runs.get("fork-mock default")!;
    const fork = runs.get("fork-mock fork")!;
    expect(failedIds(dflt), explain(dflt, (c) => c.outcome === "fail")).toEqual(RELAXED);
    const bad = (c: CheckResult) => !(c.verdict === "pass" || (c.level === "INFO" && c.verdict === "info"));
    expect(fork.filter(bad), explain(fork, bad)).toEqual([]);
  });

  it("relaxes by parameters the checks read, and levels only the client checks §5 makes INFO", () => {
    expect(piWeb.profiles.map((p) => p.name)).toEqual(["pi-fork-0.54"]);
    expect(PI_FORK_054.levels).toEqual({ "pi-web/client/known-commands": "INFO", "pi-web/client/unknown-fields": "INFO" });
    expect(Object.keys(PI_FORK_054.params ?? {}).sort()).toEqual(["defaultScopeCwd", "latePromptFailure", "sessionChangeEndsRun", "switchMissingCreates"]);
  });
});
