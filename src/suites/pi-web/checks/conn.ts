/** §1 Endpoint and upgrade checks: /ws upgrades, other paths 404, token 401, Origin 403, /health. */
import { at, excerpt, type CheckDef, type Outcome } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import type { TranscriptEvent } from "../../../core/transcript/transcript.js";
import { C, M, NOTE } from "../labels.js";
import { all, serverCheck, type OpenEvent, type RejectEvent } from "./support.js";


type Attempt = { ev: OpenEvent; upgraded: true } | { ev: RejectEvent; upgraded: false };

/** Calls `fn` for every upgrade attempt (opened or rejected) whose label matches. */
function onUpgrades(match: (label: string) => boolean, fn: (a: Attempt) => void): (ev: TranscriptEvent) => void {
  return (ev) => {
    if (ev.kind === "ws-open" && match(ev.label ?? "")) fn({ ev, upgraded: true });
    else if (ev.kind === "ws-reject" && match(ev.label ?? "")) fn({ ev, upgraded: false });
  };
}

/** What an attempt got, for messages: "101 (upgraded)", "404", "no answer (connection refused)". */
function got(a: Attempt): string {
  if (a.upgraded) return "101 (upgraded)";
  if (a.ev.status !== undefined) return `${a.ev.status}`;
  return `no HTTP answer (${a.ev.error ?? "error"})`;
}

const hostOf = (url: string): string | undefined => {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return undefined;
  }
};

const isLoopback = (host: string): boolean => host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);

const path = (a: Attempt): string => {
  try {
    const u = new URL(a.ev.url);
    return u.pathname + u.search;
  } catch {
    return a.ev.url;
  }
};

/**
 * A rejection-status rule over the upgrade probes with `labels`: each must answer `status`. Judged
 * only once the main /ws upgrade succeeded, since a server that upgrades nothing cannot show
 * that it tells paths, tokens or origins apart.
 */
function rejectionCheck(opts: {
  id: string;
  match: (label: string) => boolean;
  status: number;
  what: string;
  /** An outcome that replaces the usual one (e.g. skip without a token). */
  before?: (state: { notes: Map<string, unknown> }) => Outcome | undefined;
  extra?: (label: string) => boolean;
  extraReport?: (a: Attempt) => string;
  /** Why an upgrade that was not refused is legal here, if it is (the rule then does not apply). */
  legalUpgrade?: (a: Attempt) => string | undefined;
}): CheckDef {
  return serverCheck(opts.id, (t) => {
    let mainOk = false;
    const attempts: Attempt[] = [];
    const extras: string[] = [];
    const notes = new Map<string, unknown>();
    const observe = all(
      onUpgrades((l) => l === C.main, (a) => (mainOk ||= a.upgraded)),
      onUpgrades(opts.match, (a) => attempts.push(a)),
      onUpgrades((l) => !!opts.extra?.(l), (a) => extras.push(opts.extraReport!(a))),
      (ev) => {
        if (ev.kind === "note") notes.set(ev.name, ev.value);
      },
    );
    const finish = (): Outcome => {
      const early = opts.before?.({ notes });
      if (early) return early;
      if (!mainOk) {
        return { verdict: "incomplete", notExercised: true, message: "not exercised: the /ws upgrade itself did not succeed, so rejections cannot be told apart from a broken endpoint" };
      }
      for (const a of attempts) {
        const legal = a.upgraded ? opts.legalUpgrade?.(a) : undefined;
        if (legal) t.notApplicable(legal);
        else if (a.upgraded) t.fail(`${opts.status} for ${opts.what}`, `${path(a)} (${a.ev.label}) was upgraded (101)`, at(a.ev));
        else if (a.ev.status === opts.status) t.ok();
        else if (a.ev.status !== undefined) t.fail(`${opts.status} for ${opts.what}`, `${path(a)} (${a.ev.label}) answered ${a.ev.status}`, at(a.ev, a.ev.body ? { excerpt: excerpt(a.ev.body) } : {}));
        else t.untestable(`${path(a)} got ${got(a)}`);
      }
      const more = extras.length ? `; ${extras.join("; ")}` : "";
      return t.outcome(`${t.count} upgrade(s) with ${opts.what} were refused with ${opts.status}${more}`, `no upgrade with ${opts.what} was attempted`);
    };
    return { observe, finish };
  });
}

export const CONN_CHECKS: CheckDef[] = [
  serverCheck("pi-web/conn/ws-upgrade", (t) => {
    const observe = onUpgrades(
      (l) => l === C.main || l === C.passive,
      (a) => {
        if (a.upgraded) t.ok();
        else if (a.ev.status !== undefined) {
          t.fail("101 Switching Protocols", `the ${a.ev.label} upgrade on ${path(a)} was answered ${a.ev.status}`, at(a.ev, a.ev.body ? { excerpt: excerpt(a.ev.body) } : {}));
        } else t.untestable(`the ${a.ev.label} upgrade on ${path(a)} got ${got(a)}`);
      },
    );
    return { observe, finish: () => t.outcome(`${t.count} upgrade(s) on /ws were answered 101`, "no upgrade on /ws was attempted") };
  }),
  rejectionCheck({
    id: "pi-web/conn/other-path-404",
    match: (l) => l.startsWith("upgrade:other-path:"),
    status: 404,
    what: "another path",
  }),
  rejectionCheck({
    id: "pi-web/conn/token-401",
    match: (l) => l === C.noToken || l === C.wrongToken,
    status: 401,
    what: "a missing or wrong token",
    before: ({ notes }) => {
      const auth = notes.get(NOTE.auth) as { token?: boolean } | undefined;
      if (auth && auth.token === false) {
        return { verdict: "skip", message: "no --token given: the token check is not tested (the fork removed its token flag at 540623d9)" };
      }
      return undefined;
    },
  }),
  rejectionCheck({
    id: "pi-web/conn/origin-403",
    match: (l) => l === C.foreignOrigin,
    status: 403,
    what: "a foreign Origin",
    extra: (l) => l === C.noOrigin,
    extraReport: (a) => `an upgrade without Origin got ${got(a)}`,
    // §1: the allow-list is active only on a loopback bind; a server reached at another address
    // is bound beyond loopback, where it checks Origin only if given extra origins.
    legalUpgrade: (a) => {
      const host = hostOf(a.ev.url);
      return host !== undefined && !isLoopback(host)
        ? `the server is reached at ${host}, not a loopback address; bound beyond loopback it checks Origin only when given extra origins, so accepting a foreign Origin is allowed`
        : undefined;
    },
  }),
  serverCheck("pi-web/conn/health", (t, ctx) => {
    let status: number | undefined;
    let type = "";
    const observe = (ev: TranscriptEvent) => {
      if (!("label" in ev) || ev.label !== M.health) return;
      if (ev.kind === "http-response") {
        status = ev.status;
        type = ev.headers["content-type"] ?? "";
      } else if (ev.kind === "http-error") t.untestable(`GET /health got no response (${ev.error})`);
      else if (ev.kind === "body-end") {
        if (status !== 200) {
          t.fail("200", `GET /health answered ${status}`, at(ev, ev.text ? { excerpt: excerpt(ev.text) } : {}));
          return;
        }
        if (ev.reason !== "eof") {
          t.untestable(`the kit stopped reading GET /health (${ev.reason})`);
          return;
        }
        if (!/^application\/json\b/i.test(type.trim())) {
          t.fail("Content-Type application/json", `GET /health has Content-Type ${JSON.stringify(type)}`, at(ev));
          return;
        }
        let body: unknown;
        try {
          body = JSON.parse(ev.text ?? "");
        } catch {
          t.fail("a JSON body", "GET /health body is not JSON", at(ev, { excerpt: excerpt(ev.text ?? "") }));
          return;
        }
        const r = ctx.validate("health", body);
        if (r.ok) t.ok();
        else t.fail('{"status":"ok","clients":<int>}', `GET /health body: ${formatSchemaErrors(r.errors)}`, at(ev, { excerpt: excerpt(ev.text ?? "") }));
      }
    };
    return { observe, finish: () => t.outcome("GET /health answered 200 {status:\"ok\", clients}", "GET /health was not requested") };
  }),
];
