/**
 * The kit's own endpoints on the mcp-chat mock, for clients that run the robustness cases:
 *   GET  /__agentwire/cases    → {cases: WireCase[]}
 *   POST /__agentwire/results  ← {case, result}: recorded as a `client-result` event, preceded by
 *                                the kit's expectation for the case (a note); 204.
 * Plugged into the mock through its `routes` option; answers undefined for every other path.
 * CORS is open on these paths so a browser harness on another origin can use them too.
 */
import type { TranscriptBus } from "../../../core/transcript.js";
import type { AdapterResult } from "./adapters/types.js";
import { CASES_PATH, CLIENT_CASES, EXPECTED_NOTE, findCase, RESULTS_PATH, toWireCase, type ClientCase } from "./cases.js";
import { parseAdapterResult } from "./compare.js";
import { defaultExpectedResult } from "./expected.js";

export type CaseRoutes = (request: Request) => Promise<Response | undefined>;

export interface CaseRoutesOptions {
  /** How the expected result of a case is computed (default: against the default mock content). */
  expected?: (c: ClientCase) => Promise<AdapterResult>;
}

const PREFIX = "/__agentwire/";
const ALLOW = { [CASES_PATH]: "GET", [RESULTS_PATH]: "POST" } as Record<string, string>;

export function createClientCaseRoutes(bus: TranscriptBus, options: CaseRoutesOptions = {}): CaseRoutes {
  const expected = options.expected ?? defaultExpectedResult;

  return async (request) => {
    const path = new URL(request.url).pathname;
    const at = path.indexOf(PREFIX);
    // The mock may sit under a base path; only the tail after it matters.
    if (at < 0) return undefined;
    const route = path.slice(at);
    const cors = corsHeaders(request);
    const method = ALLOW[route];
    if (!method) return json(404, { detail: `Unknown kit endpoint ${route}; known: ${Object.keys(ALLOW).join(", ")}` }, cors);
    if (request.method === "OPTIONS") return preflight(request, cors, method);
    if (request.method !== method) return json(405, { detail: `${route} takes ${method}` }, { ...cors, allow: `${method}, OPTIONS` });
    if (route === CASES_PATH) return json(200, { cases: CLIENT_CASES.map(toWireCase) }, cors);

    const posted = await readResult(request);
    if (!posted.ok) return json(400, { detail: posted.detail }, cors);
    let want: AdapterResult;
    try {
      want = await expected(posted.case);
    } catch (e) {
      return json(500, { detail: `could not compute the expected result of ${posted.case.id}: ${(e as Error).message}` }, cors);
    }
    bus.emit({ kind: "note", probe: "client", name: EXPECTED_NOTE, value: { case: posted.case.id, expected: want } });
    bus.emit({ kind: "client-result", probe: "client", case: posted.case.id, result: posted.result });
    return new Response(null, { status: 204, headers: cors });
  };
}

type Posted = { ok: true; case: ClientCase; result: AdapterResult } | { ok: false; detail: string };

async function readResult(request: Request): Promise<Posted> {
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    return { ok: false, detail: 'Body must be JSON: {"case": string, "result": {text, tools, outcome, error?}}' };
  }
  const { case: id, result } = (body ?? {}) as { case?: unknown; result?: unknown };
  if (typeof id !== "string") return { ok: false, detail: 'Field "case" must be a case id string' };
  const c = findCase(id);
  if (!c) return { ok: false, detail: `Unknown case "${id}"; see GET ${CASES_PATH}` };
  const parsed = parseAdapterResult(result);
  if (!parsed.ok) return { ok: false, detail: parsed.error };
  return { ok: true, case: c, result: parsed.result };
}

function corsHeaders(request: Request): Record<string, string> {
  const origin = request.headers.get("origin");
  return origin ? { "access-control-allow-origin": origin, "access-control-allow-credentials": "true", vary: "Origin" } : {};
}

function preflight(request: Request, cors: Record<string, string>, method: string): Response {
  const asked = request.headers.get("access-control-request-headers");
  return new Response(null, {
    status: 204,
    headers: {
      ...cors,
      "access-control-allow-methods": `${method}, OPTIONS`,
      ...(asked ? { "access-control-allow-headers": asked } : {}),
      "access-control-max-age": "600",
    },
  });
}

function json(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...headers, "content-type": "application/json" } });
}
