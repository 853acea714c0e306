/** §1 Wire: what every `/state` answer and every error answer look like. */
import { errorBodyRule } from "../../../core/checks/error-body-rule.js";
import type { CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { isForeignLabel, isPollLabel, L } from "../labels.js";
import { describe, evidenceOf, isObject, judgeExchanges, mediaType, onExchanges, route, serverCheck } from "./support.js";

export const WIRE_CHECKS: CheckDef[] = [
  serverCheck("continue-remote/wire/state-json", (t) => {
    const observe = judgeExchanges(
      t,
      (x) => x.method === "GET" && isPollLabel(x.label),
      (x) => {
        const type = mediaType(x.headers["content-type"]);
        const problem =
          x.status !== 200
            ? `status ${x.status}`
            : type !== "application/json"
              ? `content type ${x.headers["content-type"] ?? "(none)"}`
              : !x.isJson
                ? "a body that is not JSON"
                : !isObject(x.json)
                  ? `JSON ${Array.isArray(x.json) ? "array" : typeof x.json}, not an object`
                  : undefined;
        if (problem) t.fail("200 application/json with a JSON object", `${describe(x)} (${x.label}): ${problem}`, evidenceOf(x));
        else t.ok();
      },
    );
    return { observe, finish: () => t.outcome(`every poll (${t.count}) answered 200 application/json with an object`, "no poll of GET /state was answered") };
  }),
  serverCheck("continue-remote/wire/json-errors", (t, ctx) => {
    const rule = errorBodyRule(t, ctx, {
      // HEAD has no body; after /exit nothing is expected to answer.
      exempt: (x) => x.method === "HEAD" || isForeignLabel(x.label) || x.label === L.afterExit,
      expected: 'a JSON body {"error": "<message>"}',
      actual: (x, errors) => `${describe(x)} (${x.label}${route(x) === "/diff" ? ", /diff" : ""}): ${errors ? formatSchemaErrors(errors) : `not JSON: ${JSON.stringify(x.text!.slice(0, 60))}`}`,
    });
    return { observe: onExchanges((x) => rule.judge(x)), finish: () => t.outcome(`every error answer was JSON {error} (${rule.statuses()})`, "no error answer was observed") };
  }),
];
