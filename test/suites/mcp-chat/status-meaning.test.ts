/**
 * A rejection is judged by what its status means, not by its class: recorded good runs are
 * re-judged with one answer's status (or body) rewritten, as a server that rejects for another
 * reason (a missing route, a conflict) would answer.
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

async function record(mock: object): Promise<TranscriptEvent[]> {
  const dir = mkdtempSync(join(tmpdir(), "agentwire-status-"));
  try {
    await runSuite(mcpChat, { saveTranscript: dir, mock });
    return parseJsonLines(readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith(".jsonl"))!), "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The transcript with the answer to `label` given `status` (and, when set, this JSON body). */
function answer(events: TranscriptEvent[], label: string, status: number, body?: unknown): TranscriptEvent[] {
  return events.map((e) => {
    if (!("label" in e) || e.label !== label) return e;
    if (e.kind === "http-response") return { ...e, status };
    if (e.kind === "body-end" && body !== undefined) return { ...e, text: JSON.stringify(body) };
    return e;
  });
}

let good: TranscriptEvent[];
let refusing: TranscriptEvent[];

beforeAll(async () => {
  [good, refusing] = await Promise.all([record({}), record({ settings: { notConnected: "http-409" } })]);
}, 60_000);

const verdictOf = (checks: CheckResult[], id: string) => {
  const c = checks.find((x) => x.id === `mcp-chat/${id}`)!;
  return `${c.outcome}: ${c.message}`;
};
const failed = (checks: CheckResult[]) => checks.filter((c) => c.outcome === "fail").map((c) => c.id.replace("mcp-chat/", ""));

describe("mcp-chat: rejections judged by the meaning of their status", () => {
  it.each<[string, number, RegExp]>([
    ["bad-input:{}", 404, /{} got POST \/chat\/stream → 404 .*: 404 says the route or resource does not exist, not that the request is malformed/],
    ['bad-input:{"message":42}', 409, /409 says the request conflicts with the server's state/],
    ["bad-input:malformed-json", 405, /405 says the route does not take this method/],
    ['bad-input:{"message":null}', 418, /418 is no validation error/],
  ])("%s answered %i fails chat/bad-input-4xx alone", (label, status, message) => {
    const checks = judgeAsRecorded(mcpChat, answer(good, label, status));
    expect(failed(checks), explain(checks, (c) => c.outcome === "fail")).toEqual(["chat/bad-input-4xx"]);
    expect(verdictOf(checks, "chat/bad-input-4xx")).toMatch(message);
  });

  it("a bad input answered 400 or 422 passes; one without {detail} is errors/detail-shape's alone", () => {
    expect(failed(judgeAsRecorded(mcpChat, answer(good, "bad-input:{}", 400)))).toEqual([]);
    const checks = judgeAsRecorded(mcpChat, answer(good, "bad-input:{}", 422, { error: "message is required" }));
    expect(failed(checks), explain(checks, (c) => c.outcome === "fail")).toEqual(["errors/detail-shape"]);
  });

  it("an unknown id answered 405 fails connect/unknown-id-4xx alone; 400 passes", () => {
    const checks = judgeAsRecorded(mcpChat, answer(good, "connect-unknown", 405));
    expect(failed(checks), explain(checks, (c) => c.outcome === "fail")).toEqual(["connect/unknown-id-4xx"]);
    expect(verdictOf(checks, "connect/unknown-id-4xx")).toMatch(/405 says the route does not take this method, not that the id is unknown/);
    expect(failed(judgeAsRecorded(mcpChat, answer(good, "connect-unknown", 400)))).toEqual([]);
  });

  it("an unknown id answered without {detail} fails errors/detail-shape; connect/unknown-id-4xx names it", () => {
    const checks = judgeAsRecorded(mcpChat, answer(good, "connect-unknown", 404, { error: "no such server" }));
    expect(failed(checks), explain(checks, (c) => c.outcome === "fail")).toEqual(["errors/detail-shape"]);
    expect(verdictOf(checks, "connect/unknown-id-4xx")).toMatch(/^skip: not judged: mcp-chat\/errors\/detail-shape failed on POST \/connect\//);
  });

  it.each<[number, string]>([
    [409, "pass"],
    [503, "pass"],
    [400, "pass"],
    [404, "fail"],
    [422, "fail"],
    [401, "fail"],
  ])("chat while disconnected refused with %i: chat/disconnected-rejected %s", (status, outcome) => {
    const checks = judgeAsRecorded(mcpChat, answer(refusing, "chat-disconnected", status));
    expect(verdictOf(checks, "chat/disconnected-rejected")).toMatch(new RegExp(`^${outcome}: `));
    expect(failed(checks)).toEqual(outcome === "fail" ? ["chat/disconnected-rejected"] : []);
  });
});
