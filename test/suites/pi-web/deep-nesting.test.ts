/**
 * Frames nested deeper than the call stack goes (10,000 levels in 60 KB): the checks that compare and show them
 * judge them like any other, and none of them crashes.
 */
import { describe, expect, it } from "vitest";
import { PI_WEB_SERVER_CHECKS } from "../../../src/suites/pi-web/checks/index.js";
import { assistantText, userMessage } from "../../helpers/pi-web-synthetic.js";
import { byShortId, judge, Transcript } from "../../helpers/synthetic-transcript.js";

const LEVELS = 10_000;
const deep = (leaf: string) => `${'{"a":'.repeat(LEVELS)}${leaf}${"}".repeat(LEVELS)}`;
/** A frame's text with the string "@DEEP@" replaced by a deep value (JSON.stringify could not write it). */
const withDeep = (frame: unknown, leaf: string) => JSON.stringify(frame).replace('"@DEEP@"', deep(leaf));

describe("pi-web frames nested 10,000 levels deep", () => {
  it("event/extras-consistent reports agent_end.messages differing too deep to compare, and no check crashes", () => {
    const s = new Transcript().open("w1", "main");
    s.send("w1", "prompt:hello", { id: "aw-1", type: "prompt", message: "hello" });
    s.recv("w1", { type: "response", id: "aw-1", command: "prompt", success: true });
    const user = userMessage("hello");
    const reply = { ...assistantText("Hello."), details: "@DEEP@" };
    s.recv("w1", { type: "agent_start" }).recv("w1", { type: "turn_start" });
    s.recv("w1", { type: "message_start", message: user }).recv("w1", { type: "message_end", message: user });
    s.recv("w1", withDeep({ type: "message_start", message: reply }, "1")).recv("w1", withDeep({ type: "message_end", message: reply }, "1"));
    s.recv("w1", withDeep({ type: "turn_end", message: reply, toolResults: [] }, "1"));
    s.recv("w1", withDeep({ type: "agent_end", messages: [user, reply] }, "2"));
    const results = judge(PI_WEB_SERVER_CHECKS, s.close("w1").events);
    expect(results.filter((c) => c.message.startsWith("internal error")).map((c) => `${c.id}: ${c.message.slice(0, 200)}`)).toEqual([]);
    expect(results.filter((c) => /Maximum call stack|\n\s+at /.test(JSON.stringify(c))).map((c) => c.id)).toEqual([]);
    const extras = byShortId(results).get("event/extras-consistent")!;
    expect(extras.outcome).toBe("fail");
    expect(extras.message).toContain("nested deeper than 1000 levels to compare");
  });
});
