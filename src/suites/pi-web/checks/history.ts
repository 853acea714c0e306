/** History Message Types: what get_messages returns. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { KeyCounts } from "../../../core/checks/key-counts.js";
import { frameEvidence, isObject, rpc, serverCheck, showCommand, toolCalls, where } from "./support.js";

const KNOWN_ROLES: ReadonlySet<string> = new Set(["user", "assistant", "toolResult"]);

export const HISTORY_CHECKS: CheckDef[] = [
  serverCheck("pi-web/history/message-shapes", (t) => {
    // Roles the server made up: at most sixteen by name, however many it sends.
    const others = new KeyCounts("roles");
    let messages = 0;
    const r = rpc({
      response: (ev, resp, cmd, how, c) => {
        if (cmd?.type !== "get_messages" || (how !== "exact" && how !== "inexact") || resp.success !== true) return;
        const list = isObject(resp.data) ? resp.data.messages : undefined;
        if (!Array.isArray(list)) return; // rpc/result-shape
        const calls = new Set<string>();
        let bad: string | undefined;
        for (const [i, m] of list.entries()) {
          messages++;
          if (!isObject(m)) continue;
          const role = m.role;
          if (typeof role !== "string") continue;
          if (!KNOWN_ROLES.has(role)) others.add(role);
          if (role === "assistant") for (const call of toolCalls(m)) if (typeof call.id === "string") calls.add(call.id);
          if (role === "toolResult" && !bad && (typeof m.toolCallId !== "string" || !calls.has(m.toolCallId))) {
            bad = `message #${i} is a toolResult for ${excerpt(m.toolCallId)}, which no earlier assistant message called`;
          }
        }
        if (bad) t.fail("each toolResult after the toolCall it answers", `${where(ev, c)} to ${showCommand(cmd)}: ${bad}`, frameEvidence(ev));
        else t.ok();
      },
    });
    return {
      observe: r.observe,
      finish: () => {
        r.end();
        const extra = others.size ? `; other roles reported: ${others.text()}` : "";
        return t.outcome(`${t.count} history read(s), ${messages} message(s), well formed${extra}`, "no history was read");
      },
    };
  }),
];
