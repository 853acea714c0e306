/**
 * How the stagewise-chat checks read frames cheaply without reading them differently: Date paths found at the places
 * §2 gives them only, frames skipped only when they cannot name a createdAt, one Result per message for every check,
 * and batched calls made in order, all of them by the flush.
 */
import { describe, expect, it } from "vitest";
import { datedValueOf, datePaths, inBatches, mayCarryDates, resultOf, type DatedValue, type FrameEvent } from "../../../src/suites/stagewise-chat/checks/support.js";

const frame = (data: string): FrameEvent => ({ kind: "ws-frame", seq: 1, t: 1, probe: "p", connection: "w1", direction: "in", binary: false, data });

const DATE = "2025-08-08T10:00:00.000Z";
/** Free-form page data holding a key named createdAt (a plain string there is no Date of the contract). */
const PAGE = { ownProperties: { __reactProps: { createdAt: "2024-05-01" } }, attributes: { createdAt: "x" } };
const META = { currentUrl: null, selectedElements: [PAGE], createdAt: "y" };
const userMessage = { id: "m1", role: "user", createdAt: DATE, content: [{ type: "text", text: "createdAt" }], metadata: META };
const toolMessage = { id: "t1", role: "assistant", createdAt: DATE, content: [{ type: "tool-call", toolCallId: "c", toolName: "n", input: { createdAt: "z" } }] };

const TEXTS: [text: string, kind: DatedValue, paths: string[]][] = [
  [JSON.stringify({ id: "1", data: { type: "chat-list", chats: [{ id: "c1", createdAt: DATE, title: "a.b" }, { id: "c2", createdAt: DATE }] } }), "chat-event", ["data.chats.0.createdAt", "data.chats.1.createdAt"]],
  [
    JSON.stringify({ id: "2", data: { type: "chat-full-sync", chat: { id: "c1", createdAt: DATE, messages: [userMessage, toolMessage] } } }),
    "chat-event",
    ["data.chat.createdAt", "data.chat.messages.0.createdAt", "data.chat.messages.1.createdAt"],
  ],
  [JSON.stringify({ id: "3", data: { type: "chat-created", chat: { messages: [], createdAt: DATE } } }), "chat-event", ["data.chat.createdAt"]],
  [JSON.stringify({ id: "4", data: { type: "message-added", chatId: "c1", message: userMessage } }), "chat-event", ["data.message.createdAt"]],
  // Untracked (the update itself), as chat/seq-tracked fails it: its Dates are still read.
  [JSON.stringify({ type: "message-added", chatId: "c1", message: userMessage }), "chat-event", ["message.createdAt"]],
  ['{"id":"5","data":{"type":"message-added","chatId":"c1","message":{"created\\u0041t":"2025-08-08T10:00:00.000Z"}}}', "chat-event", ["data.message.createdAt"]],
  [JSON.stringify({ id: "6", data: { type: "message-updated", chatId: "c1", update: { content: { type: "tool-result", output: { createdAt: "q" } } } } }), "chat-event", []],
  [JSON.stringify({ id: "7", data: { type: "agent-state", isWorking: false } }), "chat-event", []],
  [JSON.stringify({ messageId: "m", updateParts: [], createdAt: DATE, resync: true }), "agent-message", ["createdAt"]],
  [JSON.stringify({ id: "u1", contentItems: [], createdAt: DATE, metadata: META, pluginContent: {}, sentByPlugin: false }), "user-message", ["createdAt"]],
  [JSON.stringify({ id: "u1", contentItems: [], metadata: META }), "user-message", []],
  [JSON.stringify([{ createdAt: DATE }]), "user-message", []],
];

describe("stagewise-chat frame reading", () => {
  it("finds the Date fields of §2 at their places, none in free-form page or tool data, and skips only frames that cannot name a createdAt", () => {
    for (const [text, kind, paths] of TEXTS) {
      expect(datePaths(JSON.parse(text), kind), text).toEqual(paths);
      if (paths.length) expect(mayCarryDates(frame(text))).toBe(true);
    }
    expect(datedValueOf("chat.getChatUpdates", "result")).toBe("chat-event");
    expect(datedValueOf("getChatUpdates", "result")).toBe("chat-event");
    expect(datedValueOf("messaging.getMessage", "result")).toBe("agent-message");
    expect(datedValueOf("messaging.sendUserMessage", "input")).toBe("user-message");
    expect(datedValueOf("chat.sendMessage", "input")).toBeUndefined();
    expect(datedValueOf("chat.sendMessage", "result")).toBeUndefined();
    expect(mayCarryDates(frame('{"json":{"type":"message-updated","update":{"content":{"type":"text","text":"hello"}}}}'))).toBe(false);
  });

  it("reads a message once for every check: the same Result, as a first reading gives it", () => {
    const a = JSON.parse('{"id":1,"result":{"type":"data","id":"4","data":{"json":{"id":"4","data":{"type":"agent-state","isWorking":true}}}}}') as Record<string, unknown>;
    const b = JSON.parse(JSON.stringify(a)) as Record<string, unknown>;
    const first = resultOf(a);
    expect(resultOf(a)).toBe(first);
    expect(resultOf(b)).not.toBe(first);
    expect(resultOf(b)).toEqual(first);
    expect(resultOf(a)).toEqual(first);
  });

  it("makes batched calls in order, a batch at a time, and the rest at the flush", () => {
    const seen: number[] = [];
    const b = inBatches((n: number) => void seen.push(n), 3);
    for (let i = 1; i <= 7; i++) b.add(i);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    b.flush();
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
    b.flush();
    expect(seen).toHaveLength(7);
  });
});
