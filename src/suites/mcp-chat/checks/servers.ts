/** GET /servers: the listing every other probe starts from. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { L } from "../labels.js";
import { describe, evidenceOf, isObject, judgeExchanges, serverCheck } from "./support.js";


export const SERVERS_CHECKS: CheckDef[] = [
  serverCheck("mcp-chat/servers/list-shape", (t, ctx) => {
    let count = 0;
    const observe = judgeExchanges(t, (x) => x.label === L.servers, (x) => {
      if (x.status !== 200 || !x.isJson) {
        t.fail("200 with a JSON array of servers", `${describe(x)}${x.isJson ? "" : " (body is not JSON)"}`, evidenceOf(x));
        return;
      }
      const r = ctx.validate("server-list", x.json);
      if (!r.ok) t.fail("an array of {id, name, path: string}", `GET /servers: ${formatSchemaErrors(r.errors)}`, evidenceOf(x));
      if (!Array.isArray(x.json)) return;
      count = x.json.length;
      const seen = new Set<unknown>();
      for (const [i, s] of x.json.entries()) {
        const id = isObject(s) ? s.id : undefined;
        if (id === undefined) continue;
        if (seen.has(id)) t.fail("unique server ids", `GET /servers: /${i}/id ${excerpt(id)} is listed twice`, evidenceOf(x));
        seen.add(id);
      }
      t.ok();
    });
    return { observe, finish: () => t.outcome(`GET /servers listed ${count} valid server(s) with unique ids`, "GET /servers was not answered") };
  }),
  serverCheck("mcp-chat/servers/non-empty", (t) => {
    let count = 0;
    const observe = judgeExchanges(t, (x) => x.label === L.servers, (x) => {
      if (!Array.isArray(x.json)) {
        t.knockOn("mcp-chat/servers/list-shape", "GET /servers");
        return;
      }
      count = x.json.length;
      if (count === 0) t.fail("at least one server", "GET /servers returned [] — nothing can be connected, so no chat can be tested", evidenceOf(x));
      else t.ok();
    });
    return { observe, finish: () => t.outcome(`GET /servers listed ${count} server(s)`, "GET /servers was not answered") };
  }),
];
