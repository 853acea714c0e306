/**
 * What the mock answers before any WebSocket exists (§1, §6 endpoints): the upgrade checks in
 * their order (404 path, 401 token, 403 Origin), and plain HTTP (GET /health, GET / and
 * /index.html, anything else 404). Pure functions of the request and the active hooks.
 */
import type { PiWebHooks } from "./hooks.js";
import type { ResolvedPiWebOptions } from "./options.js";

export type UpgradeDecision =
  | { ok: true; status: 101 }
  | { ok: false; status: 400 | 401 | 403 | 404; statusText: string; detail: string };

export interface PiWebHttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const STATUS_TEXT = { 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found" } as const;

export function refusal(status: 400 | 401 | 403 | 404, detail: string): UpgradeDecision {
  return { ok: false, status, statusText: STATUS_TEXT[status], detail };
}

/**
 * The first §1 check the upgrade fails, or undefined when it passes them all. `allowed` is the
 * Origin allow-list (null: no Origin check); a missing Origin is refused while the list is active.
 */
export function judgeUpgrade(
  url: URL,
  origin: string | undefined,
  hooks: PiWebHooks,
  opts: Pick<ResolvedPiWebOptions, "wsPath" | "token" | "sameToken">,
  allowed: readonly string[] | null,
): UpgradeDecision | undefined {
  const up = hooks.upgrade ?? {};
  if (!up.anyPath && url.pathname !== (up.wsPath ?? opts.wsPath)) return refusal(404, `no WebSocket on ${url.pathname}`);
  if (opts.token !== undefined && !up.ignoreToken && !tokenMatches(url.searchParams.get("token"), opts.token, opts.sameToken)) {
    return refusal(401, "missing or wrong token");
  }
  if (allowed && !up.ignoreOrigin && (origin === undefined || !allowed.includes(origin))) {
    return refusal(403, origin === undefined ? "missing Origin" : `Origin ${origin} is not allowed`);
  }
  return undefined;
}

function tokenMatches(given: string | null, expected: string, same = sameString): boolean {
  return given !== null && same(given, expected);
}

/**
 * Compares without stopping at the first difference, so the time taken does not tell how much
 * of a guess was right (node servers pass crypto.timingSafeEqual instead; this one runs anywhere).
 */
function sameString(given: string, expected: string): boolean {
  let diff = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= (given.charCodeAt(i) || 0) ^ expected.charCodeAt(i);
  return diff === 0;
}

export function httpRoute(method: string, url: URL, hooks: PiWebHooks, wsPath: string, clients: number): PiWebHttpResponse {
  const get = method === "GET" || method === "HEAD";
  if (get && url.pathname === "/health" && !hooks.upgrade?.noHealth) {
    return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ status: "ok", clients }) };
  }
  if (get && (url.pathname === "/" || url.pathname === "/index.html")) {
    return { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: page(url, wsPath) };
  }
  return { status: 404, headers: { "content-type": "text/plain; charset=utf-8" }, body: "Not Found" };
}

function page(url: URL, wsPath: string): string {
  const ws = `ws://${url.host}${wsPath}`;
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>pi-web mock</title></head>
<body><h1>pi-web mock</h1><p>WebSocket: <code>${ws}</code> (add <code>?token=…</code> when a token is set).</p>
<p>Health: <code>GET /health</code>. Prompts starting with <code>scenario:&lt;name&gt; </code> pick a scenario.</p></body></html>
`;
}
