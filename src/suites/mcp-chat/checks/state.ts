/** The single global connection: switching servers and reconnecting the connected one. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { L } from "../labels.js";
import { all, connectView, unanswered, describe, evidenceOf, isObject, judgeExchanges, onExchanges, sameStatus, serverCheck, showStatus, showTools, statusView, toolNames, type StatusView } from "./support.js";

export const STATE_CHECKS: CheckDef[] = [
  serverCheck("mcp-chat/state/single-connection", { notApplicableWhen: ["second-server"] }, (t) => {
    let a: { id: string; tools: string[] } | undefined;
    let b: { id: string; tools: string[] } | undefined;
    // An answered connect that did not succeed with a tools array: connect/success-shape's failure.
    let refused: string | undefined;
    const observe = all(
      onExchanges((x) => {
        if (x.label !== L.connect && x.label !== L.connectB) return;
        const c = connectView(x);
        const v = c?.tools ? { id: c.id, tools: c.tools } : undefined;
        if (x.label === L.connect) a = v;
        if (x.label === L.connectB) b = v;
        if (!v && !unanswered(x)) refused ??= `${x.method} ${x.path}`;
      }),
      judgeExchanges(t, (x) => x.label === L.statusAfterConnectB, (x) => {
        if (!a || !b) {
          if (refused) t.knockOn("mcp-chat/connect/success-shape", refused);
          else t.untestable("connecting the first and the second listed server did not both succeed");
          return;
        }
        const expected = `server_id ${JSON.stringify(b.id)} and no tool of ${JSON.stringify(a.id)} that ${JSON.stringify(b.id)} lacks`;
        const body = isObject(x.json) ? x.json : undefined;
        const names = toolNames(body?.tools);
        if (x.status !== 200 || !body || !names) {
          t.fail(expected, `${describe(x)}: no readable status`, evidenceOf(x));
          return;
        }
        // Sets: lists of thousands of tools would cost their product.
        const ofB = new Set(b.tools);
        const shown = new Set(names);
        const leftovers = a.tools.filter((n) => !ofB.has(n) && shown.has(n));
        const wrong: string[] = [];
        if (body.server_id !== b.id) wrong.push(`server_id is ${excerpt(body.server_id)}`);
        if (leftovers.length) wrong.push(`tools still include [${showTools(leftovers)}] from ${JSON.stringify(a.id)}`);
        if (wrong.length) t.fail(expected, `after connecting ${JSON.stringify(a.id)} then ${JSON.stringify(b.id)}: ${wrong.join("; ")}`, evidenceOf(x));
        else t.ok();
      }),
    );
    return {
      observe,
      finish: () => t.outcome(`after connecting ${a?.id} then ${b?.id}, /status showed only ${b?.id}`, "needs two listed servers"),
    };
  }),
  serverCheck("mcp-chat/state/reconnect-same-id", { notApplicableWhen: ["second-server"] }, (t) => {
    let before: StatusView | undefined;
    let id: string | undefined;
    const observe = judgeExchanges(t, (x) => x.label === L.statusAfterConnectB || x.label === L.reconnectB || x.label === L.statusAfterReconnect, (x) => {
      if (x.label === L.statusAfterConnectB) {
        before = statusView(x);
        return;
      }
      if (x.label === L.reconnectB) {
        const c = connectView(x);
        id = c?.id;
        if (x.status !== 200) t.fail(`200 when connecting the already connected id`, describe(x), evidenceOf(x));
        else if (!isObject(x.json) || x.json.server_id !== c?.id) t.fail(`a connect answer with server_id ${JSON.stringify(c?.id)}`, `${describe(x)}: server_id ${isObject(x.json) ? excerpt(x.json.server_id) : "missing"}`, evidenceOf(x));
        else t.ok();
        return;
      }
      const now = statusView(x);
      if (!before || !now) t.untestable("GET /status was not readable around the reconnect");
      else if (sameStatus(before, now)) t.ok();
      else t.fail(`still ${showStatus(before)}`, `after the reconnect GET /status says ${showStatus(now)}`, evidenceOf(x));
    });
    return { observe, finish: () => t.outcome(`reconnecting ${id} answered 200 and left /status unchanged`, "needs two listed servers") };
  }),
];
