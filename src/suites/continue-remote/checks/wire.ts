/** §1 Wire: what every `/state` answer and every error answer look like. */
import type { CheckDef } from "../../../core/check.js";
import { formatSchemaErrors } from "../../../core/schema-registry.js";
import { isForeignLabel, isPollLabel, L } from "../labels.js";
import { describe, evidenceOf, isObject, judgeExchanges, mediaType, onExchanges, route, serverCheck, Tally } from "./support.js";

export const WIRE_CHECKS: CheckDef[] = [
  serverCheck({
    id: "continue-remote/wire/state-json",
    level: "MUST",
    title: "GET /state answers 200 with a JSON object",
    rule: "Every `GET /state` of the poll series answers 200 `application/json` with a JSON object.",
    ref: ["§1 Wire", "Responses are `application/json; charset=utf-8`."],
    probes: ["every poll"],
    create() {
      const t = new Tally();
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
    },
  }),
  serverCheck({
    id: "continue-remote/wire/json-errors",
    level: "SHOULD",
    title: "Error answers are JSON with a non-empty error",
    rule: "Every 4xx/5xx answer (but to HEAD, which has no body, and to the foreign-origin probes) is JSON with a non-empty string `error`; `diff` may accompany it on /diff. [cn: INFO]",
    ref: ["§2 Messages", "Error | `error-response.schema.json` | `error`: non-empty string; `diff`?: string | every 4xx/5xx"],
    probes: ["bad-input", "permission", "exit"],
    create(ctx) {
      const t = new Tally();
      const statuses = new Map<number, number>();
      const observe = onExchanges((x) => {
        if (x.status === undefined || x.status < 400 || x.method === "HEAD" || x.method === "OPTIONS" || isForeignLabel(x.label)) return;
        if (x.label === L.afterExit) return;
        if (x.text === undefined || (x.end && x.end.reason !== "eof")) {
          t.untestable(`the body of ${x.method} ${x.path} (${x.status}) was not read whole`);
          return;
        }
        statuses.set(x.status, (statuses.get(x.status) ?? 0) + 1);
        const r = x.isJson ? ctx.validate("error-response", x.json) : undefined;
        if (r?.ok) t.ok();
        else
          t.fail(
            'a JSON body {"error": "<message>"}',
            `${describe(x)} (${x.label}${route(x) === "/diff" ? ", /diff" : ""}): ${r ? formatSchemaErrors(r.errors) : `not JSON: ${JSON.stringify(x.text.slice(0, 60))}`}`,
            evidenceOf(x),
          );
      });
      return {
        observe,
        finish: () =>
          t.outcome(`every error answer was JSON {error} (${[...statuses].map(([s, n]) => `${s} ×${n}`).join(", ")})`, "no error answer was observed"),
      };
    },
  }),
];
