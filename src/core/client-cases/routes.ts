/**
 * The kit's own endpoints on a mock, for clients that run the robustness cases:
 *   GET  …/__agentwire/cases    → {cases: WireCase[]}
 *   POST …/__agentwire/results  ← {case, result}: recorded as a `client-result` event, preceded by
 *                                 the kit's expectation for the case (a note); 204.
 * Plugged into a mock through its `routes` option; answers undefined for every other path. CORS is
 * open on these paths so a browser harness on another origin can use them too. A protocol supplies
 * its cases, how a result parses, how the expectation is computed, and its error body shape.
 */
import type { TranscriptBus } from "../transcript/transcript.js";
import type { Parsed } from "./judge.js";
import { CASES_PATH, RESULTS_PATH } from "./case-table.js";

export type CaseRoutes = (request: Request) => Promise<Response | undefined>;

/** Why a kit endpoint refused a request (a protocol may carry it in its error body). */
export type RouteErrorCode = "not_found" | "method_not_allowed" | "invalid_request" | "internal_error";

export interface CaseRouteTable<C extends { id: string }, R> {
  bus: TranscriptBus;
  /** The note that carries the expectation of each reported case. */
  expectedNote: string;
  /** What `GET …/cases` lists. */
  wireCases(): unknown[];
  findCase(id: string): C | undefined;
  parseResult(value: unknown): Parsed<R>;
  /** The result's shape, as the error for a body that is not JSON names it. */
  resultShape: string;
  /** The note's fields after `case` (at least `expected`); may throw. */
  expectation(c: C): Promise<Record<string, unknown>>;
  /** An error body in the protocol's own shape. */
  errorBody(message: string, code: RouteErrorCode): unknown;
  /** Whether a cross-origin caller may send credentials. */
  allowCredentials?: boolean;
}

const PREFIX = "/__agentwire/";
const ALLOW = { [CASES_PATH]: "GET", [RESULTS_PATH]: "POST" } as Record<string, string>;

export function caseRoutes<C extends { id: string }, R>(table: CaseRouteTable<C, R>): CaseRoutes {
  const { bus, errorBody } = table;
  return async (request) => {
    const path = new URL(request.url).pathname;
    const at = path.indexOf(PREFIX);
    // The mock may sit under a base path; only the tail after it matters.
    if (at < 0) return undefined;
    const route = path.slice(at);
    const cors = corsHeaders(request, table.allowCredentials === true);
    const method = ALLOW[route];
    if (!method) return json(404, errorBody(`Unknown kit endpoint ${route}; known: ${Object.keys(ALLOW).join(", ")}`, "not_found"), cors);
    if (request.method === "OPTIONS") return preflight(request, cors, method);
    if (request.method !== method) {
      return json(405, errorBody(`${route} takes ${method}`, "method_not_allowed"), { ...cors, allow: `${method}, OPTIONS` });
    }
    if (route === CASES_PATH) return json(200, { cases: table.wireCases() }, cors);

    const posted = await readResult(request, table);
    if (!posted.ok) return json(400, errorBody(posted.detail, "invalid_request"), cors);
    let note: Record<string, unknown>;
    try {
      note = await table.expectation(posted.case);
    } catch (e) {
      return json(500, errorBody(`could not compute the expected result of ${posted.case.id}: ${(e as Error).message}`, "internal_error"), cors);
    }
    bus.emit({ kind: "note", probe: "client", name: table.expectedNote, value: { case: posted.case.id, ...note } });
    bus.emit({ kind: "client-result", probe: "client", case: posted.case.id, result: posted.result });
    return new Response(null, { status: 204, headers: cors });
  };
}

type Posted<C, R> = { ok: true; case: C; result: R } | { ok: false; detail: string };

async function readResult<C extends { id: string }, R>(request: Request, table: CaseRouteTable<C, R>): Promise<Posted<C, R>> {
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    return { ok: false, detail: `Body must be JSON: {"case": string, "result": ${table.resultShape}}` };
  }
  const { case: id, result } = (body ?? {}) as { case?: unknown; result?: unknown };
  if (typeof id !== "string") return { ok: false, detail: 'Field "case" must be a case id string' };
  const c = table.findCase(id);
  if (!c) return { ok: false, detail: `Unknown case "${id}"; see GET ${CASES_PATH}` };
  const parsed = table.parseResult(result);
  if (!parsed.ok) return { ok: false, detail: parsed.error };
  return { ok: true, case: c, result: parsed.result };
}

function corsHeaders(request: Request, credentials: boolean): Record<string, string> {
  const origin = request.headers.get("origin");
  if (!origin) return {};
  return credentials
    ? { "access-control-allow-origin": origin, "access-control-allow-credentials": "true", vary: "Origin" }
    : { "access-control-allow-origin": origin, vary: "Origin" };
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
