/**
 * Verdicts on hand-written conversations: what a real agent may legally do that the mock does not
 * play (an automatic retry after a provider error, the fork's late prompt failure), and the words
 * the checks report it with.
 */
import { describe, expect, it } from "vitest";
import { PI_FORK_054 } from "../../../src/suites/pi-web/profiles.js";
import { evaluatePiWeb } from "../../helpers/pi-web-evaluate.js";
import { assistantError, assistantText, PiWebScript, userMessage } from "../../helpers/pi-web-synthetic.js";

describe("cmd/get-messages around an automatic retry", () => {
  /** A prompt whose run ends in a provider error, then history read at `readAt`. */
  function retried(readAt: "before-retry" | "after-retry", afterRetryHistory: unknown[] | "none" = "none") {
    const s = new PiWebScript();
    const user = userMessage("scenario:error-retry Say hello.");
    const failed = assistantError("429 rate limit");
    const reply = assistantText("Hello.", 3);
    s.ok(s.send("prompt:error-retry", { type: "prompt", message: user.content[0]!.text }), "prompt");
    s.run([user, failed]);
    if (readAt === "before-retry") {
      // The agent has already dropped the failed reply when it answers (it retries next).
      s.ok(s.send("history:error-retry", { type: "get_messages" }), "get_messages", { messages: [user] });
    }
    s.recv({ type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 200, errorMessage: "429 rate limit" });
    s.recv({ type: "agent_start" }).recv({ type: "turn_start" });
    s.recv({ type: "message_start", message: reply }).recv({ type: "message_end", message: reply });
    s.recv({ type: "auto_retry_end", success: true, attempt: 1 });
    s.recv({ type: "turn_end", message: reply, toolResults: [] }).recv({ type: "agent_end", messages: [reply] });
    if (afterRetryHistory !== "none") s.ok(s.send("history:after-retry", { type: "get_messages" }), "get_messages", { messages: afterRetryHistory });
    return evaluatePiWeb(s.close()).get("cmd/get-messages")!;
  }

  it("does not judge a history read between agent_end and auto_retry_start", () => {
    const c = retried("before-retry", [userMessage("scenario:error-retry Say hello."), assistantText("Hello.", 3)]);
    expect(c.verdict, c.message).toBe("pass");
    expect(c.message).toBe("1 history read(s) ended with the run's messages");
  });

  it("says why when the only read fell in the retry window", () => {
    const c = retried("before-retry");
    expect(c.outcome).toBe("incomplete");
    expect(c.message).toContain("between agent_end and the further run the server opened (auto_retry_start)");
  });

  it("still fails a read after the retry run that lacks its reply", () => {
    const c = retried("after-retry", [userMessage("scenario:error-retry Say hello.")]);
    expect(c.verdict).toBe("fail");
  });
});

describe("rpc/single-response under pi-fork-0.54", () => {
  it("names the prompts whose second answer the profile accepted", () => {
    const s = new PiWebScript();
    const user = userMessage("scenario:long Write.");
    s.ok(s.send("prompt:long", { type: "prompt", message: "scenario:long Write." }), "prompt");
    s.recv({ type: "agent_start" }).recv({ type: "turn_start" }).recv({ type: "message_start", message: user }).recv({ type: "message_end", message: user });
    const busy = s.send("prompt:busy", { type: "prompt", message: "again" });
    s.recv({ type: "response", id: busy, command: "prompt", success: false, error: "Agent is already processing." }).ok(busy, "prompt");
    const state = s.send("state:after-run", { type: "get_state" });
    const reply = assistantText("Done.", 3);
    s.recv({ type: "message_start", message: reply }).recv({ type: "message_end", message: reply }).recv({ type: "agent_end", messages: [user, reply] });
    s.ok(state, "get_state", {});
    const c = evaluatePiWeb(s.close(), { profile: PI_FORK_054 }).get("rpc/single-response")!;
    expect(c.verdict, c.message).toBe("pass");
    expect(c.message).toBe("2 command(s) got one response each; 1 prompt(s) got a success plus one failure, which the pi-fork-0.54 profile accepts (prompt [prompt:busy])");
  });
});
