/**
 * The probes drive the eight phases in order, poll GET /state single-flight, answer permissions
 * with a wrong id and non-boolean answers before the right one, send /pause only under cn-session,
 * and end with GET/HEAD /exit, then POST /exit.
 */
import { describe, expect, it } from "vitest";
import { CN_SESSION } from "../../../src/suites/continue-remote/profiles.js";
import { DEFAULT_PROFILE, type ProfileDef } from "../../../src/core/checks/check.js";
import { TranscriptBus, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { continueRemote } from "../../../src/suites/continue-remote/index.js";

async function probe(profile: ProfileDef, settings: Record<string, unknown> = {}) {
  const events: TranscriptEvent[] = [];
  const bus = new TranscriptBus();
  bus.subscribe((e) => events.push(e));
  const mock = await continueRemote.startMock({ host: "127.0.0.1", port: 0, suite: true, settings: { ...continueRemote.selfTestMockFor!(profile), ...settings } });
  try {
    await continueRemote.runProbes({
      url: mock.url,
      bus,
      timeouts: { ...continueRemote.timeouts, ...continueRemote.selfTest!.timeouts },
      headers: {},
      profile,
      params: { ...continueRemote.defaultParams, ...continueRemote.selfTest!.params },
      maxBytes: 1 << 24,
      signal: new AbortController().signal,
      progress: () => undefined,
    });
  } finally {
    await mock.close();
  }
  return events;
}

const groups = (events: TranscriptEvent[]) => events.filter((e) => e.kind === "probe-start").map((e) => e.probe);
const requests = (events: TranscriptEvent[]) => events.flatMap((e) => (e.kind === "http-request" ? [e] : []));

describe("continue-remote probes", () => {
  it("run the phases in order, single-flight, and end with the shutdown routes", async () => {
    const events = await probe({ ...DEFAULT_PROFILE, name: "seed" });
    expect(groups(events)).toEqual(["idle", "bad-input", "security", "turn", "queue", "interrupt", "permission", "diff", "exit"]);
    const labels = requests(events).map((r) => r.label);
    expect(requests(events).filter((r) => r.label.startsWith("bad-input:non-string:")).every((r) => r.probe === "bad-input")).toBe(true);
    expect(labels.some((l) => l.startsWith("pause:"))).toBe(false);
    const permission = labels.filter((l) => l.startsWith("permission:") && l !== "permission:idle");
    expect(permission).toEqual(["permission:wrong-id", 'permission:non-boolean:"false"', "permission:non-boolean:1", "permission:answer", "permission:answer"]);
    const shutdown = labels.filter((l) => l.startsWith("exit:"));
    expect(shutdown.slice(0, 3)).toEqual(["exit:get", "exit:head", "exit:post"]);
    expect(labels.at(-1)).toBe("exit:after");

    // Single-flight: each poll starts after the previous one ended.
    let busyUntil = -Infinity;
    let overlaps = 0;
    const open = new Map<string, number>();
    for (const e of events) {
      if (e.kind === "http-request" && e.label.startsWith("state:")) {
        if (e.t < busyUntil || open.size > 0) overlaps++;
        open.set(e.exchange, e.t);
      }
      if ((e.kind === "body-end" || e.kind === "http-error") && open.has(e.exchange)) {
        open.delete(e.exchange);
        busyUntil = e.t;
      }
    }
    expect(overlaps).toBe(0);
  });

  it("send /pause while idle and while busy under cn-session, and no POST /exit with noExit", async () => {
    const events = await probe(CN_SESSION);
    const labels = requests(events).map((r) => r.label);
    expect(labels.filter((l) => l.startsWith("pause:"))).toEqual(["pause:idle", "pause:busy"]);
    // cn serve 1.5.47 queues non-string messages and then fails every later turn: under cn-session
    // they are sent after every turn the kit judges, just before the shutdown routes.
    expect(groups(events)).toEqual(["idle", "bad-input", "security", "turn", "queue", "interrupt", "permission", "diff", "late-input", "exit"]);
    const nonString = requests(events).filter((r) => r.label.startsWith("bad-input:non-string:"));
    expect(nonString.length).toBeGreaterThan(0);
    expect(nonString.every((r) => r.probe === "late-input")).toBe(true);
    const bus = new TranscriptBus();
    const seen: string[] = [];
    bus.subscribe((e) => e.kind === "http-request" && seen.push(e.label));
    const mock = await continueRemote.startMock({ host: "127.0.0.1", port: 0, suite: true });
    try {
      await continueRemote.runProbes({
        url: mock.url,
        bus,
        timeouts: { ...continueRemote.timeouts, ...continueRemote.selfTest!.timeouts },
        headers: {},
        profile: DEFAULT_PROFILE,
        params: { ...continueRemote.defaultParams, ...continueRemote.selfTest!.params, noExit: true, permissionPrompt: "" },
        maxBytes: 1 << 24,
        signal: new AbortController().signal,
        progress: () => undefined,
      });
      expect(seen).not.toContain("exit:post");
      expect((await fetch(`${mock.url}/state`)).status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});
