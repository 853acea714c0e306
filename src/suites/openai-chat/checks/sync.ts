/** Non-streamed answers. */
import type { CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { baseLabel, L, SYNC_PROBES } from "../labels.js";
import { describe, evidenceOf, is2xx, mediaType, onExchanges, serverCheck, unanswered } from "./support.js";

/** Schema findings other checks own: the envelope, finish_reason, the type of arguments. */
const OWNED = [/^\/(object|id|created|model)$/, /^\/choices\/\d+\/finish_reason$/, /^\/choices\/\d+\/message\/tool_calls\/\d+\/function\/arguments$/];

export const SYNC_CHECKS: CheckDef[] = [
  serverCheck("openai-chat/sync/response-shape", (t, ctx) => {
    let n = 0;
    const observe = onExchanges((x) => {
      const base = baseLabel(x.label);
      if (!SYNC_PROBES.includes(base)) return;
      if (base === L.followUpSync && !is2xx(x.status)) return;
      const why = unanswered(x);
      if (why) return t.untestable(why);
      if (x.status !== 200) return t.fail("200 with a ChatCompletion", `${x.label}: ${describe(x)}`, evidenceOf(x));
      const type = mediaType(x.headers["content-type"]);
      if (type !== "application/json") return t.fail("Content-Type: application/json", `${x.label}: ${describe(x)}`, evidenceOf(x));
      if (!x.isJson) return t.fail("a JSON ChatCompletion", `${x.label}: the body is not JSON`, evidenceOf(x));
      const r = ctx.validate("chat-completion", x.json);
      const errors = r.ok ? [] : r.errors.filter((e) => !OWNED.some((re) => re.test(e.pointer)));
      n++;
      if (errors.length === 0) t.ok();
      else t.fail("a valid ChatCompletion: choices[] of {message: {role: \"assistant\", content}, finish_reason}", `${x.label}: ${formatSchemaErrors(errors)}`, evidenceOf(x));
    });
    return { observe, finish: () => t.outcome(`${n} non-streamed answer(s) were valid ChatCompletions`, "no non-streamed chat probe was answered") };
  }),
];
