/** §3.12 `/diff` and §3.13 `/exit`. */
import type { CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { L, PHASE, TOPIC } from "../labels.js";
import { all, answeredAt, describe, evidenceOf, judgeExchanges, mediaType, onExchanges, serverCheck, type Exchange } from "./support.js";

/** §4 exit/shuts-down: connections refused within 2 s of the answer. */
const EXIT_DEADLINE_MS = 2000;

export const DIFF_CHECKS: CheckDef[] = [
  serverCheck("continue-remote/diff/shape", (t, ctx) => {
    const observe = judgeExchanges(
      t,
      (x) => x.label === L.diff,
      (x) => {
        const json = mediaType(x.headers["content-type"]) === "application/json" && x.isJson;
        const message = x.status === 200 ? "diff-response" : x.status === 404 || x.status === 500 ? "error-response" : undefined;
        const r = json && message ? ctx.validate(message, x.json) : undefined;
        if (r?.ok) t.ok();
        else
          t.fail(
            "200 application/json {diff: string}, or 404/500 {error}",
            `${describe(x)}: ${!message ? `status ${x.status}` : !json ? `not a JSON answer (${x.headers["content-type"] ?? "no content type"})` : formatSchemaErrors(r!.ok ? [] : r!.errors)}`,
            evidenceOf(x),
          );
      },
    );
    return { observe, finish: () => t.outcome("GET /diff answered with the contract's shape", "GET /diff was not answered") };
  }),
];

export const EXIT_CHECKS: CheckDef[] = [
  serverCheck("continue-remote/exit/shuts-down", { notApplicableWhen: [TOPIC.exit] }, (t, ctx) => {
    let answer: Exchange | undefined;
    let gone: Exchange | undefined;
    let lastAlive: Exchange | undefined;
    const observe = all(
      judgeExchanges(
        t,
        (x) => x.label === L.postExit,
        (x) => {
          const r = x.status === 200 && x.isJson ? ctx.validate("exit-response", x.json) : undefined;
          if (r?.ok) answer = x;
          else
            t.fail(
              '200 {message:"Server shutting down", success:true}',
              `${describe(x)}${r && !r.ok ? `: ${formatSchemaErrors(r.errors)}` : ""}`,
              evidenceOf(x),
            );
        },
      ),
      onExchanges((x) => {
        if (x.label !== L.afterExit || !answer) return;
        if (x.status === undefined) gone ??= x;
        else if (!gone) lastAlive = x;
      }),
    );
    return {
      observe,
      finish: () => {
        if (answer) {
          const since = (x: Exchange) => Math.round(x.request.t - answeredAt(answer!));
          if (gone && since(gone) <= EXIT_DEADLINE_MS) t.ok();
          else if (lastAlive && since(lastAlive) >= EXIT_DEADLINE_MS)
            t.fail(
              `connections refused within ${EXIT_DEADLINE_MS} ms`,
              `${describe(lastAlive)} still answered ${since(lastAlive)} ms after POST /exit`,
              evidenceOf(lastAlive),
            );
          else if (gone)
            t.fail(
              `connections refused within ${EXIT_DEADLINE_MS} ms`,
              `the first refused request came ${since(gone)} ms after POST /exit`,
              evidenceOf(gone),
            );
          else t.untestable("no request was tried after POST /exit");
        }
        return t.outcome("POST /exit answered and the server stopped answering within 2 s", "POST /exit was not answered");
      },
    };
  }),
  serverCheck("continue-remote/exit/post-only", (t) => {
    let probed = 0;
    const observe = onExchanges((x) => {
      if (x.label === L.getExit || x.label === L.headExit) probed++;
      if (x.label !== L.poll(PHASE.afterGetExit) || probed === 0) return;
      if (x.status === 200) t.ok();
      else
        t.fail(
          "GET /state → 200 after GET and HEAD /exit",
          `${describe(x)}: the server ${x.status === undefined ? "stopped answering" : "answered badly"} after GET/HEAD /exit`,
          evidenceOf(x),
        );
    });
    return { observe, finish: () => t.outcome("the server kept answering after GET and HEAD /exit", "GET and HEAD /exit were not probed") };
  }),
];
