/**
 * Event types that name members every plain object inherits (toString, constructor, hasOwnProperty, __proto__) are
 * unknown types to the checks, like any other: a server that sends them is judged, never crashes a check.
 */
import { describe, expect, it } from "vitest";
import { MCP_CHAT_SERVER_CHECKS } from "../../../src/suites/mcp-chat/checks/index.js";
import { byId } from "../../helpers/run-results.js";
import { chatStreamExchange } from "../../helpers/mcp-chat-transcript.js";
import { judge } from "../../helpers/synthetic-transcript.js";

const INHERITED = ["toString", "constructor", "hasOwnProperty", "__proto__", "valueOf"];

describe.each(INHERITED)("an event of type %s", (type) => {
  const stream = chatStreamExchange({
    label: "chat-stream",
    requestAt: 0,
    headAt: 5,
    chunks: [
      { t: 10, text: `data: {"type":"text","content":"Hello"}\n\n` },
      // Written as text: JSON.stringify would not write a "__proto__" key of an object literal.
      { t: 20, text: `data: {"type":${JSON.stringify(type)},"content":"x"}\n\n` },
      { t: 30, text: "data: [DONE]\n\n" },
    ],
    endAt: 35,
  });

  it("is an unknown type, and no check ends in an internal error", () => {
    const checks = judge(MCP_CHAT_SERVER_CHECKS, stream);
    expect(checks.filter((c) => c.message.startsWith("internal error")).map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(byId(checks, "mcp-chat/events/schema").verdict).toBe("pass");
    const known = byId(checks, "mcp-chat/events/known-type");
    expect(known.verdict).not.toBe("pass");
    expect(known.message).toContain(type);
  });
});
