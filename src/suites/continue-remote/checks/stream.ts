/** §3.7 Streaming (seed): one streaming entry, last, growing by appending. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { listFirst } from "../../../core/list-text.js";
import { onStates, sameEntry, serverCheck, stateEvidence, where } from "./support.js";

export const STREAM_CHECKS: CheckDef[] = [
  serverCheck("continue-remote/stream/single-last", { only: "seed" }, (t, ctx) => {
    const observe = onStates(ctx, {
      state(next) {
        const streaming = next.entries.filter((e) => e.streaming);
        if (streaming.length === 0) return;
        const last = next.entries.length - 1;
        const bad = streaming.find((e) => e.index !== last || e.role !== "assistant");
        if (streaming.length > 1 || bad) {
          const what = listFirst(streaming, (e) => `${e.index} (${excerpt(e.role)})`);
          t.fail(
            `one streaming entry, the last (${last}), role assistant`,
            `${where(next)}: streaming entries ${what}`,
            stateEvidence(next, (bad ?? streaming[1] ?? streaming[0])!.raw),
          );
        } else t.ok();
      },
    });
    return {
      observe,
      finish: () => t.outcome(`${t.count} snapshot(s) with a streaming entry showed one, last, assistant`, "no snapshot showed a streaming entry"),
    };
  }),
  serverCheck("continue-remote/stream/grows-by-append", { only: "seed" }, (t, ctx) => {
    const observe = onStates(ctx, {
      state(next, prev) {
        if (!prev) return;
        for (const p of prev.entries) {
          const n = next.entries[p.index];
          if (!n) continue;
          // A streaming entry replaced by another kind (dropped after an interrupt) is poll/append-only's to judge.
          if (p.streaming && n.role !== p.role) continue;
          if (p.streaming) {
            if (n.content.startsWith(p.content)) t.ok();
            else if (prev.entries.some((o) => o !== p && sameEntry(o, n)))
              // Another entry moved here: a reorder, which poll/append-only judges.
              t.knockOn("continue-remote/poll/append-only", `${where(next)}, entry ${p.index}`);
            else
              t.fail(
                `entry ${p.index} extending ${JSON.stringify(p.content.slice(-40))}`,
                `${where(next)}: entry ${p.index} became ${JSON.stringify(n.content.slice(0, 60))} (was ${JSON.stringify(p.content.slice(0, 60))} at ${where(prev)})`,
                stateEvidence(next, n.raw),
              );
          } else if (n.streaming && n.role === p.role) {
            t.fail(
              `entry ${p.index} to stay finalised`,
              `${where(next)}: entry ${p.index} streams again (it did not at ${where(prev)})`,
              stateEvidence(next, n.raw),
            );
          }
        }
      },
    });
    return { observe, finish: () => t.outcome(`${t.count} streaming step(s) extended their text`, "no streaming entry was seen across two polls") };
  }),
];
