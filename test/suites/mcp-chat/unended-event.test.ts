/**
 * sse/one-data-line-per-event and a body whose last event has no empty line: the server's doing when the body ended
 * by itself (EOF, a reset), the kit's when it stopped reading (its timeout or byte limit) — then the line that ends
 * the event may simply not have been read, and the rule is not judged on it.
 */
import { describe, expect, it } from "vitest";
import type { BodyEndReason } from "../../../src/core/transcript/transcript.js";
import { MCP_CHAT_SERVER_CHECKS } from "../../../src/suites/mcp-chat/checks/index.js";
import { byId } from "../../helpers/run-results.js";
import { chatStreamExchange } from "../../helpers/mcp-chat-transcript.js";
import { judge } from "../../helpers/synthetic-transcript.js";

const ID = "mcp-chat/sse/one-data-line-per-event";

const cutAfterDataLine = (reason: BodyEndReason) =>
  chatStreamExchange({
    label: "chat-stream",
    requestAt: 0,
    headAt: 5,
    chunks: [
      { t: 10, text: `data: {"type":"text","content":"Hello"}\n\n` },
      { t: 20, text: `data: {"type":"text","content":"wor` },
      { t: 30, text: `ld"}\n` },
    ],
    endAt: 40,
    reason,
  });

describe(`${ID} on a body that ends inside an event`, () => {
  it.each(["eof", "error"] as const)("fails when the body itself ended (%s)", (reason) => {
    const check = byId(judge(MCP_CHAT_SERVER_CHECKS, cutAfterDataLine(reason)), ID);
    expect(check.verdict).toBe("fail");
    expect(check.message).toContain("without the empty line");
  });

  it.each(["timeout", "limit", "aborted"] as const)("is not judged on it when the kit stopped reading (%s)", (reason) => {
    const check = byId(judge(MCP_CHAT_SERVER_CHECKS, cutAfterDataLine(reason)), ID);
    expect(check.verdict).not.toBe("fail");
    // The complete first event was judged; the cut one is said to be unjudged, not counted as a pass.
    expect(check.message).not.toContain("without the empty line");
  });
});
