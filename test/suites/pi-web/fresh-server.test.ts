/**
 * A server that starts with no stored session (a fresh install): the probes create a second
 * session with a reply before they judge the order of a listing, under both profiles.
 */
import { describe, expect, it } from "vitest";
import { byId, explain } from "../../helpers/run-results.js";
import { runAgainstMock } from "../../helpers/pi-web-runs.js";

describe.concurrent("cmd/list-sessions on a server with no stored session", () => {
  it.each([
    ["default", {}],
    ["pi-fork-0.54", { profile: "pi-fork-0.54", mockProfile: "pi-fork-0.54" }],
  ] as const)("is judged under %s", async (_name, o) => {
    const checks = await runAgainstMock({ ...o, settings: { seedSessions: false } });
    const c = byId(checks, "pi-web/cmd/list-sessions");
    expect(c.verdict, explain([c])).toBe("pass");
    expect(c.message).toBe("1 listing(s) were sorted newest first");
    const bad = checks.filter((x) => x.outcome === "fail");
    expect(bad, explain(bad)).toEqual([]);
  }, 120_000);
});
