/**
 * One deviation, one failing check, for the JSON answers: a recorded good run is re-judged with one
 * answer rewritten. The rewritten answer's rule fails; every check that could not judge because of
 * it skips as a knock-on naming that rule; everything else keeps its verdict.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../../src/core/verdicts/result.js";
import { runSuite } from "../../../src/core/run/runner.js";
import { parseJsonLines, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { mcpChat } from "../../../src/suites/mcp-chat/index.js";
import { judgeAsRecorded } from "../../helpers/rejudge.js";
import { explain } from "../../helpers/run-results.js";

type Json = Record<string, unknown>;
type Rewrite = (events: TranscriptEvent[]) => TranscriptEvent[];

let good: TranscriptEvent[];
let before: CheckResult[];

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "agentwire-answers-"));
  try {
    await runSuite(mcpChat, { saveTranscript: dir });
    good = parseJsonLines(readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith(".jsonl"))!), "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  before = judgeAsRecorded(mcpChat, good);
}, 60_000);

/** The answer to `label` with its JSON body rewritten, and its status when given. */
const answer = (label: string, body: (json: any) => unknown, status?: number): Rewrite => (events) =>
  events.map((e) => {
    if (!("label" in e) || e.label !== label) return e;
    if (e.kind === "http-response" && status !== undefined) return { ...e, status };
    if (e.kind === "body-end" && e.text !== undefined) return { ...e, text: JSON.stringify(body(JSON.parse(e.text))) };
    return e;
  });

const P = "mcp-chat/";
/** [deviation, rewrite, the check that must fail, the checks that must skip as its knock-ons]. */
const CASES: [string, Rewrite, string, string[]][] = [
  ["the listing is an object, not an array", answer("servers", (list) => ({ servers: list })), "servers/list-shape", ["servers/non-empty"]],
  ["a listed id twice", answer("servers", (list: Json[]) => [...list, list[0]]), "servers/list-shape", []],
  ["a connect answer without tools", answer("connect", ({ tools: _t, ...rest }: Json) => rest), "connect/success-shape", ["state/single-connection"]],
  ["the second connect refused with 500 {detail}", answer("connect-b", () => ({ detail: "MCP server failed to start" }), 500), "connect/success-shape", ["state/single-connection"]],
  ["a connect answer naming another id", answer("connect", (r: Json) => ({ ...r, server_id: "someone-else" })), "connect/success-shape", []],
  ["status after a connect says connected: \"yes\"", answer("status-after-connect", (r: Json) => ({ ...r, connected: "yes" })), "status/connected-shape", ["connect/unknown-id-keeps-state"]],
  ["status after the reset still connected", answer("status-after-reset", (r: Json) => ({ ...r, connected: true })), "disconnect/clears-state", ["disconnect/idempotent"]],
  ["status after a disconnect keeps the id", answer("status-after-disconnect", (r: Json) => ({ ...r, server_id: "weather" })), "status/disconnected-shape", []],
  [
    "the disconnect refused with 500 {detail}, the target still connected",
    (events) => answer("status-after-disconnect", (r: Json) => ({ ...r, connected: true, server_id: "weather" }))(answer("disconnect", () => ({ detail: "busy" }), 500)(events)),
    "disconnect/success-shape",
    [],
  ],
  ["a disconnect answer without success", answer("disconnect", () => ({})), "disconnect/success-shape", []],
  ["a /chat answer with a number for response", answer("chat-sync", (r: Json) => ({ ...r, response: 5 })), "chat-sync/shape", []],
  ["a reconnect refused with 409 {detail}", answer("reconnect-b", () => ({ detail: "already connected" }), 409), "state/reconnect-same-id", []],
];

const same = (a: CheckResult, b: CheckResult) => a.verdict === b.verdict && a.outcome === b.outcome;

describe("mcp-chat: single deviations in JSON answers", () => {
  it("the recorded run passes as recorded", () => {
    expect(before.filter((c) => c.outcome === "fail")).toEqual([]);
  });

  it.each(CASES)("%s fails only its rule", (_name, rewrite, target, knocked) => {
    const after = judgeAsRecorded(mcpChat, rewrite(good));
    const why = explain(after, (c) => !same(before.find((b) => b.id === c.id)!, c));
    expect(after.filter((c) => c.outcome === "fail").map((c) => c.id), why).toEqual([P + target]);
    const skipped: string[] = [];
    for (const c of after) {
      if (c.id === P + target || same(before.find((b) => b.id === c.id)!, c)) continue;
      expect(`${c.verdict}: ${c.message}`, `${c.id}\n${why}`).toMatch(new RegExp(`^skip: not judged: ${P + target} failed on `));
      skipped.push(c.id);
    }
    expect(skipped.sort(), why).toEqual(knocked.map((id) => P + id).sort());
  });
});
