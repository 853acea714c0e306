/** The one error shape of the contract. */
import type { CheckDef } from "../../../core/checks/check.js";
import { errorBodyRule } from "../../../core/checks/error-body-rule.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { isForeignLabel, L } from "../labels.js";
import { describe, serverCheck, onExchanges } from "./support.js";

export const ERRORS_CHECKS: CheckDef[] = [
  serverCheck("mcp-chat/errors/detail-shape", (t, ctx) => {
    const rule = errorBodyRule(t, ctx, {
      exempt: (x) => isForeignLabel(x.label) || (x.label === L.chatSyncProbe && (x.status === 404 || x.status === 405)),
      expected: 'a JSON body {"detail": "<message>"}',
      actual: (x, errors) => `${describe(x)} (${x.label}): ${errors ? formatSchemaErrors(errors) : "body is not JSON"}${fastApiHint(x.json)}`,
    });
    return { observe: onExchanges((x) => rule.judge(x)), finish: () => t.outcome(`every error answer was {detail: string} (${rule.statuses()})`, "no error answer was observed") };
  }),
];

/** FastAPI's own validation answer has a list for `detail`: the profile that accepts it is worth naming. */
function fastApiHint(body: unknown): string {
  const detail = typeof body === "object" && body !== null ? (body as { detail?: unknown }).detail : undefined;
  return Array.isArray(detail) ? " (FastAPI's validation list; `--profile budget-master` accepts it)" : "";
}
