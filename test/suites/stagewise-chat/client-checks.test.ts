/**
 * The stagewise-chat client checks on recorded transcripts of scripted toolbars
 * (fixtures/stagewise-chat/transcripts/client/, written by scripts/make-stagewise-chat-client-fixtures.ts against the
 * reference mock; verdicts in expected.json): the good toolbar passes every check, each bad one fails exactly its own.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import type { CheckResult } from "../../../src/core/verdicts/result.js";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import { parseJsonLines, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { stagewiseChat } from "../../../src/suites/stagewise-chat/index.js";
import { STAGEWISE_CHAT_CLIENT_CHECKS } from "../../../src/suites/stagewise-chat/client/index.js";

const DIR = fileURLToPath(new URL("../../../fixtures/stagewise-chat/transcripts/client/", import.meta.url));
const IDS = STAGEWISE_CHAT_CLIENT_CHECKS.map((c) => c.id);

function judge(events: TranscriptEvent[]): Record<string, CheckResult> {
  const evaluation = new Evaluation(STAGEWISE_CHAT_CLIENT_CHECKS, {
    protocol: "stagewise-chat",
    profile: DEFAULT_PROFILE,
    params: {},
    validate: (message, value) => registry.validate("stagewise-chat", message, value),
  });
  for (const e of events) evaluation.observe(e);
  return Object.fromEntries(evaluation.finish().map((r) => [r.id, r]));
}

const load = (file: string) => parseJsonLines(readFileSync(join(DIR, file), "utf8"));

describe("stagewise-chat client fixture transcripts", () => {
  const expected = JSON.parse(readFileSync(join(DIR, "expected.json"), "utf8")) as Record<string, Record<string, string>>;

  it("lists the client checks in the protocol, and an expectation for every fixture", () => {
    expect(STAGEWISE_CHAT_CLIENT_CHECKS.every((c) => c.side === "client")).toBe(true);
    expect(new Set(IDS).size).toBe(IDS.length);
    for (const c of STAGEWISE_CHAT_CLIENT_CHECKS) expect(stagewiseChat.checks).toContain(c);
    expect(stagewiseChat.clientEnv?.("http://127.0.0.1:5746")).toEqual({ STAGEWISE_URL: "http://127.0.0.1:5746" });
    expect(Object.keys(expected).sort()).toEqual(readdirSync(DIR).filter((f) => f.endsWith(".jsonl")).sort());
    // Every check is proven to fail by some bad toolbar, and the good one passes them all.
    const failing = new Set(Object.values(expected).flatMap((e) => Object.keys(e).filter((id) => e[id] === "fail")));
    expect([...failing].sort()).toEqual([...IDS].sort());
    expect(Object.values(expected["clean.jsonl"]!).every((o) => o === "pass")).toBe(true);
  });

  for (const [file, want] of Object.entries(expected)) {
    const fails = Object.keys(want).filter((id) => want[id] === "fail");
    it(`${file}: ${fails.length ? `fails ${fails.join(", ")}` : "passes every check"}`, () => {
      expect(Object.keys(want).sort()).toEqual([...IDS].sort());
      expect(fails.length).toBeLessThanOrEqual(1);
      const results = judge(load(file));
      const outcomes = Object.fromEntries(Object.entries(results).map(([id, r]) => [id, r.outcome]));
      expect(outcomes, JSON.stringify(Object.values(results).map((r) => [r.id, r.message]), null, 1)).toEqual(want);
      // A failure says what was expected and what came, with the frame as evidence.
      for (const id of fails) {
        const r = results[id]!;
        expect(r.expected).toBeTruthy();
        expect(r.actual).toBeTruthy();
        expect(r.evidence?.[0]?.excerpt).toBeTruthy();
      }
    });
  }
});
