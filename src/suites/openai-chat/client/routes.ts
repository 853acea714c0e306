/**
 * The kit's own endpoints on the openai-chat mock, for clients that run the robustness cases:
 *   GET  …/__agentwire/cases    → {cases: WireCase[]}
 *   POST …/__agentwire/results  ← {case, result}: recorded as a `client-result` event, preceded by
 *                                 the kit's expectation for the case (a note); 204.
 * Plugged into the mock through its `routes` option (answers undefined for every other path), and
 * subscribed to the same bus as the mock's recorder, so the expectation is computed from the very
 * request the client sent for the case, with the call ids the mock gave it.
 */
import type { TranscriptBus, TranscriptEvent } from "../../../core/transcript.js";
import { CASES_PATH, EXPECTED_NOTE, findCase, RESULTS_PATH, wireCases, caseOfPath, type ClientCase } from "./cases.js";
import { parseAdapterResult } from "./compare.js";
import { emittedCallsOf } from "./emitted.js";
import { expectedResult, type ContentOptions, type Expectation, type RecordedRequest } from "./expected.js";
import { isCompletionRequest } from "./traffic-checks.js";
import type { AdapterResult } from "./adapters/types.js";

export type CaseRoutes = (request: Request) => Promise<Response | undefined>;

export interface CaseRoutesOptions {
  /** Mock options that change what the mock says (when the mock was started with them). */
  content?: ContentOptions;
  /** How the expected result of a case is computed (default: replayed on a fresh engine). */
  expected?: (c: ClientCase, recorded: RecordedRequest | undefined) => Promise<Expectation>;
}

const PREFIX = "/__agentwire/";
const ALLOW = { [CASES_PATH]: "GET", [RESULTS_PATH]: "POST" } as Record<string, string>;

export function createClientCaseRoutes(bus: TranscriptBus, options: CaseRoutesOptions = {}): CaseRoutes {
  const expected = options.expected ?? ((c, recorded) => expectedResult(c, recorded, options.content));
  // The last request the client sent for each case (one entry per case id: bounded).
  const sent = new Map<string, RecordedRequest>();
  bus.subscribe((event: TranscriptEvent) => {
    if (!isCompletionRequest(event)) return;
    const c = caseOfPath(event.path);
    if (!c) return;
    const catalogue = event.meta?.catalogue;
    sent.set(c.id, {
      body: event.body ?? "",
      ...(emittedCallsOf(event) ? { calls: emittedCallsOf(event)!.calls } : {}),
      ...(typeof catalogue === "string" ? { catalogue } : {}),
    });
  });

  return async (request) => {
    const path = new URL(request.url).pathname;
    const at = path.indexOf(PREFIX);
    // The mock may sit under a base path (and /v1): only the tail matters.
    if (at < 0) return undefined;
    const route = path.slice(at);
    const cors = corsHeaders(request);
    const method = ALLOW[route];
    if (!method) return json(404, errorOf(`Unknown kit endpoint ${route}; known: ${Object.keys(ALLOW).join(", ")}`, "not_found"), cors);
    if (request.method === "OPTIONS") return preflight(request, cors, method);
    if (request.method !== method) {
      return json(405, errorOf(`${route} takes ${method}`, "method_not_allowed"), { ...cors, allow: `${method}, OPTIONS` });
    }
    if (route === CASES_PATH) return json(200, { cases: wireCases() }, cors);

    const posted = await readResult(request);
    if (!posted.ok) return json(400, errorOf(posted.detail, "invalid_request"), cors);
    let want: Expectation;
    try {
      want = await expected(posted.case, sent.get(posted.case.id));
    } catch (e) {
      return json(500, errorOf(`could not compute the expected result of ${posted.case.id}: ${(e as Error).message}`, "internal_error"), cors);
    }
    bus.emit({
      kind: "note",
      probe: "client",
      name: EXPECTED_NOTE,
      value: { case: posted.case.id, expected: want.expected, ...(want.looseIds ? { looseIds: true } : {}) },
    });
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
    return { ok: false, detail: 'Body must be JSON: {"case": string, "result": {text, reasoning, toolCalls, finishReason, usage, outcome, error?}}' };
  }
  const { case: id, result } = (body ?? {}) as { case?: unknown; result?: unknown };
  if (typeof id !== "string") return { ok: false, detail: 'Field "case" must be a case id string' };
  const c = findCase(id);
  if (!c) return { ok: false, detail: `Unknown case "${id}"; see GET ${CASES_PATH}` };
  const parsed = parseAdapterResult(result);
  if (!parsed.ok) return { ok: false, detail: parsed.error };
  return { ok: true, case: c, result: parsed.result };
}

/** Kit endpoint errors in the protocol's own ErrorResponse shape. */
function errorOf(message: string, code: string) {
  return { error: { message, type: "invalid_request_error", param: null, code } };
}

function corsHeaders(request: Request): Record<string, string> {
  const origin = request.headers.get("origin");
  return origin ? { "access-control-allow-origin": origin, vary: "Origin" } : {};
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
