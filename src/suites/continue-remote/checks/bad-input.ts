/** §1 and §3.10: bad input gets a 4xx and changes nothing. */
import type { CheckDef } from "../../../core/checks/check.js";
import { isBadInputLabel, L, PHASE } from "../labels.js";
import { isCn } from "../profiles.js";
import { acceptedBadInput } from "./state.js";
import {
  all,
  describe,
  stateChange,
  stateOf,
  evidenceOf,
  excerpt,
  judgeExchanges,
  onExchanges,
  onPolls,
  serverCheck,
  stateEvidence,
  Tally,
  tookIt,
  where,
  type Exchange,
  type RawSnapshot,
} from "./support.js";

/** A rule over one group of bad-input probes: the statuses it accepts, judged per probe. */
function statusRule(prefix: string, ok: (status: number) => boolean, expected: string) {
  return () => {
    const t = new Tally();
    const statuses: string[] = [];
    const observe = judgeExchanges(
      t,
      (x) => x.label.startsWith(prefix),
      (x) => {
        statuses.push(`${x.label.slice(prefix.length)} → ${x.status}`);
        if (ok(x.status!)) t.ok();
        else t.fail(expected, `${describe(x)} (${x.label})${tookIt(x) ? ": the bad input was accepted" : ""}`, evidenceOf(x));
      },
    );
    return { observe, finish: () => t.outcome(`every probe was refused (${statuses.join(", ")})`, "no probe of this kind was answered") };
  };
}

const is4xx = (s: number): boolean => s >= 400 && s < 500;

export const BAD_INPUT_CHECKS: CheckDef[] = [
  serverCheck({
    id: "continue-remote/bad-input/missing-or-empty-message",
    level: "MUST",
    title: "A missing or empty message gets 400",
    rule: '`{}`, `{"msg":"x"}` and `{"message":""}` to `POST /message` answer 400 (and queue nothing).',
    ref: ['§3.10 "" is not an interrupt', "The old notes call it one and the removed client sent it, but both servers answer 400."],
    probes: ["bad-input"],
    create: statusRule("bad-input:missing:", (s) => s === 400, "400 {error}"),
  }),
  serverCheck({
    id: "continue-remote/bad-input/non-string-message",
    level: "SHOULD",
    title: "A non-string message gets 400",
    rule: "`message` as 42, true, `{}`, `[]` or null answers 400 (and queues nothing). [cn: INFO]",
    ref: ["§2 Messages", "Send | `message-request.schema.json` | `message`: string, minLength 1"],
    probes: ["bad-input", "late-input"],
    create: statusRule("bad-input:non-string:", (s) => s === 400, "400 {error}"),
  }),
  serverCheck({
    id: "continue-remote/bad-input/unparseable-body",
    level: "SHOULD",
    title: "An unreadable body gets a 4xx, never a 5xx",
    rule: "Truncated JSON, a `text/plain` body and a body without content type answer 4xx (never 5xx) and queue nothing. [cn: INFO]",
    ref: ["§1 Wire", "`POST /message` and `POST /permission` must send `application/json`; other bodies are not parsed."],
    probes: ["bad-input"],
    create: statusRule("bad-input:unparseable:", is4xx, "a 4xx {error} (400, 415)"),
  }),
  serverCheck({
    id: "continue-remote/bad-input/unknown-route",
    level: "MUST",
    title: "Unknown routes get 404, wrong methods 404/405",
    rule: "`GET /nope` answers 404; `POST /state` answers 404 or 405; neither has an effect.",
    ref: ["§1 Wire", "404 for an unknown route or a wrong method"],
    probes: ["bad-input"],
    create() {
      const t = new Tally();
      const observe = judgeExchanges(
        t,
        (x) => x.label.startsWith("bad-input:route:"),
        (x) => {
          const want = x.method === "GET" ? [404] : [404, 405];
          if (want.includes(x.status!)) t.ok();
          else t.fail(want.join(" or "), `${describe(x)} (${x.label})`, evidenceOf(x));
        },
      );
      return { observe, finish: () => t.outcome("the unknown route got 404 and the wrong method 404/405", "no route probe was answered") };
    },
  }),
  serverCheck({
    id: "continue-remote/bad-input/server-survives",
    level: "MUST",
    title: "After bad input the state is unchanged",
    rule: "After the bad-input probes (and a permission answer with nothing pending) `/state` answers 200 with the history, `isProcessing`, the queue and the pending permission as before them.",
    ref: ["§6 Reference mock", "Every error is JSON `{error}` and leaves state unchanged"],
    probes: ["bad-input"],
    create(ctx) {
      const t = new Tally();
      const cn = isCn(ctx.profile);
      let before: { raw: RawSnapshot; n: number } | undefined;
      let accepted: Exchange | undefined;
      const observe = all(
        onExchanges((x) => {
          if ((isBadInputLabel(x.label) || x.label === L.permissionIdle) && tookIt(x)) accepted ??= x;
          if (x.label === L.poll(PHASE.afterBadInput) && (x.status !== 200 || !x.isJson)) {
            t.fail("GET /state → 200 after the bad input", `${describe(x)} (${x.label})`, evidenceOf(x));
          }
        }),
        onPolls({
          snapshot(raw, n) {
            if (raw.x.label === L.poll(PHASE.beforeBadInput)) before = { raw, n };
            if (raw.x.label !== L.poll(PHASE.afterBadInput) || !before) return;
            if (accepted) {
              const check = accepted.label === L.permissionIdle ? "continue-remote/permission/wrong-id" : acceptedBadInput(accepted.label)!;
              t.knockOn(check, `${accepted.label} (${accepted.status})`);
              return;
            }
            if (stateOf(raw, cn) === stateOf(before.raw, cn)) t.ok();
            else
              t.fail(
                `the state of ${where({ n: before.n, x: before.raw.x })}`,
                `${where({ n, x: raw.x })} differs after the bad-input probes: ${stateChange(before.raw, raw, cn)}`,
                stateEvidence(raw, excerpt(raw.json)),
              );
          },
        }),
      );
      return {
        observe,
        finish: () =>
          t.outcome("the state after the bad-input probes equalled the state before them", "the before/after polls of the bad-input probes were not both read"),
      };
    },
  }),
];
