/** EdgeRaces: an answer against the run state is excused only by its edge right behind it. */
import { describe, expect, it } from "vitest";
import { EdgeRaces } from "../../../src/suites/pi-web/checks/support.js";

function held(edge: "agent_start" | "agent_end", then: [string, number][], end = "transcript") {
  const races = new EdgeRaces();
  const verdicts: boolean[] = [];
  races.hold("c1", edge, 100, (raced) => verdicts.push(raced));
  for (const [type, t] of then) races.event("c1", type, t);
  if (end === "close") races.close("c1");
  else races.end();
  return verdicts;
}

describe("EdgeRaces", () => {
  it("the edge right behind the answer: raced; closing events in between decide nothing", () => {
    expect(held("agent_end", [["agent_end", 120]])).toEqual([true]);
    expect(held("agent_end", [["message_end", 105], ["turn_end", 106], ["agent_end", 110]])).toEqual([true]);
    expect(held("agent_start", [["queue_update", 150], ["agent_start", 300]])).toEqual([true]);
  });

  it("a run still producing, an edge long after, a close or the end: the answer stands", () => {
    expect(held("agent_end", [["message_update", 110], ["agent_end", 120]])).toEqual([false]);
    expect(held("agent_end", [["tool_execution_start", 110]])).toEqual([false]);
    expect(held("agent_end", [["agent_end", 100 + 5_000]])).toEqual([false]);
    expect(held("agent_start", [["agent_start", 100 + 5_000]])).toEqual([false]);
    expect(held("agent_end", [], "close")).toEqual([false]);
    expect(held("agent_end", [])).toEqual([false]);
  });

  it("an agent_start after the kit's own prompt is the kit's doing, no race", () => {
    const races = new EdgeRaces();
    const verdicts: boolean[] = [];
    races.hold("c1", "agent_start", 100, (r) => verdicts.push(r));
    races.command("c1", "get_state");
    races.command("c2", "prompt");
    expect(verdicts).toEqual([]);
    races.command("c1", "prompt");
    races.event("c1", "agent_start", 150);
    expect(verdicts).toEqual([false]);
  });

  it("judges each held answer once, and only on its own connection", () => {
    const races = new EdgeRaces();
    const verdicts: string[] = [];
    races.hold("c1", "agent_end", 0, (r) => verdicts.push(`c1 ${r}`));
    races.hold("c2", "agent_end", 0, (r) => verdicts.push(`c2 ${r}`));
    races.event("c2", "message_update", 10);
    races.event("c1", "agent_end", 20);
    races.event("c1", "agent_end", 30);
    races.end();
    expect(verdicts).toEqual(["c2 false", "c1 true"]);
  });
});
