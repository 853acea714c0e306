/** The one error shape of the contract. */
import type { CheckDef } from "../../../core/check.js";
import { formatSchemaErrors } from "../../../core/schema-registry.js";
import { isForeignLabel, L } from "../labels.js";
import { describe, evidenceOf, serverCheck, Tally, onExchanges } from "./support.js";

export const ERRORS_CHECKS: CheckDef[] = [
  serverCheck({
    id: "mcp-chat/errors/detail-shape",
    level: "MUST",
    title: "Every 4xx/5xx is JSON {detail: string}",
    rule: "Every 4xx/5xx from a contract endpoint is JSON with a string `detail`. (Preflights, foreign-origin probes and the 404/405 of an absent /chat are not contract answers.)",
    ref: ["§2 Connect to a Server", '"detail": "Error message describing what went wrong"'],
    probes: ["every request"],
    create(ctx) {
      const t = new Tally();
      const statuses = new Map<number, number>();
      const observe = onExchanges((x) => {
        if (x.status === undefined || x.status < 400 || x.method === "OPTIONS" || isForeignLabel(x.label)) return;
        if (x.label === L.chatSyncProbe && (x.status === 404 || x.status === 405)) return;
        if (x.text === undefined || (x.end && x.end.reason !== "eof")) {
          t.untestable(`the body of ${x.method} ${x.path} (${x.status}) was not read whole`);
          return;
        }
        statuses.set(x.status, (statuses.get(x.status) ?? 0) + 1);
        const r = x.isJson ? ctx.validate("error-response", x.json) : undefined;
        if (r?.ok) t.ok();
        else t.fail('a JSON body {"detail": "<message>"}', `${describe(x)} (${x.label}): ${r ? formatSchemaErrors(r.errors) : "body is not JSON"}`, evidenceOf(x));
      });
      return {
        observe,
        finish: () => t.outcome(`every error answer was {detail: string} (${[...statuses].map(([s, n]) => `${s} ×${n}`).join(", ")})`, "no error answer was observed"),
      };
    },
  }),
];
