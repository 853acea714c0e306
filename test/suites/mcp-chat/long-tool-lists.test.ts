/**
 * A server may list tens of thousands of tools: the status and state rules compare the lists in time proportional to
 * their length, and their messages name the first few tools and count the rest.
 */
import { describe, expect, it } from "vitest";
import { MCP_CHAT_SERVER_CHECKS } from "../../../src/suites/mcp-chat/checks/index.js";
import { byShortId, judge, Transcript } from "../../helpers/synthetic-transcript.js";

const N = 20_000;
const tools = (prefix: string, n = N) => Array.from({ length: n }, (_, i) => ({ name: `${prefix}_${String(i).padStart(5, "0")}`, description: "d" }));
const connect = (label: string, id: string, list: object[]) => ({ label, method: "POST", path: `/connect/${id}`, response: { server_id: id, server_name: id, tools: list } });
const status = (label: string, id: string | null, list: object[]) => ({ label, method: "GET", path: "/status", response: { connected: id !== null, server_id: id, tools: list } });

const judged = (build: (t: Transcript) => Transcript) => byShortId(judge(MCP_CHAT_SERVER_CHECKS, build(new Transcript()).events));

describe("mcp-chat status and state rules with long tool lists", () => {
  it("status/connected-shape names the first ten tools of each list", { timeout: 60_000 }, () => {
    const r = judged((t) => t.json(connect("connect", "fs", tools("a"))).json(status("status-after-connect", "fs", tools("b"))));
    const shape = r.get("status/connected-shape")!;
    expect(shape.verdict).toBe("fail");
    expect(shape.message).toBe(`status-after-connect: tools are [b_00000, b_00001, b_00002, b_00003, b_00004, b_00005, b_00006, b_00007, b_00008, b_00009, … and ${N - 10} more] but the connect returned [a_00000, a_00001, a_00002, a_00003, a_00004, a_00005, a_00006, a_00007, a_00008, a_00009, … and ${N - 10} more]`);
    expect(shape.expected).toBe(`200 {connected: true, server_id: "fs", tools: [a_00000, a_00001, a_00002, a_00003, a_00004, a_00005, a_00006, a_00007, a_00008, a_00009, … and ${N - 10} more]}`);
  });

  it("state/single-connection names the first ten tools left over", { timeout: 60_000 }, () => {
    const r = judged((t) => t.json(connect("connect", "fs", tools("a"))).json(connect("connect-b", "git", tools("b"))).json(status("status-after-connect-b", "git", [...tools("b"), ...tools("a")])));
    const single = r.get("state/single-connection")!;
    expect(single.verdict).toBe("fail");
    expect(single.message).toBe(`after connecting "fs" then "git": tools still include [a_00000, a_00001, a_00002, a_00003, a_00004, a_00005, a_00006, a_00007, a_00008, a_00009, … and ${N - 10} more] from "fs"`);
  });

  it("connect/unknown-id-keeps-state shows the first ten tools of each status", { timeout: 60_000 }, () => {
    const r = judged((t) =>
      t
        .json(connect("connect", "fs", tools("a")))
        .json(status("status-after-connect", "fs", tools("a")))
        .json({ label: "connect-unknown", method: "POST", path: "/connect/nope", status: 404, response: { detail: "unknown" } })
        .json(status("status-after-unknown", "fs", tools("c"))),
    );
    const keeps = r.get("connect/unknown-id-keeps-state")!;
    expect(keeps.verdict).toBe("warn");
    const first = (p: string) => `${Array.from({ length: 10 }, (_, i) => `${p}_0000${i}`).join(", ")}, … and ${N - 10} more`;
    expect(keeps.message).toBe(`after the rejected connect GET /status says connected to "fs" with tools [${first("c")}]`);
    expect(keeps.expected).toBe(`still connected to "fs" with tools [${first("a")}]`);
  });

  it("compares the lists in time that grows with their length, not with its square", { timeout: 120_000 }, () => {
    // Two servers' tools, then a status showing both: the status and state rules each match the three lists.
    const cpuMs = (n: number) => {
      const t = new Transcript().json(connect("connect", "fs", tools("a", n))).json(connect("connect-b", "git", tools("b", n))).json(status("status-after-connect-b", "git", [...tools("b", n), ...tools("a", n)]));
      const before = process.cpuUsage();
      const r = byShortId(judge(MCP_CHAT_SERVER_CHECKS, t.events));
      const spent = process.cpuUsage(before);
      expect(r.get("state/single-connection")!.verdict).toBe("fail");
      return (spent.user + spent.system) / 1000;
    };
    cpuMs(2_500);
    const small = cpuMs(2_500);
    const large = cpuMs(40_000);
    // 16 times the tools: about 16 times the work when linear, 256 times when each list is searched for each tool.
    expect(large, `${Math.round(large)} ms for 40,000 tools a list, ${Math.round(small)} ms for 2,500`).toBeLessThan(64 * small + 100);
  });

  it("a short list is named whole, as before", () => {
    const r = judged((t) => t.json(connect("connect", "fs", tools("a", 2))).json(status("status-after-connect", "fs", tools("b", 1))));
    expect(r.get("status/connected-shape")).toMatchObject({ message: "status-after-connect: tools are [b_00000] but the connect returned [a_00000, a_00001]", expected: '200 {connected: true, server_id: "fs", tools: [a_00000, a_00001]}' });
  });
});
