/**
 * msw 2 handlers running the same engine as the node mock, for frontend tests and the browser:
 * `ws.link(url)` intercepts the page's `new WebSocket(...)`. Only "msw" and browser-safe modules
 * are imported here.
 *
 * There is no HTTP upgrade to inspect, so: the path is the link's; the token check applies to
 * the URL's `?token=` (a refusal closes the socket with 1008 and reason "401 Unauthorized");
 * there is no Origin check unless `originCheck: true` and an `origin` are given. Fragmentation
 * and pings are not possible through msw and are ignored.
 */
import { ws, type WebSocketHandler } from "msw";
import { absoluteUrl } from "../../core/mock/paths.js";
import { createPiWebEngine, type PiWebEngine } from "./engine.js";
import type { PiWebMockOptions } from "./options.js";

const DEFAULT_URL = "ws://localhost:4781/ws";

export interface PiWebHandlerOptions extends PiWebMockOptions {
  /**
   * Where the frontend opens its WebSocket (default ws://localhost:4781/ws); in a browser also relative to the page's
   * origin ("/ws" is ws://<page host>/ws, or wss: on an https page).
   */
  url?: string;
  /** The Origin the engine judges when originCheck is true (e.g. location.origin). */
  origin?: string;
  /** Receives the engine, e.g. to inspect its state in a test. */
  onEngine?: (engine: PiWebEngine) => void;
}

export function piWebHandlers(options: PiWebHandlerOptions = {}): WebSocketHandler[] {
  const { url = DEFAULT_URL, origin, onEngine, ...rest } = options;
  const target = absoluteUrl(url, "piWebHandlers", "url", DEFAULT_URL, { webSocket: true });
  const engine = createPiWebEngine({
    originCheck: false,
    host: target.hostname,
    ...(target.port ? { port: Number(target.port) } : {}),
    wsPath: target.pathname,
    ...rest,
  });
  onEngine?.(engine);
  // An absolute address is linked as given; a relative one as resolved against the page.
  const link = ws.link(/^[a-z][a-z\d+.-]*:/i.test(url) ? url : target.href);
  const handler = link.addEventListener("connection", ({ client }) => {
    const info = { url: client.url.href, headers: origin !== undefined ? { origin } : {} };
    const decision = engine.upgrade(info);
    if (!decision.ok) {
      client.close(1008, `${decision.status} ${decision.statusText}`);
      return;
    }
    const conn = engine.connect(
      {
        send: (data) => client.send(data),
        close: (code, reason) => client.close(code, reason),
      },
      info,
    );
    client.addEventListener("message", (event) => {
      const data: unknown = event.data;
      if (typeof data === "string") conn.onMessage(data, false);
      else if (data instanceof Blob) void data.arrayBuffer().then((b) => conn.onMessage(new Uint8Array(b), true));
      else if (data instanceof ArrayBuffer) conn.onMessage(new Uint8Array(data), true);
      else if (ArrayBuffer.isView(data)) conn.onMessage(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), true);
    });
    client.addEventListener("close", (event) => conn.onClose(event.code, event.reason));
  });
  return [handler];
}
