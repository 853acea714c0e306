/** The optional non-streaming POST /chat. */
import { notApplicable, type CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { L, NOTE } from "../labels.js";
import { all, describe, evidenceOf, hasDetail, judgeExchanges, onNote, serverCheck } from "./support.js";

export const CHAT_SYNC_CHECKS: CheckDef[] = [
  serverCheck("mcp-chat/chat-sync/shape", (t, ctx) => {
    let absent: number | undefined;
    let present: number | undefined;
    const observe = all(
      onNote(NOTE.chatSync, (v) => {
        const { present: p, status } = v as { present: boolean; status: number | null };
        if (!p && status !== null) absent = status;
        if (p && status !== null) present = status;
      }),
      judgeExchanges(t, (x) => x.label === L.chatSync, (x) => {
        // A 5xx {detail} is how the contract reports a failed chat (errors/detail-shape judges
        // its body): like a stream that ends with [ERROR], there is no answer to judge.
        if (x.status! >= 500 && hasDetail(x)) return t.untestable(`${describe(x)}: the chat failed, so there was no answer to judge`);
        const r = x.status === 200 && x.isJson ? ctx.validate("chat-response", x.json) : undefined;
        if (r?.ok) t.ok();
        else t.fail("200 {response: string, tool_calls: [{name, args, result?}]}", `${describe(x)}${r ? `: ${formatSchemaErrors(r.errors)}` : ""}`, evidenceOf(x));
      }),
    );
    return {
      observe,
      finish: () => {
        if (absent !== undefined && !t.wasExercised) return notApplicable(`POST /chat is absent (${absent} to {}), which the contract allows`);
        // Accepting {} is chat/bad-input-4xx's failure; the kit then spends no model call on /chat.
        if (present !== undefined && present < 400) t.knockOn("mcp-chat/chat/bad-input-4xx", `POST /chat {} (${present})`);
        return t.outcome("POST /chat answered a valid ChatResponse", "POST /chat was not probed");
      },
    };
  }),
];
