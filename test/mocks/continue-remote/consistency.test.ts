/** The §3.17 judge the mock tests rely on must itself reject what the rules forbid. */
import { describe, expect, it } from "vitest";
import { expectConsistent, type Json } from "./helpers.js";

const seed = (chatHistory: Json[], isProcessing = true): Json => ({ chatHistory, isProcessing });
const user = { role: "user", content: "hi" };
const start = { role: "system", content: "○ Read(a.md)", messageType: "tool-start", toolName: "read_file" };
const result = { role: "system", content: "● Read(a.md)", messageType: "tool-result", toolName: "read_file", toolResult: "x" };

describe("the §3.17 judge", () => {
  it("accepts growth by appending, a finalised stream and a start resolved in place", () => {
    expectConsistent(seed([user, { role: "assistant", content: "He", isStreaming: true }]), seed([user, { role: "assistant", content: "Hello", isStreaming: true }]), "seed");
    expectConsistent(seed([user, { role: "assistant", content: "He", isStreaming: true }]), seed([user, { role: "assistant", content: "Hello" }], false), "seed");
    expectConsistent(seed([user, start]), seed([user, result]), "seed");
  });

  it("rejects a shrink, a rewritten stream, a changed frozen entry, two streams, an unresolved start while idle", () => {
    const stream = (content: string) => ({ role: "assistant", content, isStreaming: true });
    expect(() => expectConsistent(seed([user, start]), seed([user]), "seed")).toThrow();
    expect(() => expectConsistent(seed([user, stream("Hello")]), seed([user, stream("Help")]), "seed")).toThrow();
    expect(() => expectConsistent(seed([user, result]), seed([{ ...user, content: "ho" }, result]), "seed")).toThrow();
    expect(() => expectConsistent(seed([user]), seed([user, stream("a"), stream("b")]), "seed")).toThrow();
    expect(() => expectConsistent(seed([user]), seed([user, start], false), "seed")).toThrow();
    expect(() => expectConsistent(seed([user, start]), seed([user, { ...result, toolName: "write_file" }]), "seed")).toThrow();
  });

  it("cn: rejects a status going back and a changed message", () => {
    const call = { id: "call_1", type: "function", function: { name: "Read", arguments: "{}" } };
    const item = (status: string, content = "") => ({
      message: { role: "assistant", content, toolCalls: [call] },
      contextItems: [],
      toolCallStates: [{ toolCallId: "call_1", toolCall: call, status, parsedArgs: {} }],
    });
    const cn = (history: Json[]): Json => ({
      session: { sessionId: "s", title: "", workspaceDirectory: "/", history },
      isProcessing: true,
      messageQueueLength: 0,
      pendingPermission: null,
    });
    expectConsistent(cn([item("generated")]), cn([item("calling")]), "cn-session");
    expect(() => expectConsistent(cn([item("done")]), cn([item("calling")]), "cn-session")).toThrow();
    expect(() => expectConsistent(cn([item("calling")]), cn([item("calling", "changed")]), "cn-session")).toThrow();
  });
});
