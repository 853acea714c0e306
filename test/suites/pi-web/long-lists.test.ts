/**
 * What a server makes up can be as long as its stream: new event types, new roles, blocks left open. The reports
 * name a few and count the rest, and an update that asks for the first open block costs the same however many there
 * are.
 */
import { describe, expect, it } from "vitest";
import { PI_WEB_SERVER_CHECKS } from "../../../src/suites/pi-web/checks/index.js";
import { partialAssistant, PiWebScript } from "../../helpers/pi-web-synthetic.js";
import { byShortId, judge, Transcript } from "../../helpers/synthetic-transcript.js";

const N = 10_000;

describe("pi-web reports over what the server made up", () => {
  it("fanout/broadcast counts the first sixteen event types by name and the rest together", () => {
    const s = new Transcript().open("w1", "main").open("w2", "passive");
    for (let i = 0; i < N; i++) s.recv("w1", { type: `made_up_${i}` }).recv("w2", { type: `made_up_${i}` });
    const r = byShortId(judge(PI_WEB_SERVER_CHECKS, s.close("w1").close("w2").events)).get("fanout/broadcast")!;
    const named = Array.from({ length: 16 }, (_, i) => `made_up_${i} ×1`).join(", ");
    expect(r.message).toBe(`the passive client received the same ${N} event(s) in order (${named}, … and ${N - 16} more of other types)`);
  });

  it("history/message-shapes counts the first sixteen unknown roles by name and the rest together", () => {
    const s = new PiWebScript();
    const messages = Array.from({ length: N }, (_, i) => ({ role: `role_${i}`, content: [] }));
    s.ok(s.send("history:text", { type: "get_messages" }), "get_messages", { messages });
    const r = byShortId(judge(PI_WEB_SERVER_CHECKS, s.close())).get("history/message-shapes")!;
    const named = Array.from({ length: 16 }, (_, i) => `role_${i} ×1`).join(", ");
    expect(r.message).toBe(`1 history read(s), ${N} message(s), well formed; other roles reported: ${named}, … and ${N - 16} more of other roles`);
  });

  it("history/message-shapes names a few unknown roles whole, as before", () => {
    const s = new PiWebScript();
    s.ok(s.send("history:text", { type: "get_messages" }), "get_messages", { messages: [{ role: "bash", content: [] }, { role: "bash", content: [] }, { role: "custom", content: [] }] });
    expect(byShortId(judge(PI_WEB_SERVER_CHECKS, s.close())).get("history/message-shapes")!.message).toBe("1 history read(s), 3 message(s), well formed; other roles reported: bash ×2, custom ×1");
  });

  it('a "done" with blocks open costs the same with 100,000 blocks as with 1,000', { timeout: 120_000 }, () => {
    /** `blocks` text blocks started and never ended, then `dones` "done" updates: the CPU time of judging it all, less the blocks alone. */
    const cpuMs = (blocks: number, dones: number) => {
      const s = new PiWebScript().recv({ type: "agent_start" }).recv({ type: "message_start", message: partialAssistant });
      const update = (e: object) => s.recv({ type: "message_update", message: partialAssistant, assistantMessageEvent: e });
      for (let i = 0; i < blocks; i++) update({ type: "text_start", contentIndex: i });
      for (let i = 0; i < dones; i++) update({ type: "done", reason: "stop" });
      const events = s.close();
      const before = process.cpuUsage();
      const r = byShortId(judge(PI_WEB_SERVER_CHECKS, events));
      const spent = process.cpuUsage(before);
      return { ms: (spent.user + spent.system) / 1000, grammar: r.get("stream/block-grammar")! };
    };
    cpuMs(1_000, 100);
    const few = cpuMs(1_000, 2_000).ms - cpuMs(1_000, 0).ms;
    const manyRun = cpuMs(100_000, 2_000);
    const many = manyRun.ms - cpuMs(100_000, 0).ms;
    // Each "done" once listed every block to find the open ones.
    expect(many, `2,000 "done" updates: ${Math.round(many)} ms with 100,000 blocks open, ${Math.round(few)} ms with 1,000`).toBeLessThan(4 * Math.max(few, 10) + 500);
    expect(manyRun.grammar.message).toMatch(/with block 0 open \(2000 violations, first shown\)$/);
  });

  it("a block started twice and then ended is not reported open by the later updates", () => {
    const s = new PiWebScript().recv({ type: "agent_start" }).recv({ type: "message_start", message: partialAssistant });
    const update = (e: object) => s.recv({ type: "message_update", message: partialAssistant, assistantMessageEvent: e });
    update({ type: "text_start", contentIndex: 0 });
    update({ type: "text_start", contentIndex: 0 });
    update({ type: "text_end", contentIndex: 0, content: "" });
    update({ type: "done", reason: "stop" });
    s.recv({ type: "message_end", message: { ...partialAssistant, content: [{ type: "text", text: "" }] } });
    const grammar = byShortId(judge(PI_WEB_SERVER_CHECKS, s.close())).get("stream/block-grammar")!;
    expect(grammar.verdict).toBe("fail");
    expect(grammar.message).toContain("starts block 0 again");
    // One violation: the second start. The block it started ended, so neither "done" nor message_end finds one open.
    expect(grammar.message).not.toMatch(/violations/);
  });
});
