/**
 * msw 2 handlers running the stagewise-chat mock in the page: `http.get` answers discovery (and the control
 * endpoints), `ws.link` intercepts the toolbar's `new WebSocket(...)` and drives the same tRPC router as the node mock
 * through a socket shim. Only "msw" and browser-safe modules are imported here; input is validated with the bundled
 * schemas. Fragmentation and server pings need a real socket and are ignored.
 */
import { http, HttpResponse, ws, type RequestHandler, type WebSocketHandler } from "msw";
import superjson from "superjson";
import { absoluteUrl } from "../../core/mock/paths.js";
import { createAgentRouter } from "../../stagewise/adapter/router.js";
import { bundledValidate } from "./browser-validate.js";
import { createStagewiseEngine, type HttpAnswer, type StagewiseEngine } from "./engine.js";
import { resolveStagewiseOptions, type StagewiseMockOptions } from "./options.js";
import { CONTROL_DROP, CONTROL_SCENARIO, INFO_PATH, WS_PATH } from "./pace.js";
import { useSuperjson } from "./superjson-ref.js";
import { serveTrpcSocket } from "./trpc-socket.js";

const DEFAULT_URL = "http://localhost:5746";

export interface StagewiseChatHandlerOptions extends StagewiseMockOptions {
  /** Where the toolbar looks for the agent (default http://localhost:5746); in a browser also relative to the page's origin. */
  url?: string;
  /** Receives the engine, e.g. to inspect the agent's state in a test. */
  onEngine?: (engine: StagewiseEngine) => void;
}

const toResponse = (a: HttpAnswer) => new HttpResponse(a.status === 204 ? null : a.body, { status: a.status, headers: a.headers });

export function stagewiseChatHandlers(options: StagewiseChatHandlerOptions = {}): (RequestHandler | WebSocketHandler)[] {
  const { url = DEFAULT_URL, onEngine, ...rest } = options;
  const base = absoluteUrl(url, "stagewiseChatHandlers", "url", DEFAULT_URL);
  const engine = createStagewiseEngine(resolveStagewiseOptions(rest), bundledValidate);
  // The page has the router and superjson from the start (the node mock loads them with its first upgrade).
  useSuperjson(superjson);
  const router = createAgentRouter(engine.core);
  onEngine?.(engine);
  const origin = base.origin;
  const wsPath = engine.hooks.wsPath ?? WS_PATH;
  const link = ws.link(`${base.protocol === "https:" ? "wss" : "ws"}://${base.host}${wsPath}`);
  const socketHandler = link.addEventListener("connection", ({ client }) => {
    const socket = engine.connect(
      {
        send: (data, { binary }) => client.send(binary ? new TextEncoder().encode(data) : data),
        close: (code, reason) => client.close(code, reason),
        terminate: () => client.close(1001, "terminated"),
      },
      client.url.href,
    );
    if ("error" in socket) {
      client.close(1008, socket.error.slice(0, 120));
      return;
    }
    serveTrpcSocket(router, socket);
    client.addEventListener("message", (event) => {
      const data: unknown = event.data;
      if (typeof data === "string") socket.receive(data);
      else if (data instanceof Blob) void data.text().then((t) => socket.receive(t, true));
      else if (data instanceof ArrayBuffer) socket.receive(new TextDecoder().decode(data), true);
      else if (ArrayBuffer.isView(data)) socket.receive(new TextDecoder().decode(data), true);
    });
    client.addEventListener("close", (event) => socket.closed(event.code, event.reason));
  });
  const answer = (method: string) => async ({ request }: { request: Request }) =>
    toResponse(engine.http(method, new URL(request.url).pathname, method === "POST" ? await request.text() : ""));
  return [
    http.get(`${origin}${INFO_PATH}`, answer("GET")),
    http.options(`${origin}${INFO_PATH}`, answer("OPTIONS")),
    http.post(`${origin}${CONTROL_SCENARIO}`, answer("POST")),
    http.post(`${origin}${CONTROL_DROP}`, answer("POST")),
    socketHandler,
  ];
}
