/**
 * CORS: the frontend is a browser page on another origin, sending JSON (so every call is
 * preflighted) with credentials allowed. A response without the right headers is hidden from it.
 * The three rules split the headers so one mistake fails one check: a missing or foreign ACAO is
 * cors/allow-origin's (or cors/preflight's), ACAO `*` and ACAC are cors/credentials'.
 */
import { at, type CheckDef, type Evidence } from "../../../core/checks/check.js";
import { isForeignLabel, isPreflightLabel, L, NOTE } from "../labels.js";
import { readParams } from "../params.js";
import { all, describe, is2xx, lastEvent, onExchanges, onNote, serverCheck, tokens, type Exchange } from "./support.js";


const acao = (x: Exchange) => x.headers["access-control-allow-origin"];
const acac = (x: Exchange) => x.headers["access-control-allow-credentials"];

/** Evidence showing the CORS headers of a response. */
function corsEvidence(x: Exchange): Evidence {
  const shown = ["access-control-allow-origin", "access-control-allow-credentials", "access-control-allow-headers"]
    .filter((h) => h !== "access-control-allow-headers" || x.method === "OPTIONS")
    .map((h) => `${h}: ${x.headers[h] ?? "(absent)"}`)
    .join("; ");
  return at(x.response ?? lastEvent(x), { excerpt: shown });
}

const isActual = (x: Exchange, origin: string) => x.origin === origin && x.method !== "OPTIONS" && x.status !== undefined;

export const CORS_CHECKS: CheckDef[] = [
  serverCheck("mcp-chat/cors/preflight", (t, ctx) => {
    const { origin } = readParams(ctx.params);
    let n = 0;
    let chatPresent: boolean | undefined;
    let chatVerdict: { problems: string[]; x: Exchange } | undefined;
    const record = (x: Exchange, problems: string[]) => {
      n++;
      if (problems.length) t.fail(`2xx, Access-Control-Allow-Origin ${origin}, Access-Control-Allow-Headers naming what was requested`, `OPTIONS ${x.path}: ${problems.join("; ")}`, corsEvidence(x));
      else t.ok();
    };
    const observe = all(
      onNote(NOTE.chatSync, (v) => {
        chatPresent = (v as { present?: boolean }).present;
      }),
      onExchanges((x) => {
        if (!isPreflightLabel(x.label)) return;
        if (x.status === undefined) {
          t.untestable(describe(x));
          return;
        }
        const problems: string[] = [];
        if (!is2xx(x.status)) problems.push(`status ${x.status}`);
        const allow = acao(x);
        if (allow === undefined) problems.push("no Access-Control-Allow-Origin");
        else if (allow !== "*" && allow !== origin) problems.push(`Access-Control-Allow-Origin is "${allow}"`);
        const requested = tokens(x.request.headers["access-control-request-headers"]);
        const allowed = tokens(x.headers["access-control-allow-headers"]);
        const missing = requested.filter((h) => !allowed.includes(h));
        if (missing.length) {
          problems.push(
            allowed.includes("*")
              ? `Access-Control-Allow-Headers is "*", which does not count for credentialed requests; name ${missing.join(", ")}`
              : x.headers["access-control-allow-headers"] === undefined
                ? `no Access-Control-Allow-Headers (requested: ${missing.join(", ")})`
                : `Access-Control-Allow-Headers "${x.headers["access-control-allow-headers"]}" lacks ${missing.join(", ")}`,
          );
        }
        if (x.label === L.preflight("/chat")) chatVerdict = { problems, x };
        else record(x, problems);
      }),
    );
    return {
      observe,
      finish: () => {
        // /chat is optional: a failed preflight to an absent endpoint says nothing.
        if (chatVerdict && chatPresent !== false) record(chatVerdict.x, chatVerdict.problems);
        return t.outcome(`${n} preflight(s) from ${origin} were allowed with the requested headers`, "no preflight got an answer");
      },
    };
  }),
  serverCheck("mcp-chat/cors/allow-origin", (t, ctx) => {
    const { origin } = readParams(ctx.params);
    let n = 0;
    const observe = onExchanges((x) => {
      if (!isActual(x, origin)) return;
      n++;
      const allow = acao(x);
      if (allow === origin || allow === "*") t.ok();
      else
        t.fail(
          `Access-Control-Allow-Origin: ${origin}`,
          `${describe(x)} (${x.label}) ${allow === undefined ? "has no Access-Control-Allow-Origin: the browser hides it from the page" : `has Access-Control-Allow-Origin "${allow}"`}`,
          corsEvidence(x),
        );
    });
    return { observe, finish: () => t.outcome(`${n} response(s) to requests from ${origin} carried Access-Control-Allow-Origin`, `no request from ${origin} got an answer`) };
  }),
  serverCheck("mcp-chat/cors/credentials", (t, ctx) => {
    const { origin } = readParams(ctx.params);
    let n = 0;
    const observe = onExchanges((x) => {
      if (x.origin !== origin || x.status === undefined || acao(x) === undefined) return;
      if (x.method === "OPTIONS" && !is2xx(x.status)) return;
      n++;
      const problems: string[] = [];
      if (acao(x) === "*") problems.push("Access-Control-Allow-Origin is \"*\", which browsers reject with credentials");
      if (acac(x) !== "true") problems.push(`Access-Control-Allow-Credentials is ${acac(x) === undefined ? "absent" : `"${acac(x)}"`}`);
      if (problems.length) t.fail(`Access-Control-Allow-Origin: ${origin} and Access-Control-Allow-Credentials: true`, `${describe(x)} (${x.label}): ${problems.join("; ")}`, corsEvidence(x));
      else t.ok();
    });
    return { observe, finish: () => t.outcome(`${n} CORS response(s) allowed credentials for ${origin}`, "no answer carried Access-Control-Allow-Origin") };
  }),
  serverCheck("mcp-chat/cors/foreign-origin", (t, ctx) => {
    const { foreignOrigin } = readParams(ctx.params);
    const seen: string[] = [];
    const observe = onExchanges((x) => {
      if (!isForeignLabel(x.label)) return;
      if (x.status === undefined) {
        t.untestable(describe(x));
        return;
      }
      seen.push(`${x.method} ${x.status}`);
      if (acao(x)?.toLowerCase() === foreignOrigin.toLowerCase()) t.fail(`no Access-Control-Allow-Origin for ${foreignOrigin}`, `${describe(x)} echoed Access-Control-Allow-Origin: ${acao(x)}`, corsEvidence(x));
      else t.ok();
    });
    return { observe, finish: () => t.outcome(`${foreignOrigin} was not echoed (${seen.join(", ")})`, "no request from the foreign origin got an answer") };
  }),
];
