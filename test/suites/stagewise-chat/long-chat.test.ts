/**
 * A long chat through every server check: turns with text and tool calls, one after the other, cost the checks the
 * same at the end of the chat as at its start (the time grows with the number of updates, not with its square), and
 * the rules that read the chat still judge it.
 */
import { describe, expect, it } from "vitest";
import type { TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { STAGEWISE_SERVER_CHECKS } from "../../../src/suites/stagewise-chat/checks/index.js";
import { chat, SwScript } from "../../helpers/stagewise-synthetic.js";
import { byShortId, judge } from "../../helpers/synthetic-transcript.js";
import { METADATA } from "../../stagewise/model-agent.js";

const A = 1;
const DATE = "2025-08-08T10:00:00.000Z";

/** `turns` turns of eight updates each: working, the user's message, a reply with text, a tool call and its result, idle. */
function longChat(turns: number): TranscriptEvent[] {
  const s = new SwScript().open("w1", "main").subscribe("w1", "sub:chat:A", A).snapshot("w1", A, 3, [chat("c1", true)]);
  let seq = 4;
  const u = (update: unknown) => s.tracked("w1", A, seq++, update);
  const part = (messageId: string, partIndex: number, updateType: string, content: unknown) =>
    u({ type: "message-updated", chatId: "c1", update: { messageId, partIndex, updateType, content } });
  for (let i = 0; i < turns; i++) {
    u({ type: "agent-state", isWorking: true });
    u({ type: "message-added", chatId: "c1", message: { id: `u${i}`, role: "user", createdAt: DATE, content: [{ type: "text", text: "Make it blue" }], metadata: METADATA } });
    u({ type: "message-added", chatId: "c1", message: { id: `a${i}`, role: "assistant", createdAt: DATE, content: [] } });
    part(`a${i}`, 0, "create", { type: "text", text: "On " });
    part(`a${i}`, 0, "append", { type: "text", text: "it." });
    part(`a${i}`, 1, "create", { type: "tool-call", toolCallId: `t${i}`, toolName: "getStyles", input: {}, runtime: "backend", requiresApproval: false });
    part(`a${i}`, 2, "create", { type: "tool-result", toolCallId: `t${i}`, toolName: "getStyles", output: "red" });
    u({ type: "agent-state", isWorking: false });
  }
  return s.events;
}

function timed(turns: number): { ms: number; verdicts: ReturnType<typeof byShortId> } {
  const events = longChat(turns);
  const started = performance.now();
  const verdicts = byShortId(judge(STAGEWISE_SERVER_CHECKS, events));
  return { ms: performance.now() - started, verdicts };
}

describe("every server check on a long chat", () => {
  it("40,000 updates take time in proportion to their number, and the chat rules still judge them", () => {
    timed(500); // warm-up: the schemas compiled, the JIT
    const small = timed(500);
    const big = timed(5_000);
    for (const id of ["chat/update-applicable", "tools/result-linked", "chat/working-brackets-turn"]) {
      expect(big.verdicts.get(id)!.verdict, `${id}: ${big.verdicts.get(id)!.message}`).toBe("pass");
    }
    // Ten times the turns: about ten times the time when an update costs the checks the same whatever the chat's
    // length; a look at the whole chat per update makes it about a hundred.
    expect(big.ms / small.ms, `4,000 updates: ${small.ms.toFixed(0)} ms, 40,000: ${big.ms.toFixed(0)} ms`).toBeLessThan(30);
  });
});
