/**
 * A history the server controls can hold thousands of entries: the rules that list entries, turns, tool names or a
 * call's problems name the first few and count the rest, so a message stays short however long the history.
 */
import { describe, expect, it } from "vitest";
import { cn, CrScript, judge, says, seed, start, user } from "./synthetic.js";

const N = 10_000;
const verdict = (s: CrScript, id: string, profile: "seed" | "cn-session" = "seed") => {
  const c = judge(s, profile).get(id)!;
  return { v: c.verdict, m: c.message };
};

describe("continue-remote messages over long histories", () => {
  it("stream/single-last names the first five streaming entries", () => {
    const s = new CrScript().poll(seed([user("hi"), ...Array.from({ length: N }, (_, i) => says(`part ${i}`, true))], true));
    const r = verdict(s, "stream/single-last");
    expect(r.v).toBe("fail");
    expect(r.m).toMatch(/: streaming entries 1 \(assistant\), 2 \(assistant\), 3 \(assistant\), 4 \(assistant\), 5 \(assistant\), … and 9995 more$/);
    expect(r.m.length).toBeLessThan(500);
  });

  it("stream/single-last lists two streaming entries whole, as before", () => {
    const s = new CrScript().poll(seed([user("hi"), says("a", true), says("b", true)], true));
    expect(verdict(s, "stream/single-last").m).toMatch(/: streaming entries 1 \(assistant\), 2 \(assistant\)$/);
  });

  it("tools/name-map names the first five tools outside its table", () => {
    const starts = Array.from({ length: N }, (_, i) => ({ ...start(), content: `○ Tool${i}(x)`, toolName: `tool_${i}` }));
    const s = new CrScript().poll(seed([user("hi"), ...starts], true)).poll(seed([user("hi"), ...starts, says("done")], false));
    const r = verdict(s, "tools/name-map");
    expect(r.m).toMatch(/; outside the table: Tool0 → tool_0, Tool1 → tool_1, Tool2 → tool_2, Tool3 → tool_3, Tool4 → tool_4, … and 9995 more$/);
    expect(r.m.length).toBeLessThan(500);
  });

  it("queue/will-interrupt-honoured names the first five entries the interrupted turn appended", () => {
    const more = Array.from({ length: N }, (_, i) => says(`More ${i}.`));
    const s = new CrScript()
      .poll(seed([user("hi"), says("Hel", true)], true))
      .post("interrupt", "stop", { queued: true, position: 1, willInterrupt: true }, true)
      .poll(seed([user("hi"), says("Hello")], true))
      .poll(seed([user("hi"), says("Hello"), ...more, user("stop")], true));
    const r = verdict(s, "queue/will-interrupt-honoured");
    expect(r.v).toBe("warn");
    expect(r.m).toMatch(/the turn appended assistant More 0\., assistant More 1\., assistant More 2\., assistant More 3\., assistant More 4\., … and 9995 more before the new message ran$/);
    expect(r.m.length).toBeLessThan(500);
  });

  it("timing/intermediate-visible names the first five turns", () => {
    const turns = Array.from({ length: N }, (_, i) => [user(`q${i}`), says(`a${i}`)]).flat();
    const s = new CrScript().poll(seed(turns, false), "idle").poll(seed(turns, false), "idle");
    const r = verdict(s, "timing/intermediate-visible");
    expect(r.m).toBe(`0 of ${N} turn(s) showed an intermediate state (streaming, tool-start, generated/calling, permission) to the poller (turn at 0: none; turn at 2: none; turn at 4: none; turn at 6: none; turn at 8: none; … and ${N - 5} more)`);
  });

  it("session/tool-state-per-call names the first five problems of an item", () => {
    const calls = Array.from({ length: N }, (_, i) => ({ id: `c${i}`, type: "function", function: { name: "Read", arguments: "{}" } }));
    const item = { message: { role: "assistant", content: "", toolCalls: calls }, contextItems: [], toolCallStates: [] };
    const s = new CrScript().poll(cn([item], false));
    const r = verdict(s, "session/tool-state-per-call", "cn-session");
    expect(r.v).toBe("fail");
    expect(r.m).toMatch(/: item 0: call c0 has 0 state\(s\), call c1 has 0 state\(s\), call c2 has 0 state\(s\), call c3 has 0 state\(s\), call c4 has 0 state\(s\), … and 9995 more$/);
    expect(r.m.length).toBeLessThan(500);
  });

  it("session/tool-state-per-call pairs an item's calls with its states in time that grows with their number, not with its square", { timeout: 120_000 }, () => {
    const cpuMs = (n: number) => {
      const ids = Array.from({ length: n }, (_, i) => `c${i}`);
      const call = (id: string) => ({ id, type: "function", function: { name: "Read", arguments: "{}" } });
      const item = { message: { role: "assistant", content: "", toolCalls: ids.map(call) }, contextItems: [], toolCallStates: ids.map((id) => ({ toolCallId: id, toolCall: call(id), status: "done", parsedArgs: {} })) };
      const s = new CrScript().poll(cn([item], false));
      const before = process.cpuUsage();
      const r = judge(s, "cn-session").get("session/tool-state-per-call")!;
      const spent = process.cpuUsage(before);
      expect(r.verdict).toBe("pass");
      return (spent.user + spent.system) / 1000;
    };
    cpuMs(1_000);
    const small = cpuMs(1_000);
    const large = cpuMs(8_000);
    // 8 times the calls: about 8 times the work when linear, 64 times when each call searches every state (or
    // excerpts the whole item for its evidence).
    expect(large, `${Math.round(large)} ms for 8,000 calls, ${Math.round(small)} ms for 1,000`).toBeLessThan(24 * small + 100);
  });
});
