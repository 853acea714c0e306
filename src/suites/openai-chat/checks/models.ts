/** GET /models: clients (and the kit) pick the model from it. */
import type { CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { L } from "../labels.js";
import { describe, evidenceOf, onExchanges, serverCheck, unanswered } from "./support.js";

export const MODELS_CHECKS: CheckDef[] = [
  serverCheck("openai-chat/models/list-shape", (t, ctx) => {
    let count = 0;
    const observe = onExchanges((x) => {
      if (x.label !== L.models) return;
      const why = unanswered(x);
      if (why) return t.untestable(why);
      if (x.status !== 200) return t.fail("200 with a ModelList", describe(x), evidenceOf(x));
      if (!x.isJson) return t.fail("a JSON ModelList", `${describe(x)}: the body is not JSON`, evidenceOf(x));
      const r = ctx.validate("model-list", x.json);
      if (!r.ok) return t.fail('{"object": "list", "data": [...]}', `${describe(x)}: ${formatSchemaErrors(r.errors)}`, evidenceOf(x));
      count = ((x.json as { data: unknown[] }).data ?? []).length;
      t.ok();
    });
    return { observe, finish: () => t.outcome(`GET /models answered a valid ModelList with ${count} model(s)`, "GET /models was not answered") };
  }),
];
