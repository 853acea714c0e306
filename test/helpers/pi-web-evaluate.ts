/** Runs the pi-web server checks over a hand-built transcript, as the runner would. */
import { DEFAULT_PROFILE, type ProfileDef } from "../../src/core/check.js";
import { Evaluation } from "../../src/core/evaluation.js";
import type { CheckResult } from "../../src/core/result.js";
import { registry } from "../../src/core/schema-registry.js";
import type { TranscriptEvent } from "../../src/core/transcript.js";
import { PI_WEB_SERVER_CHECKS } from "../../src/suites/pi-web/checks/index.js";

export function evaluatePiWeb(events: Iterable<TranscriptEvent>, o: { profile?: ProfileDef; strict?: boolean } = {}): Map<string, CheckResult> {
  const profile = o.profile ?? DEFAULT_PROFILE;
  const ev = new Evaluation(
    PI_WEB_SERVER_CHECKS,
    { protocol: "pi-web", profile, params: { ...(profile.params ?? {}) }, validate: (m, v) => registry.validate("pi-web", m, v, profile.name) },
    o.strict ?? false,
  );
  for (const e of events) ev.observe(e);
  return new Map(ev.finish().map((c) => [c.id.replace(/^pi-web\//, ""), c]));
}
