/**
 * The openai-chat reference mock: its answer to a request as a reply (core/mock/exchange.ts), which
 * the node server writes to the socket and msw gets as a Response, so a client sees the same bytes
 * either way. It is
 * browser-safe: nothing here or below imports node modules. Nor zod, which is slow to load: the
 * request and script validators come from the creator (engine.ts imports them; the node server
 * loads the request validator with the first chat request, the script's only with a script).
 *
 * A request goes through: extension routes → route match → selections (scenario, framing, faults
 * and pacing from options, headers, query and directive lines) → a decision (auth, validation,
 * model, the answer) → recording → rendering (stream or JSON) → recording of the response head.
 */
import { safeDecode } from "../../core/mock/paths.js";
import { fetchMockEngine, type FetchMockEngine } from "../../core/mock/engine.js";
import { isPaced, replyHead, type MockReply, type MockRequest, type PacedReplyBody, type ReplyBody } from "../../core/mock/exchange.js";
import { HEADER_FAULT, HEADER_FRAMING, HEADER_SCENARIO, requestedName, Selection } from "../../core/mock/selection.js";
import { sseFormat } from "../../core/transport/sse-framing.js";
import { seededRandom, sleep } from "../../core/mock/timing.js";
import type { Answer } from "./answer.js";
import { findCatalogue, NO_CATALOGUE } from "./catalogues.js";
import { answerSteps, makeChunk, makeUsageChunk, type Envelope } from "./chunks.js";
import { completionBody } from "./completion.js";
import { parseDirectives } from "./directives.js";
import { errorBody, errors, type ApiError } from "./errors.js";
import { findFault, type OpenaiChatFault } from "./faults.js";
import { findFraming, type OpenaiChatFraming } from "./framing.js";
import { historyProblems, isFollowUp } from "./history.js";
import { combineHooks, type Hooks, type StreamContext } from "./hooks.js";
import {
  resolveOpenaiChatOptions,
  unknownNameMessage,
  type NameKind,
  type OpenaiChatMockOptions,
  type ResolvedOpenaiChatOptions,
} from "./options.js";
import { mergePacing, PACING_KEYS, pacingProblem, type OpenaiChatPacing } from "./pacing.js";
import { scaleTimes, TIME_SCALE_KEY } from "../../core/client-cases/time-scale.js";
import { ClientRecorder } from "../../core/transport/http-client-recorder.js";
import { watchAfterDone } from "./after-done.js";
import { fallbackRequest, includeUsage, lastUserText } from "./request-fields.js";
import type { ChatRequest } from "./request.js";
import type { ScriptParser } from "./options.js";
import { Responder } from "./responder.js";
import { matchRoute, stripBase, type RouteMatch } from "./routes.js";
import { chooseAnswer, offeredTools, type AnswerContext } from "./rules.js";
import { findScenario, type OpenaiChatScenario } from "./scenarios.js";
import { MockState } from "./state.js";
import { DONE, type Json, type Step } from "./steps.js";
import { pacedBody, planWrites, type Chunk } from "./stream.js";
import { promptChars, UsageMeter } from "./usage.js";

/** The openai-chat mock; a reset also zeroes the id counters and the emitted-call log. */
export type OpenaiChatEngine = FetchMockEngine<ResolvedOpenaiChatOptions, MockState>;

export { HEADER_FAULT, HEADER_FRAMING, HEADER_SCENARIO };

/** `created` of the listed models (2026-01-01). */
const MODEL_CREATED = 1_767_225_600;
/** The pacing knobs that are delays (the others are sizes). */
const PACING_TIMES = PACING_KEYS.filter((k) => k.endsWith("Ms"));

/** What the request selects before its body is read. */
interface Selections {
  faults: OpenaiChatFault[];
  framing: OpenaiChatFraming;
  scenario: OpenaiChatScenario;
  /** Pacing from the query (`?argFragment=0`). */
  pacing: Partial<OpenaiChatPacing>;
  /** The first bad name or value, as a 400. */
  error: ApiError | null;
}

/** Everything decided about a request: how to record it and how to answer it. */
interface Decision {
  meta: Record<string, unknown>;
  headersDelayMs: number;
  render(): Promise<MockReply> | MockReply;
}

/** The request validator (request.ts, with zod). */
export type RequestParser = Pick<typeof import("./request.js"), "parseChatRequest">;

/** What the engine validates with, given by its creator (zod is slow to load: the node server loads it late). */
export interface Validators {
  /** The request validator, asked for at each chat request. */
  requests: () => RequestParser | Promise<RequestParser>;
  /** The scenario-script validator: needed only when `options.script` is given. */
  script?: ScriptParser;
}

export function createOpenaiChatHandler(options: OpenaiChatMockOptions, validators: Validators): OpenaiChatEngine {
  const opts = resolveOpenaiChatOptions(options, validators.script);
  const scaled = (layer: Partial<OpenaiChatPacing> | undefined) => scaleTimes(layer, opts.timeScale, PACING_TIMES);
  const catalogue = findCatalogue(opts.catalogue) ?? NO_CATALOGUE;
  const state = new MockState();
  const recorder = new ClientRecorder(opts.bus);
  const baseFaults = opts.faults.map((n) => findFault(n) as OpenaiChatFault);

  async function reply(request: MockRequest): Promise<MockReply> {
    const url = new URL(request.url);
    const route = matchRoute(stripBase(url.pathname, opts.basePath));
    const label = request.method === "OPTIONS" ? "preflight" : (route?.name ?? "unknown");
    const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
    const sel = selections(request, url);
    const parser = route?.name === "chat-completions" ? await validators.requests() : undefined;
    let decision: Decision;
    try {
      decision = decide(request, url, route, body, sel, parser);
    } catch (err) {
      decision = fixed(sel, new Responder({}).error(errors.internal((err as Error).message)));
    }
    const exchange = recorder.request({ label, request, url, body, meta: decision.meta });
    let response: MockReply;
    try {
      response = await decision.render();
    } catch (err) {
      response = new Responder({}).error(errors.internal((err as Error).message));
    }
    if (request.method !== "OPTIONS") await sleep(decision.headersDelayMs, request.signal);
    recorder.response(exchange, label, replyHead(response));
    if (opts.bus && exchange !== null && isStreamBody(response.body) && /^text\/event-stream/i.test(response.headers["content-type"] ?? "")) {
      const body = isPaced(response.body) ? pacedBody(response.body.paced, response.body.closeDelay, request.signal) : response.body;
      return { ...response, body: watchAfterDone(body, opts.bus, exchange, request.signal) };
    }
    return response;
  }

  function selections(request: MockRequest, url: URL): Selections {
    const sel = new Selection<NameKind>(unknownNameMessage);
    const faults = sel.list("fault", baseFaults, requestedName(request, url, HEADER_FAULT, "fault"), findFault);
    const framing = sel.one("framing", requestedName(request, url, HEADER_FRAMING, "framing"), opts.framing, findFraming);
    const scenario = sel.one("scenario", requestedName(request, url, HEADER_SCENARIO, "scenario"), opts.scenario, findScenario);
    const unknown = sel.problems[0];
    let error: ApiError | null = unknown ? errors.badOverride(unknown.message, unknown.kind) : null;
    const pacing: Partial<OpenaiChatPacing> = {};
    for (const key of PACING_KEYS) {
      const raw = url.searchParams.get(key);
      if (raw === null) continue;
      const value = raw.trim() === "" ? NaN : Number(raw);
      const problem = pacingProblem(key, value);
      if (problem) error ??= errors.badOverride(`Bad query parameter: ${problem}`, key);
      else pacing[key] = value;
    }
    return { faults, framing, scenario, pacing, error };
  }

  function baseMeta(sel: Selections, faults: readonly OpenaiChatFault[] = sel.faults): Record<string, unknown> {
    return {
      catalogue: opts.catalogue,
      scenario: sel.scenario.name,
      framing: sel.framing.name,
      faults: faults.map((f) => f.name),
      apiKey: opts.apiKey ?? null,
    };
  }

  function fixed(sel: Selections, response: MockReply, hooks: Hooks = combineHooks(sel.faults)): Decision {
    return {
      meta: baseMeta(sel),
      headersDelayMs: mergePacing(opts.pacing, sel.pacing, scaled(hooks.pacing)).headersDelayMs,
      render: () => response,
    };
  }

  function decide(request: MockRequest, url: URL, route: RouteMatch | undefined, body: string, sel: Selections, parser: RequestParser | undefined): Decision {
    const hooks = combineHooks(sel.faults);
    const responder = new Responder(hooks);
    const refuse = (e: ApiError) => fixed(sel, responder.error(e), hooks);
    if (request.method === "OPTIONS") return fixed(sel, responder.preflight(request), hooks);
    if (!route) return refuse(errors.notFound(request.method, url.pathname));
    if (route.name === "responses") return refuse(errors.responsesApi());
    if (route.method && request.method !== route.method) {
      return refuse(errors.methodNotAllowed(request.method, url.pathname, route.method));
    }
    const authError = checkAuth(request, hooks);
    if (authError) return refuse(authError);
    if (sel.error) return refuse(sel.error);
    switch (route.name) {
      case "models": {
        const list = {
          object: "list",
          data: opts.models.map((id) => ({ id, object: "model", created: MODEL_CREATED, owned_by: "agentwire" })),
        };
        return fixed(sel, responder.json(200, hooks.transformModels ? hooks.transformModels(list) : list), hooks);
      }
      case "model": {
        const id = safeDecode(route.param ?? "");
        if (!opts.models.includes(id)) return refuse(errors.unknownModel(id));
        return fixed(sel, responder.json(200, { id, object: "model", created: MODEL_CREATED, owned_by: "agentwire" }), hooks);
      }
      case "chat-completions":
        if (!parser) throw new Error("the request validator was not loaded");
        return chat(request, body, sel, hooks, parser);
    }
  }

  function checkAuth(request: MockRequest, hooks: Hooks): ApiError | null {
    if (opts.apiKey === undefined) return null;
    const header = request.headers.get("authorization");
    if (header === null || header.trim() === "") return hooks.auth?.acceptMissing ? null : errors.missingKey();
    const key = /^Bearer\s+(.+)$/i.exec(header.trim())?.[1]?.trim();
    if (key === opts.apiKey) return null;
    return hooks.auth?.acceptAnyKey && key ? null : errors.wrongKey();
  }

  function chat(request: MockRequest, body: string, sel: Selections, baseHooks: Hooks, { parseChatRequest }: RequestParser): Decision {
    const refuse = (e: ApiError, hooks: Hooks = baseHooks, faults = sel.faults, extra: Record<string, unknown> = {}) => ({
      ...fixed(sel, new Responder(hooks).error(e), hooks),
      meta: { ...baseMeta(sel, faults), ...extra },
    });
    const parsed = parseChatRequest(request.headers.get("content-type"), body, {
      ...(baseHooks.input?.rejectMessage ? { rejectMessage: baseHooks.input.rejectMessage } : {}),
    });
    let chatRequest: ChatRequest;
    if (parsed.ok) chatRequest = parsed.request;
    else if (baseHooks.input?.lenient) chatRequest = fallbackRequest(body, opts.models[0] as string);
    else return refuse(parsed.error);
    const stream = chatRequest.stream === true;
    if (stream && baseHooks.input?.requireStreamAccept && !/text\/event-stream/i.test(request.headers.get("accept") ?? "")) {
      return refuse(errors.notAcceptable());
    }

    // Directive lines of the last user message: a scenario and extra faults.
    const userText = lastUserText(chatRequest);
    const directives = parseDirectives(userText);
    let scenario = sel.scenario;
    if (directives.scenario !== undefined) {
      const s = findScenario(directives.scenario);
      if (!s) return refuse(errors.badOverride(unknownNameMessage("scenario", directives.scenario) as string, "scenario"));
      scenario = s;
    }
    const faults = [...sel.faults];
    for (const name of directives.faults) {
      const f = findFault(name);
      if (!f) return refuse(errors.badOverride(unknownNameMessage("fault", name) as string, "fault"));
      if (!faults.includes(f)) faults.push(f);
    }
    const hooks = faults.length === sel.faults.length ? baseHooks : combineHooks(faults);
    const responder = new Responder(hooks);
    const meta: Record<string, unknown> = {
      ...baseMeta({ ...sel, scenario }, faults),
      model: chatRequest.model,
      stream,
      includeUsage: includeUsage(chatRequest),
      followUp: isFollowUp(chatRequest),
    };

    if (!opts.anyModel && !opts.models.includes(chatRequest.model)) {
      const e = errors.unknownModel(chatRequest.model);
      if (stream && hooks.unknownModelAsStream) {
        const pacing = mergePacing(opts.pacing, sel.pacing, scaled(sel.framing.pacing), scaled(hooks.pacing));
        return {
          meta: { ...meta, answer: "error" },
          headersDelayMs: pacing.headersDelayMs,
          render: () => errorStream(e, pacing, sel.framing, hooks),
        };
      }
      return refuse(e, hooks, faults, meta);
    }
    const problems = historyProblems(chatRequest);
    meta.historyProblems = problems.map((p) => p.message);
    if (opts.rejectInvalidHistory && problems[0]) {
      return refuse(errors.invalidHistory(problems[0].message, problems[0].param), hooks, faults, meta);
    }

    const requestNo = ++state.requests;
    const ctx: AnswerContext = {
      request: chatRequest,
      catalogue,
      offered: offeredTools(chatRequest),
      directives,
      lastUserText: userText,
      model: chatRequest.model,
      stream,
      httpErrorStatus: opts.httpError,
      newCallId: () => state.nextCallId(),
    };
    let answer = chooseAnswer(ctx, scenario, opts.script);
    if (hooks.transformAnswer) answer = hooks.transformAnswer(answer, ctx);

    // The waits a scenario, framing or fault imposes follow the time scale; the start options and
    // the request's own knobs are taken as given.
    const pacing = mergePacing(
      scaled(answer.pacingDefaults),
      opts.pacing,
      scaled(answer.pacing),
      sel.pacing,
      scaled(sel.framing.pacing),
      scaled(hooks.pacing),
    );
    if (sel.framing.minChunkGap !== undefined) pacing.chunkGapMs = Math.max(pacing.chunkGapMs, sel.framing.minChunkGap);

    Object.assign(meta, {
      requestNo,
      rule: answer.rule,
      answer: answer.httpError ? "http-error" : answer.streamError ? "error" : answer.calls.length ? "tool_calls" : "text",
      finishReason: answer.httpError || answer.streamError ? null : answer.finish,
      // Only this request's calls: a copy of the whole log per request made transcripts grow with
      // the square of their length. Client checks follow the log through these, request by request.
      expectedCalls: answer.httpError ? [] : answer.calls.map((c) => ({ ...c })),
      // How long the body stays open after [DONE] (client/finishes-after-done judges held streams).
      holdAfterDoneMs: pacing.closeDelayMs,
      // The checks' own limits scale with the waits (client/finishes-after-done).
      ...(opts.timeScale !== 1 ? { [TIME_SCALE_KEY]: opts.timeScale } : {}),
    });
    if (answer.httpError) return { ...refuse(answer.httpError, hooks, faults, meta), headersDelayMs: pacing.headersDelayMs };
    state.logCalls(answer.calls, requestNo);

    const env: Envelope = {
      id: state.nextCompletionId(),
      created: opts.created ?? Math.floor(Date.now() / 1000),
      model: chatRequest.model,
      includeUsage: includeUsage(chatRequest),
    };
    meta.completionId = env.id;
    const meter = new UsageMeter(promptChars(chatRequest));
    return {
      meta,
      headersDelayMs: pacing.headersDelayMs,
      render: stream
        ? () => streamResponse(chatRequest, answer, env, meter, pacing, sel.framing, hooks, responder, requestNo)
        : () => syncResponse(request, chatRequest, answer, env, meter, pacing, hooks, responder),
    };
  }

  function streamResponse(
    chatRequest: ChatRequest,
    answer: Answer,
    env: Envelope,
    meter: UsageMeter,
    pacing: OpenaiChatPacing,
    framing: OpenaiChatFraming,
    hooks: Hooks,
    responder: Responder,
    requestNo: number,
  ): MockReply {
    const ctx: StreamContext = {
      request: chatRequest,
      answer,
      includeUsage: env.includeUsage,
      followUp: isFollowUp(chatRequest),
      env,
      meter,
      random: seededRandom((opts.seed ^ 0x9e3779b9) + requestNo),
      chunk: (delta: Json, finish: string | null = null) => makeChunk(env, delta, finish),
      usageChunk: () => makeUsageChunk(env, meter),
    };
    // Steps no hook rewrites may carry their JSON text, rendered without a JSON.stringify per chunk.
    const rewritten = hooks.transformSteps !== undefined || framing.transformSteps !== undefined;
    let steps: Iterable<Step> = answerSteps(answer, { env, pacing, meter, reasoningField: opts.reasoningField, withText: !rewritten });
    if (hooks.transformSteps) steps = hooks.transformSteps(steps, ctx);
    if (framing.transformSteps) steps = framing.transformSteps(steps, ctx);
    let chunks: Iterable<Chunk> = planWrites({ steps, format: sseFormat(framing.sse, hooks.sse), pacing, seed: opts.seed });
    if (hooks.transformChunks) chunks = hooks.transformChunks(chunks);
    return responder.sse({ paced: chunks, closeDelay: pacing.closeDelayMs }, hooks.streamContentType);
  }

  async function syncResponse(
    request: MockRequest,
    chatRequest: ChatRequest,
    answer: Answer,
    env: Envelope,
    meter: UsageMeter,
    pacing: OpenaiChatPacing,
    hooks: Hooks,
    responder: Responder,
  ): Promise<MockReply> {
    await sleep(pacing.ttftMs, request.signal);
    if (answer.streamError) {
      return responder.error({ status: 500, source: "scenario", error: { ...answer.streamError } });
    }
    let body = completionBody(answer, env, meter, opts.reasoningField);
    if (hooks.transformCompletion) {
      body = hooks.transformCompletion(body, { request: chatRequest, answer, followUp: isFollowUp(chatRequest) });
    }
    return responder.json(200, body, {}, hooks.syncContentType ?? "application/json");
  }

  /** The error-as-200-stream fault: a refusal sent as a 200 stream with one error event. */
  function errorStream(e: ApiError, pacing: OpenaiChatPacing, framing: OpenaiChatFraming, hooks: Hooks): MockReply {
    const steps: Step[] = [
      { kind: "error", data: errorBody(e) },
      { kind: "done", data: DONE },
    ];
    const chunks = planWrites({ steps, format: sseFormat(framing.sse, hooks.sse), pacing, seed: opts.seed });
    return new Responder(hooks).sse({ paced: chunks, closeDelay: pacing.closeDelayMs }, hooks.streamContentType);
  }

  return fetchMockEngine({ reply, routes: opts.routes, options: opts, state, recorder });
}

function isStreamBody(body: ReplyBody): body is ReadableStream<Uint8Array> | PacedReplyBody {
  return body !== null && typeof body === "object" && !(body instanceof Uint8Array);
}
