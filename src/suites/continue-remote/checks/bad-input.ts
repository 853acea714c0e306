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
  busyBefore,
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
    create: statusRule("bad-input:missing:", (s) => s === 400, "400 {error}"),
  }),
  serverCheck({
    id: "continue-remote/bad-input/non-string-message",
    create: statusRule("bad-input:non-string:", (s) => s === 400, "400 {error}"),
  }),
  serverCheck({
    id: "continue-remote/bad-input/unparseable-body",
    create: statusRule("bad-input:unparseable:", is4xx, "a 4xx {error} (400, 415)"),
  }),
  serverCheck("continue-remote/bad-input/unknown-route", (t) => {
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
  }),
  serverCheck("continue-remote/bad-input/server-survives", (t, ctx) => {
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
          if (busyBefore(t, before, "the bad-input probes")) return;
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
  }),
];
