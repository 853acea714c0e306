/** The reference mock conforms to the server suite: defaults, a token, ws:// URLs, every framing. */
import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../../src/core/verdicts/result.js";
import { runSuite } from "../../../src/core/run/runner.js";
import { PI_WEB_FRAMINGS } from "../../../src/mocks/pi-web/index.js";
import { DEFAULT_TIMING } from "../../../src/mocks/pi-web/options.js";
import { piWeb } from "../../../src/suites/pi-web/index.js";
import { byId, explain, pool, serverSide } from "../../helpers/run-results.js";

const ok = (c: CheckResult) => c.verdict === "pass" || (c.level === "INFO" && c.verdict === "info");

// Each case runs its own mocks: they run side by side.
describe.concurrent("pi-web suite against the built-in mock", () => {
  it("passes every server check as the built-in target (the token check skipped without --token)", async () => {
    const r = await runSuite(piWeb);
    const checks = serverSide(r);
    expect(checks).toHaveLength(52);
    const bad = (c: CheckResult) => !ok(c) && c.id !== "pi-web/conn/token-401";
    expect(checks.filter(bad), explain(checks, bad)).toEqual([]);
    expect(byId(checks, "pi-web/conn/token-401").verdict).toBe("skip");
    expect(byId(checks, "pi-web/stream/observed-variants").message).toMatch(/0 start\/done\/error update\(s\), 0 snapshot\(s\) ahead/);
    expect(r.exitCode).toBe(0);
  });

  it("tests the token when the mock has one, given as --token or in a ws:// URL", async () => {
    const viaToken = await runSuite(piWeb, { token: "s3cret", mock: { settings: { token: "s3cret" } } });
    // A target given by URL gets the suite's real-target waits; the mock keeps the self-test pace.
    const mock = await piWeb.startMock({ host: "127.0.0.1", port: 0, suite: true, settings: { token: "s3cret" } });
    let viaUrl;
    try {
      viaUrl = await runSuite(piWeb, { url: `${mock.url.replace(/^http/, "ws")}/ws?token=s3cret` });
    } finally {
      await mock.close();
    }
    for (const r of [viaToken, viaUrl]) {
      const checks = serverSide(r);
      expect(checks.filter((c) => !ok(c)), explain(checks, (c) => !ok(c))).toEqual([]);
      expect(byId(checks, "pi-web/conn/token-401").message).toMatch(/2 upgrade\(s\) with a missing or wrong token were refused with 401/);
    }
  });

  it("passes with every framing of the mock", async () => {
    const results = await pool(
      PI_WEB_FRAMINGS.map((f) => async () => ({ f: f.name, r: await runSuite(piWeb, { mock: { framing: f.name } }) })),
      6,
    );
    for (const { f, r } of results) {
      const checks = serverSide(r);
      const bad = (c: CheckResult) => !ok(c) && c.id !== "pi-web/conn/token-401";
      expect(checks.filter(bad), `${f}:\n${explain(checks, bad)}`).toEqual([]);
    }
  });

  it("reports behaviour a target legally did not show as not applicable, never as a pass", async () => {
    // Prompts without the mock's scenario prefix: every run is a plain text answer, as from a model
    // that calls no tool, never fails and has no extension command.
    const plain = Object.fromEntries(
      ["promptText", "promptThinking", "promptTool", "promptTwoTools", "promptError", "promptErrorRetry", "promptExtError", "promptLong", "promptImages", "promptQueue", "promptAbort", "dialogCommand"].map((k) => [k, `Please answer briefly (${k}).`]),
    );
    // At the mock's own pace (not the self-test's): a plain answer must last long enough for the
    // probes to send a prompt and an abort while it runs.
    const r = await runSuite(piWeb, { params: plain, mock: { settings: { ...DEFAULT_TIMING } } });
    const checks = serverSide(r);
    expect(checks.filter((c) => c.verdict === "fail" || c.verdict === "warn"), explain(checks)).toEqual([]);
    for (const id of ["tool/pairing", "tool/round-trip", "stream/toolcall-end", "event/error-run", "queue/steer-injected", "queue/steer-skips-tools", "queue/follow-up-at-end", "cmd/clear-queue", "ext/dialog-resolves", "ext/first-reply-wins"]) {
      const c = byId(checks, `pi-web/${id}`);
      expect(c.verdict, id).toBe("skip");
      expect(c.message, id).toMatch(/^not applicable: /);
    }
    // A short answer to the long prompt cannot show incremental streaming: that stays untested.
    expect(checks.filter((c) => c.verdict === "incomplete").map((c) => c.id)).toEqual(["pi-web/stream/incremental"]);
    expect(r.exitCode).toBe(3);
  });
});
