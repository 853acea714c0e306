/**
 * The mcp-chat reference mock: its answer to a request as a reply (core/mock/exchange.ts), which the
 * node server writes to the socket and msw gets as a Response, so a frontend sees the same bytes
 * either way. It is browser-safe: nothing here or below imports node modules.
 *
 * A request goes through: extension routes → route match → selections (scenario, framing, faults
 * from options, query, headers or a `!scenario` message) → recording → handler → recording.
 */
import { safeDecode, stripBase } from "../../core/mock/paths.js";
import { fetchMockEngine, type FetchMockEngine } from "../../core/mock/engine.js";
import { replyHead, type MockReply, type MockRequest } from "../../core/mock/exchange.js";
import { HEADER_FAULT, HEADER_FRAMING, HEADER_SCENARIO, requestedName, Selection } from "../../core/mock/selection.js";
import { sseFormat } from "../../core/transport/sse-framing.js";
import { sleep } from "../../core/mock/timing.js";
import { scaleTimes } from "../../core/client-cases/time-scale.js";
import { parseChatRequest, scenarioCommand, type ChatInput } from "./chat-request.js";
import { chatSyncAnswer } from "./chat-sync.js";
import type { Step } from "./events.js";
import { findFault, type McpChatFault } from "./faults.js";
import { findFraming, type McpChatFraming } from "./framing.js";
import { combineHooks, type Chunk, type Hooks, type Json, type McpChatTiming } from "./hooks.js";
import {
  DEFAULT_TIMING,
  resolveMcpChatOptions,
  unknownNameMessage,
  type McpChatMockOptions,
  type NameKind,
  type ResolvedMcpChatOptions,
} from "./options.js";
import { ClientRecorder } from "../../core/transport/http-client-recorder.js";
import { watchHeldStream } from "./after-done.js";
import { listing, type McpServerEntry } from "./registry.js";
import { Responder } from "./responder.js";
import { isChatRoute, matchRoute, type RouteMatch } from "./routes.js";
import { findScenario, NOT_CONNECTED_MESSAGE, type McpChatScenario } from "./scenarios.js";
import { ConnectionState } from "./state.js";
import { planChunks } from "./stream.js";

/** The mcp-chat mock; a reset leaves it disconnected. */
export type McpChatEngine = FetchMockEngine<ResolvedMcpChatOptions, ConnectionState>;

/** Everything decided about a request before it is handled (and recorded). */
interface Prepared {
  request: MockRequest;
  url: URL;
  route: RouteMatch | undefined;
  label: string;
  body: string;
  chat: ChatInput | undefined;
  hooks: Hooks;
  framing: McpChatFraming;
  scenario: McpChatScenario;
  responder: Responder;
  /** A bad scenario/framing/fault name in the request. */
  selectionError: string | null;
}

export function createMcpChatEngine(options: McpChatMockOptions = {}): McpChatEngine {
  const opts = resolveMcpChatOptions(options);
  const state = new ConnectionState();
  const recorder = new ClientRecorder(opts.bus);
  const baseFaults = opts.faults.map((n) => findFault(n) as McpChatFault);
  const TIMING_KEYS = Object.keys(DEFAULT_TIMING) as (keyof McpChatTiming)[];
  const baseTiming: McpChatTiming = { ...DEFAULT_TIMING };
  for (const k of TIMING_KEYS) baseTiming[k] = opts[k];

  async function reply(request: MockRequest): Promise<MockReply> {
    const p = await prepare(request);
    const exchange = recorder.request({
      label: p.label,
      request,
      url: p.url,
      body: p.body,
      meta: {
        connected: state.connectedId !== null,
        connectedId: state.connectedId,
        listedIds: listed(p.hooks).map((s) => s.id),
        scenario: p.scenario.name,
        framing: p.framing.name,
      },
    });
    let response: MockReply;
    try {
      response = await dispatch(p);
      if (request.method !== "OPTIONS") {
        await sleep(timingOf(p).headersDelay, request.signal);
      }
    } catch (err) {
      // Unlike Starlette's unhandled 500s, ours keep the CORS headers.
      response = p.responder.error(500, `mock error: ${(err as Error).message}`);
    }
    recorder.response(exchange, p.label, replyHead(response));
    // A stream held open after its sentinel: who ends it is noted (client-parse/done-terminates).
    return watchHeldStream(response, opts.bus, exchange, request.signal);
  }

  async function prepare(request: MockRequest): Promise<Prepared> {
    const url = new URL(request.url);
    const path = stripBase(url.pathname, opts.basePath);
    const route = matchRoute(path);
    const label = request.method === "OPTIONS" ? "preflight" : (route?.name ?? "unknown");
    const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();

    const sel = new Selection<NameKind>(unknownNameMessage);
    const faults = sel.list("fault", baseFaults, requestedName(request, url, HEADER_FAULT, "fault"), findFault);
    const hooks = combineHooks(faults);
    const framing = sel.one("framing", requestedName(request, url, HEADER_FRAMING, "framing"), opts.framing, findFraming);

    const chat =
      route && isChatRoute(route.name) && request.method === "POST"
        ? parseChatRequest(request.headers.get("content-type"), body, hooks.chat?.acceptBadInput)
        : undefined;
    const command = scenarioCommand(chat?.ok ? chat.message : undefined);
    let scenario = sel.one("scenario", command ?? requestedName(request, url, HEADER_SCENARIO, "scenario"), opts.scenario, findScenario);
    if (chat) scenario = answerScenario(scenario, hooks);

    return {
      request,
      url,
      route,
      label,
      body,
      chat,
      hooks,
      framing,
      scenario,
      responder: new Responder(
        request.headers.get("origin"),
        { allowedOrigins: opts.allowedOrigins, flags: hooks.cors ?? {} },
        hooks.errorBody,
      ),
      // A preflight carries no selection headers worth refusing it for.
      selectionError: request.method === "OPTIONS" ? null : (sel.problems[0]?.message ?? null),
    };
  }

  /** Chat while disconnected is refused (not-connected) unless a fault says otherwise. */
  function answerScenario(selected: McpChatScenario, hooks: Hooks): McpChatScenario {
    if (state.connectedId === null && !hooks.chat?.answerWhileDisconnected) {
      return findScenario("not-connected") as McpChatScenario;
    }
    return hooks.scenario ? (findScenario(hooks.scenario) ?? selected) : selected;
  }

  async function dispatch(p: Prepared): Promise<MockReply> {
    const { request, route, responder } = p;
    if (request.method === "OPTIONS") return responder.preflight(request);
    if (!route) return responder.error(404, "Not Found");
    if (route.name === "chat" && !opts.chatSync) return responder.error(404, "Not Found");
    if (request.method !== route.method) {
      return responder.error(405, "Method Not Allowed", { allow: `${route.method}, OPTIONS` });
    }
    if (opts.requireBearer && !/^Bearer\s+\S+/i.test(request.headers.get("authorization") ?? "")) {
      return responder.error(401, "Not authenticated", { "www-authenticate": "Bearer" });
    }
    if (p.selectionError) return responder.error(400, p.selectionError);
    switch (route.name) {
      case "servers":
        return responder.json(200, listed(p.hooks));
      case "connect":
        return connect(p, route.param ?? "");
      case "status":
        return responder.json(200, statusBody(p.hooks));
      case "disconnect":
        return disconnect(p);
      case "chat-stream":
        return chatStream(p);
      case "chat":
        return chatSync(p);
    }
  }

  function listed(hooks: Hooks): Json[] {
    const list = opts.servers.map(listing);
    return hooks.transformServers ? hooks.transformServers(list) : list;
  }

  function toolsOf(server: McpServerEntry, hooks: Hooks): Json[] {
    const tools: Json[] = server.tools.map((t) => ({ ...t }));
    return hooks.transformTools ? hooks.transformTools(tools) : tools;
  }

  function connectBody(id: string, name: string, tools: Json[], hooks: Hooks): Json {
    const body = { success: true, server_id: id, server_name: name, tools };
    return hooks.transformConnect ? hooks.transformConnect(body) : body;
  }

  function connect(p: Prepared, rawId: string): MockReply {
    const { hooks, responder } = p;
    const id = safeDecode(rawId);
    const server = opts.servers.find((s) => s.id === id);
    if (!server) {
      if (hooks.state?.acceptUnknownIds) return responder.json(200, connectBody(id, id, [], hooks));
      if (hooks.state?.dropStateOnUnknownId) state.disconnect();
      return responder.error(404, `Server '${id}' not found`);
    }
    if (state.connectedId === id && hooks.state?.reconnectStatus) {
      return responder.error(hooks.state.reconnectStatus, `Already connected to '${id}'`);
    }
    state.connect(id);
    return responder.json(200, connectBody(server.id, server.name, toolsOf(server, hooks), hooks));
  }

  function statusBody(hooks: Hooks): Json {
    const server = opts.servers.find((s) => s.id === state.connectedId);
    const body: Json = server
      ? { connected: true, server_id: server.id, server_name: server.name, tools: toolsOf(server, hooks) }
      : { connected: false, server_id: null, tools: [] };
    return hooks.transformStatus ? hooks.transformStatus(body, { state, servers: opts.servers }) : body;
  }

  function disconnect(p: Prepared): MockReply {
    const { hooks, responder } = p;
    if (state.connectedId === null && hooks.state?.idleDisconnectStatus) {
      return responder.error(hooks.state.idleDisconnectStatus, "Not connected to any MCP server");
    }
    if (!hooks.state?.disconnectKeepsState) state.disconnect();
    const body = { success: true };
    return responder.json(200, hooks.transformDisconnect ? hooks.transformDisconnect(body) : body);
  }

  function chatStream(p: Prepared): MockReply {
    const { hooks, framing, scenario, responder } = p;
    if (p.chat && !p.chat.ok) return responder.error(p.chat.status, p.chat.detail);
    if (scenario.rejection && notConnectedOf(p) === "http-409") {
      return responder.error(409, NOT_CONNECTED_MESSAGE);
    }
    let steps: Iterable<Step> = scenario.steps();
    // Semantic faults rewrite answers only, so a refusal stays a valid refusal.
    if (!scenario.rejection && hooks.transformEvents) steps = hooks.transformEvents(steps);
    if (framing.transformEvents) steps = framing.transformEvents(steps);
    const timing = timingOf(p);
    let chunks: Iterable<Chunk> = planChunks({
      steps,
      format: sseFormat(framing.sse, hooks.sse),
      timing,
      seed: opts.seed,
      timeScale: opts.timeScale,
      json: { ascii: flagOf(p, "asciiJson", opts.asciiJson), compact: flagOf(p, "compactJson", opts.compactJson) },
    });
    if (hooks.transformChunks) chunks = hooks.transformChunks(chunks);
    return responder.sse({ paced: chunks, closeDelay: timing.closeDelay }, hooks.streamContentType);
  }

  function chatSync(p: Prepared): MockReply {
    const { hooks, scenario, responder } = p;
    if (p.chat && !p.chat.ok) return responder.error(p.chat.status, p.chat.detail);
    // There is no stream to carry [ERROR] here, so a refusal is always the 409 form.
    if (scenario.rejection) return responder.error(409, NOT_CONNECTED_MESSAGE);
    const answer = chatSyncAnswer(scenario.steps());
    if (!answer.ok) return responder.error(answer.status, answer.detail);
    return responder.json(200, hooks.transformChatSync ? hooks.transformChatSync(answer.body) : answer.body);
  }

  function timingOf(p: Prepared): McpChatTiming {
    // The waits a framing or fault imposes follow the time scale; the start options are taken as given.
    const t = { ...baseTiming, ...scaleTimes(p.framing.timing, opts.timeScale, TIMING_KEYS), ...scaleTimes(p.hooks.timing, opts.timeScale, TIMING_KEYS) };
    if (p.framing.minChunkGap !== undefined) t.chunkGap = Math.max(t.chunkGap, p.framing.minChunkGap);
    return t;
  }

  /** Per-request `?notConnected=http-409|sse-error`, so client cases can ask for either refusal. */
  function notConnectedOf(p: Prepared): string {
    const q = p.url.searchParams.get("notConnected");
    return q === "http-409" || q === "sse-error" ? q : opts.notConnected;
  }

  return fetchMockEngine({ reply, routes: opts.routes, options: opts, state, recorder });
}

/** A boolean query override (`?asciiJson=1`), else the configured value. */
function flagOf(p: { url: URL }, name: string, fallback: boolean): boolean {
  const q = p.url.searchParams.get(name);
  if (q === null) return fallback;
  return q === "1" || q === "true";
}
