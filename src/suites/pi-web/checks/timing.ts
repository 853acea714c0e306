/** UI refresh: query commands answer fast, also during a run. */
import type { CheckDef } from "../../../core/checks/check.js";
import { readParams } from "../params.js";
import { all, frameEvidence, QUERY_COMMANDS, rpc, runViews, serverCheck, showCommand, where, type Command } from "./support.js";

export const TIMING_CHECKS: CheckDef[] = [
  serverCheck("pi-web/timing/query-latency", (t, ctx) => {
    const { queryLatencyMs } = readParams(ctx.params);
    const runs = runViews();
    const midRun = new Set<Command>();
    let mid = 0;
    let slowest = 0;
    const r = rpc({
      command: (cmd) => {
        if (QUERY_COMMANDS.has(cmd.type) && runs.view(cmd.conn.id).open) midRun.add(cmd);
      },
      response: (ev, _resp, cmd, how, c) => {
        if (!cmd || !QUERY_COMMANDS.has(cmd.type) || (how !== "exact" && how !== "inexact")) return;
        const ms = ev.t - cmd.frame.t;
        slowest = Math.max(slowest, ms);
        if (midRun.delete(cmd)) mid++;
        if (ms <= queryLatencyMs) t.ok();
        else t.failLate(ev.t, ms - queryLatencyMs, `an answer within ${queryLatencyMs} ms`, `${where(ev, c)}: ${showCommand(cmd)} took ${Math.round(ms)} ms`, frameEvidence(ev));
      },
    });
    return {
      observe: all(runs.observe, r.observe),
      finish: () => {
        r.end();
        return t.outcome(`${t.count} query command(s) answered within ${queryLatencyMs} ms (${mid} during a run; slowest ${Math.round(slowest)} ms)`, "no query command was answered");
      },
    };
  }),
];
