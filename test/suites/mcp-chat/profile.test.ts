/** The budget-master profile on a stream shaped like its HEAD backend's. */
import { describe, expect, it } from "vitest";
import { MCP_CHAT_SERVER_CHECKS } from "../../../src/suites/mcp-chat/checks/index.js";
import { BUDGET_MASTER } from "../../../src/suites/mcp-chat/profiles.js";
import { byId } from "../../helpers/run-results.js";
import { chatStreamExchange, dataEvent as e } from "../../helpers/mcp-chat-transcript.js";
import { judge } from "../../helpers/synthetic-transcript.js";

/** conversation_id first, token-by-token text before a tool with args {}, then an LLM error and [DONE]. */
const stream = chatStreamExchange({
  label: "chat-stream",
  requestAt: 0,
  headAt: 5,
  chunks: [
    { t: 10, text: e({ type: "conversation_id", conversation_id: "c-1" }) },
    { t: 20, text: e({ type: "text", content: "Let me " }) },
    { t: 30, text: e({ type: "tool_start", id: "toolu_1", name: "get_weather", args: {} }) },
    { t: 400, text: e({ type: "tool_end", id: "toolu_1", name: "get_weather", result: "sunny" }) },
    { t: 410, text: e({ type: "error", content: "rate limited" }) },
    { t: 420, text: "data: [DONE]\n\n" },
  ],
  endAt: 425,
});

const run = (profile?: typeof BUDGET_MASTER) =>
  judge(MCP_CHAT_SERVER_CHECKS, stream, profile ? { profile, params: { ...BUDGET_MASTER.params } } : {});

describe("profile budget-master", () => {
  it("accepts its extra event types, reports its text and counts its error event as a failed stream", () => {
    const checks = run(BUDGET_MASTER);
    expect(byId(checks, "mcp-chat/events/known-type").verdict).toBe("pass");
    expect(byId(checks, "mcp-chat/events/schema").verdict).toBe("pass");
    // Downgraded: intermediate text is reported, not failed.
    const text = byId(checks, "mcp-chat/text/final-answer-only");
    expect([text.level, text.verdict, text.outcome]).toEqual(["INFO", "info", "fail"]);
    // {type:"error"} then [DONE] ends the stream in error: no answer is required, the error rule applies.
    expect(byId(checks, "mcp-chat/text/answer-present").verdict).toBe("incomplete");
    expect(byId(checks, "mcp-chat/tools/all-ended-before-error").verdict).toBe("pass");
    expect(byId(checks, "mcp-chat/tools/all-ended-before-done").verdict).toBe("incomplete");
    expect(byId(checks, "mcp-chat/tools/call-profile").message).toMatch(/1 with args \{\}, 1 tool_end\(s\) with a result/);
  });

  it("without the profile, the same stream breaks the seed's event types", () => {
    const checks = run();
    expect(byId(checks, "mcp-chat/events/known-type").verdict).toBe("warn");
    expect(byId(checks, "mcp-chat/text/final-answer-only").verdict).toBe("warn");
    expect(byId(checks, "mcp-chat/text/answer-present").verdict).toBe("pass");
    expect(byId(checks, "mcp-chat/tools/all-ended-before-done").verdict).toBe("pass");
  });
});
