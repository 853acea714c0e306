/**
 * Proof that every server check can fail: for each fault of the mock, the checks whose outcome is
 * "fail" are exactly the ones the fault names (an INFO check's report counts by its outcome).
 * All faults run at once in beforeAll (each on its own mock), then each gets its own assertion.
 * Each run is also replayed from its saved transcript, which must give the same verdicts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../../src/core/verdicts/result.js";
import { MCP_CHAT_FAULTS } from "../../../src/mocks/mcp-chat/index.js";
import { MCP_CHAT_SERVER_CHECKS } from "../../../src/suites/mcp-chat/checks/index.js";
import { mcpChat } from "../../../src/suites/mcp-chat/index.js";
import { explain, failedIds, runReplayed, serverSide } from "../../helpers/run-results.js";

const results = new Map<string, CheckResult[]>();

/**
 * A run's own parameters. The buffered stream is judged with the contract's 100 ms gap, not the
 * self-test's 20: a hold-up of the kit right before its one read leaves the stream unjudged when it
 * could explain the gap, and on a busy machine 20 ms hold-ups are common.
 */
const PARAMS: Record<string, Record<string, unknown>> = { "buffered-stream": { minGapMs: 100 } };

beforeAll(async () => {
  await Promise.all(
    MCP_CHAT_FAULTS.map(async (f) => {
      const r = await runReplayed(mcpChat, { mock: { faults: [f.name] }, ...(PARAMS[f.name] ? { params: PARAMS[f.name] } : {}) }, f.violates);
      results.set(f.name, serverSide(r));
    }),
  );
}, 60_000);

describe("mcp-chat faults trip exactly their checks", () => {
  it.each(MCP_CHAT_FAULTS.map((f) => [f.name, f.violates] as const))("%s", (name, violates) => {
    const checks = results.get(name)!;
    const wanted = [...violates].sort();
    expect(failedIds(checks), `fault ${name}:\n${explain(checks, (c) => c.outcome === "fail" || wanted.includes(c.id))}`).toEqual(wanted);
  });

  // Checks a fault keeps from judging name the rule that failed first, and do not fail the run.
  it.each<[string, Record<string, RegExp>]>([
    ["done-variant", { "tools/all-ended-before-done": /^not judged: mcp-chat\/terminal\/sentinel-format failed on chat-stream event #6/ }],
    ["tool-never-ended", { "tools/end-matches-start": /^not judged: mcp-chat\/tools\/all-ended-before-done failed on chat-stream event/ }],
    ["servers-empty", Object.fromEntries(["connect/success-shape", "status/connected-shape", "state/single-connection", "tools/unique-ids", "chat/bad-input-4xx", "chat-sync/shape"].map((id) => [id, /^not judged: mcp-chat\/servers\/non-empty failed on GET \/servers$/]))],
    ["connect-missing-server-name", { "connect/matches-listing": /^not judged: mcp-chat\/connect\/success-shape failed on POST \/connect\// }],
    ["connect-unknown-200", { "connect/unknown-id-keeps-state": /^not judged: mcp-chat\/connect\/unknown-id-4xx failed on POST \/connect\/agentwire-unknown-\w+ \(200\)$/ }],
    ["disconnect-noop", { "chat/disconnected-rejected": /^not judged: mcp-chat\/disconnect\/clears-state failed on status-after-disconnect$/, "tools/all-ended-before-error": /^not judged: mcp-chat\/disconnect\/clears-state/ }],
    ["sse-no-final-blank", { "terminal/required": /^not judged: mcp-chat\/sse\/one-data-line-per-event failed on chat-stream line 1[0-9]/, "terminal/last-event": /^not judged: mcp-chat\/sse\/one-data-line-per-event failed on /, "terminal/connection-closes": /^not judged: mcp-chat\/sse\/one-data-line-per-event/ }],
    ["chat-accepts-bad-input", { "chat-sync/shape": /^not judged: mcp-chat\/chat\/bad-input-4xx failed on POST \/chat \{\} \(200\)$/ }],
    ["chat-disconnected-answers", { "tools/all-ended-before-error": /^not judged: mcp-chat\/chat\/disconnected-rejected failed on chat-disconnected$/ }],
    ["missing-terminal", { "tools/all-ended-before-done": /^not judged: mcp-chat\/terminal\/required failed on chat-stream$/, "text/answer-present": /^not judged: mcp-chat\/terminal\/required/ }],
  ])("%s: the knock-on effects are named skips", (name, knocked) => {
    const checks = results.get(name)!;
    for (const [id, message] of Object.entries(knocked)) {
      const c = checks.find((x) => x.id === `mcp-chat/${id}`)!;
      expect(`${c.verdict}: ${c.message}`, id).toMatch(new RegExp(`^skip: ${message.source.slice(1)}`));
    }
  });

  it("detail-not-string: the failure names the profile that accepts FastAPI's detail list", () => {
    const c = results.get("detail-not-string")!.find((x) => x.id === "mcp-chat/errors/detail-shape")!;
    expect(c.message).toContain("(FastAPI's validation list; `--profile budget-master` accepts it)");
  });

  it("leaves no server check without a fault to prove it, except the ones proved by fixtures", () => {
    const proved = new Set(MCP_CHAT_FAULTS.flatMap((f) => f.violates));
    const unproved = MCP_CHAT_SERVER_CHECKS.map((c) => c.id).filter((id) => !proved.has(id));
    // timing/profile only reports: timing-profile.test.ts proves it on a fixture transcript.
    expect(unproved).toEqual(["mcp-chat/timing/profile"]);
  });
});
