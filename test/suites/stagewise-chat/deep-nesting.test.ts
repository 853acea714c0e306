/**
 * A server's frames may nest deeper than the call stack goes (10,000 levels in 60 KB): the checks that compare,
 * search and show them judge such frames like any other, and none of them crashes.
 */
import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../../src/core/verdicts/result.js";
import { STAGEWISE_SERVER_CHECKS } from "../../../src/suites/stagewise-chat/checks/index.js";
import { assistant, chat, SwScript } from "../../helpers/stagewise-synthetic.js";
import { byShortId, judge } from "../../helpers/synthetic-transcript.js";

const A = 1;
const B = 2;
const LEVELS = 10_000;
const deep = (leaf: string) => `${'{"a":'.repeat(LEVELS)}${leaf}${"}".repeat(LEVELS)}`;
/** A frame's text with the string "@DEEP@" replaced by a deep value (JSON.stringify could not write it). */
const withDeep = (frame: unknown, leaf: string) => JSON.stringify(frame).replace('"@DEEP@"', deep(leaf));
const tracked = (sub: number, seq: number, update: unknown) => ({ id: sub, result: { type: "data", id: String(seq), data: { json: { id: String(seq), data: update } } } });

function noCrash(results: CheckResult[]): void {
  expect(results.filter((c) => c.message.startsWith("internal error")).map((c) => `${c.id}: ${c.message.slice(0, 200)}`)).toEqual([]);
  const traced = results.filter((c) => /Maximum call stack|\n\s+at /.test(JSON.stringify(c)));
  expect(traced.map((c) => `${c.id}: ${c.message.slice(0, 300)} ${JSON.stringify(c.evidence).slice(0, 300)}`)).toEqual([]);
}

describe("stagewise-chat frames nested 10,000 levels deep", () => {
  it("chat/snapshot-equals-reduced finds where a deep part differs from what A reduced", () => {
    const part = { type: "text", text: "Hello", providerMetadata: "@DEEP@" };
    const s = new SwScript().open("w1", "main").subscribe("w1", "sub:chat:A", A).snapshot("w1", A, 3, [chat("c1", true)]);
    s.recv("w1", withDeep(tracked(A, 4, { type: "message-added", chatId: "c1", message: assistant("a1", [part]) }), "1"));
    s.open("w2", "fresh").subscribe("w2", "sub:chat:B:after-turn", B);
    s.tracked("w2", B, 4, { type: "chat-list", chats: [{ id: "c1", title: "New chat", createdAt: "2025-08-08T10:00:00.000Z", isActive: true, messageCount: 1 }] });
    s.recv("w2", withDeep(tracked(B, 4, { type: "chat-full-sync", chat: chat("c1", true, [assistant("a1", [part])]) }), "2"));
    s.tracked("w2", B, 4, { type: "agent-state", isWorking: false });
    const results = judge(STAGEWISE_SERVER_CHECKS, s.wait(1_000).events);
    noCrash(results);
    const c = byShortId(results).get("chat/snapshot-equals-reduced")!;
    expect(c.verdict).toBe("fail");
    expect(c.message).toContain("/messages/0/content/0/providerMetadata/a/a/a");
  });

  it("chat/seq-global tells apart two different deep updates under one id", () => {
    const s = new SwScript().open("w1", "main").subscribe("w1", "sub:chat:A", A).snapshot("w1", A, 3, [chat("c1", true)]);
    s.open("w2", "fresh").subscribe("w2", "sub:chat:B", B).snapshot("w2", B, 3, [chat("c1", true)]);
    const added = { type: "message-added", chatId: "c1", message: assistant("a1", [{ type: "text", text: "x", providerMetadata: "@DEEP@" }]) };
    s.recv("w1", withDeep(tracked(A, 4, added), "1"));
    s.recv("w2", withDeep(tracked(B, 4, added), "2"));
    const results = judge(STAGEWISE_SERVER_CHECKS, s.wait(1_000).events);
    noCrash(results);
    expect(byShortId(results).get("chat/seq-global")!.verdict).toBe("fail");
  });

  it("chat/send-message compares a deep echo, and a deep date is found", () => {
    const s = new SwScript().open("w1", "main").subscribe("w1", "sub:chat:A", A).snapshot("w1", A, 3, [chat("c1", true)]);
    const message = { id: "u1", role: "user", createdAt: "2025-08-08T10:00:00.000Z", content: [{ type: "text", text: "hi" }], metadata: "@DEEP@" };
    s.send("w1", "send-message", withDeep({ id: 9, method: "mutation", params: { path: "messaging.sendUserMessage", input: { json: message } } }, '{"createdAt":"x"}'));
    s.answer("w1", 9, null);
    s.recv("w1", withDeep(tracked(A, 4, { type: "message-added", chatId: "c1", message }), '{"createdAt":"y"}'));
    const results = judge(STAGEWISE_SERVER_CHECKS, s.wait(1_000).events);
    noCrash(results);
  });
});
