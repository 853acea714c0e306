/** §1 Auth and CORS, §5 Network exposure: who can reach the server and what a foreign page can do. */
import type { CheckDef } from "../../../core/checks/check.js";
import { L, NOTE, PHASE, TOPIC } from "../labels.js";
import { readParams } from "../params.js";
import { isCn } from "../profiles.js";
import {
  all,
  describe,
  evidenceOf,
  excerpt,
  judgeExchanges,
  onExchanges,
  onNote,
  onPolls,
  serverCheck,
  stateChange,
  stateEvidence,
  stateOf,
  where,
  busyBefore,
  type RawSnapshot,
} from "./support.js";

export const SECURITY_CHECKS: CheckDef[] = [
  serverCheck("continue-remote/security/loopback-bind", { notApplicableWhen: [TOPIC.bind] }, (t) => {
    const observe = onNote(NOTE.bindProbe, (v, ev) => {
      const n = v as { address?: unknown; port?: unknown; reachable?: unknown; error?: unknown };
      if (n.reachable === true)
        t.fail("connections refused beyond loopback", `port ${String(n.port)} accepted a connection on ${String(n.address)}`, {
          probe: ev.probe,
          seq: ev.seq,
          at: ev.t,
        });
      else t.ok();
    });
    return { observe, finish: () => t.outcome(`no non-loopback address accepted a connection (${t.count} tried)`, "no non-loopback address was tried") };
  }),
  serverCheck("continue-remote/security/no-auth", (t, ctx) => {
    const host = readParams(ctx.params).foreignHost;
    const observe = judgeExchanges(
      t,
      (x) => x.label === L.foreignHost,
      (x) => {
        if (x.status !== undefined && x.status >= 200 && x.status < 300)
          t.fail(
            "401/403/421 without credentials or for a foreign Host",
            `${describe(x)}: answered without credentials and with Host: ${host}`,
            evidenceOf(x),
          );
        else t.ok();
      },
    );
    return {
      observe,
      finish: () => t.outcome(`a request without credentials and with Host: ${host} was refused`, "the foreign-Host probe was not answered"),
    };
  }),
  serverCheck("continue-remote/security/cors", (t, ctx) => {
    const foreign = readParams(ctx.params).foreignOrigin;
    const observe = onExchanges((x) => {
      if (x.status === undefined) return;
      const allow = x.headers["access-control-allow-origin"]?.trim();
      const probed = x.origin === foreign;
      if (allow === "*" || (allow !== undefined && allow === x.origin && probed)) {
        t.fail(
          "no Access-Control-Allow-Origin for a foreign origin",
          `${describe(x)} (${x.label}) grants ${allow === "*" ? "every origin (*)" : allow}`,
          evidenceOf(x),
        );
      } else if (probed) t.ok();
    });
    return {
      observe,
      finish: () => t.outcome(`none of ${t.count} foreign-origin answer(s) granted access`, "no request with a foreign Origin was answered"),
    };
  }),
  serverCheck("continue-remote/security/simple-request-no-effect", (t, ctx) => {
    const cn = isCn(ctx.profile);
    let before: { raw: RawSnapshot; n: number } | undefined;
    const observe = all(
      onExchanges((x) => {
        if (x.label === L.poll(PHASE.afterSimple) && x.status !== 200) t.untestable(`the poll after the simple requests got ${describe(x)}`);
      }),
      onPolls({
        snapshot(raw, n) {
          if (raw.x.label === L.poll(PHASE.beforeSimple)) before = { raw, n };
          if (raw.x.label !== L.poll(PHASE.afterSimple) || !before) return;
          if (busyBefore(t, before, "the CORS-simple POSTs")) return;
          if (stateOf(raw, cn) === stateOf(before.raw, cn)) t.ok();
          else
            t.fail(
              `the state of ${where({ n: before.n, x: before.raw.x })}`,
              `${where({ n, x: raw.x })} after the CORS-simple POSTs: ${stateChange(before.raw, raw, cn)}`,
              stateEvidence(raw, excerpt(raw.json)),
            );
        },
      }),
    );
    return { observe, finish: () => t.outcome("the CORS-simple POSTs changed nothing", "the polls around the CORS-simple POSTs were not both read") };
  }),
];
