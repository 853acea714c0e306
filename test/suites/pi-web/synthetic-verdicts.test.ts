/**
 * Verdicts on hand-written conversations: what a real agent may legally do that the mock does not
 * play (an automatic retry after a provider error, the fork's late prompt failure), and the words
 * the checks report it with.
 */
import { describe, expect, it } from "vitest";
import type { TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { PI_WEB_SERVER_CHECKS } from "../../../src/suites/pi-web/checks/index.js";
import { PI_FORK_054 } from "../../../src/suites/pi-web/profiles.js";
import { assistantError, assistantText, PiWebScript, userMessage } from "../../helpers/pi-web-synthetic.js";
import { byShortId, judge, Transcript, type JudgeOptions } from "../../helpers/synthetic-transcript.js";

const evaluatePiWeb = (events: TranscriptEvent[], o: JudgeOptions = {}) => byShortId(judge(PI_WEB_SERVER_CHECKS, events, o));

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

describe("cmd/get-messages on a slow link", () => {
  /** Run 1, a history read sent after its agent_end, then run 2 (a steer the server took as a new prompt) before the read's answer. */
  function lateAnswer(answerBefore: "run-2" | "never") {
    const s = new PiWebScript();
    const u1 = userMessage("First.");
    const a1 = assistantText("One.", 2);
    const u2 = userMessage("Second.", 3);
    const a2 = assistantText("Two.", 4);
    s.ok(s.send("prompt:q1", { type: "prompt", message: "First." }), "prompt");
    s.run([u1, a1]);
    const read = s.send("history:queue-q1", { type: "get_messages" });
    if (answerBefore === "run-2") s.ok(read, "get_messages", { messages: [u1, a1] });
    s.run([u2, a2]);
    if (answerBefore === "never") s.ok(read, "get_messages", { messages: [u1, a1, u2, a2] });
    return evaluatePiWeb(s.close()).get("cmd/get-messages")!;
  }

  it("does not judge a read whose answer came only after the next run started", () => {
    const c = lateAnswer("never");
    expect(c.outcome, c.message).toBe("incomplete");
    expect(c.message).toMatch(/get_messages.* was still unanswered when the next run started .*its history may hold that run/);
  });

  it("still judges the read answered before the next run", () => {
    const c = lateAnswer("run-2");
    expect(c.verdict, c.message).toBe("pass");
  });
});

describe("rpc/response-per-command when the server closes the socket", () => {
  /** A get_state answered, then a get_state the server never answers before it closes with `code`. */
  function closedWith(code: number) {
    const s = new Transcript({ probe: "rpc" });
    s.open("w1", "main");
    s.send("w1", "state:a", { id: "aw-1", type: "get_state" });
    s.recv("w1", { type: "response", id: "aw-1", command: "get_state", success: true, data: { isStreaming: false } });
    s.send("w1", "state:b", { id: "aw-2", type: "get_state" });
    return evaluatePiWeb(s.close("w1", "server", code).events).get("rpc/response-per-command")!;
  }

  it("does not fail a command a shutdown (1001, 1012) cut off", () => {
    for (const code of [1001, 1012]) expect(closedWith(code).verdict, String(code)).toBe("pass");
    // With nothing else to judge, the cut-off command says why it was not judged.
    const s = new Transcript({ probe: "rpc" });
    s.open("w1", "main").send("w1", "state:b", { id: "aw-2", type: "get_state" });
    const c = evaluatePiWeb(s.close("w1", "server", 1001).events).get("rpc/response-per-command")!;
    expect(c.outcome).toBe("incomplete");
    expect(c.message).toContain("the server shut down (close 1001) before answering");
  });

  it("fails a command left unanswered by any other close", () => {
    for (const code of [1000, 1006, 1011]) expect(closedWith(code).verdict, String(code)).toBe("fail");
  });
});

describe("ext/first-reply-wins judges only the order one socket fixes", () => {
  /**
   * A select dialog answered "beta" on the main socket, then "gamma" on `second` (main or the
   * passive socket), and the run reporting `reported`.
   */
  function twoReplies(second: "w1" | "w2", reported: string) {
    const s = new Transcript({ probe: "ext" });
    s.open("w1", "main").open("w2", "passive");
    s.send("w1", "prompt:ext-dialogs", { id: "aw-1", type: "prompt", message: "/mock-dialogs" });
    s.recv("w1", { type: "response", id: "aw-1", command: "prompt", success: true });
    const ask = { type: "extension_ui_request", id: "d1", method: "select", title: "Pick one", options: ["alpha", "beta", "gamma"] };
    s.recv("w1", ask).recv("w2", ask);
    s.send("w1", "reply:select", { type: "extension_ui_response", id: "d1", value: "beta" });
    s.send(second, "reply:second", { type: "extension_ui_response", id: "d1", value: "gamma" });
    const answer = assistantText(`confirm=false select=${reported} input=none editor=none`);
    s.recv("w1", { type: "agent_start" }).recv("w1", { type: "message_start", message: answer }).recv("w1", { type: "message_end", message: answer }).recv("w1", { type: "agent_end", messages: [answer] });
    return evaluatePiWeb(s.close("w1").close("w2").events).get("ext/first-reply-wins")!;
  }

  it("fails a server that used the second of two replies sent on one socket", () => {
    const c = twoReplies("w1", "gamma");
    expect(c.verdict, c.message).toBe("fail");
    expect(twoReplies("w1", "beta").verdict).toBe("pass");
  });

  it("does not fail a server that used the reply it read first when the two went on different sockets", () => {
    // A server reads two sockets in the order they became readable, not the order the kit wrote to
    // them: "gamma" may well have been first to arrive.
    const c = twoReplies("w2", "gamma");
    expect(c.outcome).toBe("incomplete");
    expect(c.message).toBe("not exercised: the two replies to a dialog went on different sockets, so which one the server read first is unknown");
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

describe("legal alternatives inside a check end skip with the reason", () => {
  it("stream/toolcall-end: arguments that come whole, with no deltas", () => {
    const s = new PiWebScript();
    const call = { type: "toolCall", id: "call_1", name: "read", arguments: { path: "README.md" } };
    const start = assistantText("", 2);
    const final = { ...start, content: [call], stopReason: "toolUse" };
    const user = userMessage("scenario:tool Read it.");
    s.ok(s.send("prompt:tool", { type: "prompt", message: "scenario:tool Read it." }), "prompt");
    s.recv({ type: "agent_start" }).recv({ type: "turn_start" }).recv({ type: "message_start", message: user }).recv({ type: "message_end", message: user });
    s.recv({ type: "message_start", message: { ...start, content: [] } });
    s.recv({ type: "message_update", message: { ...start, content: [] }, assistantMessageEvent: { type: "toolcall_start", contentIndex: 0 } });
    s.recv({ type: "message_update", message: final, assistantMessageEvent: { type: "toolcall_end", contentIndex: 0, toolCall: call } });
    s.recv({ type: "message_end", message: final }).recv({ type: "turn_end", message: final, toolResults: [] }).recv({ type: "agent_end", messages: [user, final] });
    const c = evaluatePiWeb(s.close()).get("stream/toolcall-end")!;
    expect(c.verdict, c.message).toBe("skip");
    expect(c.message).toBe("not applicable: the tool call arguments came whole in toolcall_end, with no deltas to compare them with");
  });

  /** A queue run where every queued text is injected before anything is pending or cleared. */
  function queueRun(name: string, o: { steer?: boolean; followUp?: boolean; clear?: boolean }) {
    const s = new PiWebScript();
    const user = userMessage(`scenario:queue go (${name})`);
    const call = { type: "toolCall", id: "call_1", name: "bash", arguments: { command: "sleep 1" } };
    const first = { ...assistantText("", 2), content: [call], stopReason: "toolUse" };
    s.ok(s.send(`prompt:queue-${name}`, { type: "prompt", message: user.content[0]!.text }), "prompt");
    s.recv({ type: "agent_start" }).recv({ type: "turn_start" }).recv({ type: "message_start", message: user }).recv({ type: "message_end", message: user });
    s.recv({ type: "message_start", message: first }).recv({ type: "message_end", message: first });
    s.recv({ type: "tool_execution_start", toolCallId: "call_1", toolName: "bash", args: call.arguments });
    const texts: string[] = [];
    if (o.steer) {
      texts.push(`Focus (${name})`);
      s.ok(s.send(`steer:${name}`, { type: "prompt", message: `Focus (${name})`, streamingBehavior: "steer" }), "prompt");
    }
    if (o.followUp) {
      texts.push(`Then bye (${name})`);
      s.ok(s.send(`follow-up:${name}`, { type: "prompt", message: `Then bye (${name})`, streamingBehavior: "followUp" }), "prompt");
    }
    // The only call was already running: it finishes; nothing is left to skip.
    s.recv({ type: "tool_execution_end", toolCallId: "call_1", toolName: "bash", result: { content: [] }, isError: false });
    const result = { role: "toolResult", toolCallId: "call_1", toolName: "bash", content: [], isError: false, timestamp: 3 };
    s.recv({ type: "message_start", message: result }).recv({ type: "message_end", message: result });
    s.recv({ type: "turn_end", message: first, toolResults: [result] });
    const messages: unknown[] = [user, first, result];
    let ts = 4;
    for (const text of texts) {
      s.recv({ type: "turn_start" });
      const echo = userMessage(text, ts++);
      const reply = assistantText(`ok: ${text}`, ts++);
      s.recv({ type: "message_start", message: echo }).recv({ type: "message_end", message: echo });
      s.recv({ type: "message_start", message: reply }).recv({ type: "message_end", message: reply }).recv({ type: "turn_end", message: reply, toolResults: [] });
      messages.push(echo, reply);
    }
    if (o.clear) s.ok(s.send(`clear:${name}`, { type: "clear_queue" }), "clear_queue", { steering: [], followUp: [] });
    s.recv({ type: "agent_end", messages });
    return evaluatePiWeb(s.close());
  }

  it("queue/steer-skips-tools: no call was pending when the steer came in", () => {
    const r = queueRun("q1", { steer: true });
    expect(r.get("queue/steer-injected")!.verdict).toBe("pass");
    const c = r.get("queue/steer-skips-tools")!;
    expect(c.verdict, c.message).toBe("skip");
    expect(c.message).toBe("not applicable: no tool call was pending between the steer and its injection, so none was to be skipped");
  });

  it("cmd/clear-queue: everything queued was injected before clear_queue", () => {
    const c = queueRun("q2", { steer: true, followUp: true, clear: true }).get("cmd/clear-queue")!;
    expect(c.verdict, c.message).toBe("skip");
    expect(c.message).toBe("not applicable: every queued text had been injected before clear_queue was answered, so there was nothing left to clear");
  });

  /** The main upgrade and a foreign-Origin upgrade that the server accepted, on `host`. */
  function originRun(host: string) {
    let seq = 0;
    const url = `ws://${host}:4781/ws`;
    const events = [
      { seq: seq++, t: 1, probe: "upgrade", kind: "ws-open", connection: "w1", url, label: "main" },
      { seq: seq++, t: 2, probe: "upgrade", kind: "ws-open", connection: "w2", url, label: "upgrade:foreign-origin" },
      { seq: seq++, t: 3, probe: "upgrade", kind: "ws-close", connection: "w2", code: 1000, by: "kit" },
    ] as TranscriptEvent[];
    return evaluatePiWeb(events).get("conn/origin-403")!;
  }

  it("conn/origin-403: a server reached beyond loopback may accept any Origin", () => {
    const c = originRun("192.0.2.7");
    expect(c.verdict, c.message).toBe("skip");
    expect(c.message).toContain("not applicable: the server is reached at 192.0.2.7, not a loopback address");
    expect(originRun("127.0.0.1").outcome).toBe("fail");
  });

  it("event/error-run says what was not observed, not what a target cannot do", () => {
    const s = new PiWebScript();
    const user = userMessage("scenario:error Say hello.");
    s.ok(s.send("prompt:error", { type: "prompt", message: "scenario:error Say hello." }), "prompt");
    s.recv({ type: "agent_start" }).recv({ type: "message_start", message: user }).recv({ type: "message_end", message: user });
    const c = evaluatePiWeb(s.close()).get("event/error-run")!;
    expect(c.outcome).toBe("incomplete");
    expect(c.message).toBe('not exercised: no assistant message ended with stopReason "error": the prompt(s) meant to provoke one (prompt:error) did not all run to their end');
  });
});
