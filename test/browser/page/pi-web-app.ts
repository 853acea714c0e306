/**
 * The pi-web browser test page: msw's `setupWorker` with agentwire's pi-web handlers, imported
 * from the BUILT per-protocol entry ("agentwire/msw/pi-web" → dist/mocks/pi-web/msw.js). The page
 * opens two WebSockets to ws://localhost:4781/ws, where nothing listens: msw's ws.link handlers
 * answer in the page. Socket A prompts `scenario:<name> hi` (`?scenario=`, default text), socket B
 * only listens; then A resyncs with get_state and get_messages. The outcome is left on
 * window.__piWebResult.
 */
import { setupWorker } from "msw/browser";
import { piWebHandlers } from "agentwire/msw/pi-web";

type Json = Record<string, any>;

export type PiWebPageResult =
  | {
      ok: true;
      /** Everything socket A received, parsed, in order. */
      received: Json[];
      /** Events socket B (passive) received. */
      passive: Json[];
      /** Whether any frame was not a text frame with one JSON object. */
      nonJsonFrames: number;
      state: Json;
      messages: Json[];
      controller: string | null;
    }
  | { ok: false; error: string };

declare global {
  interface Window {
    __piWebResult?: PiWebPageResult;
  }
}

const URL_WS = "ws://localhost:4781/ws";

function socket(onMessage: (m: Json) => void, onBad: () => void): Promise<WebSocket> {
  const ws = new WebSocket(URL_WS);
  ws.addEventListener("message", (e) => {
    if (typeof e.data !== "string") return onBad();
    try {
      const v = JSON.parse(e.data);
      if (v && typeof v === "object" && !Array.isArray(v)) onMessage(v);
      else onBad();
    } catch {
      onBad();
    }
  });
  return new Promise((resolve, reject) => {
    ws.addEventListener("open", () => resolve(ws), { once: true });
    ws.addEventListener("error", () => reject(new Error("WebSocket error")), { once: true });
  });
}

async function run(): Promise<PiWebPageResult> {
  const scenario = new URLSearchParams(location.search).get("scenario") ?? "text";
  const worker = setupWorker(...piWebHandlers());
  await worker.start({ serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "bypass", quiet: true });

  const received: Json[] = [];
  const passive: Json[] = [];
  let nonJsonFrames = 0;
  let wake: (() => void) | undefined;
  const a = await socket(
    (m) => {
      received.push(m);
      wake?.();
    },
    () => nonJsonFrames++,
  );
  await socket((m) => passive.push(m), () => nonJsonFrames++);

  const waitFor = (pred: (m: Json) => boolean, timeout = 15_000) =>
    new Promise<Json>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`timed out; got ${received.map((m) => m.type).join(",")}`)), timeout);
      const check = () => {
        const hit = received.find(pred);
        if (hit) {
          clearTimeout(t);
          wake = undefined;
          resolve(hit);
        }
      };
      wake = check;
      check();
    });

  a.send(JSON.stringify({ id: "req_1", type: "prompt", message: `scenario:${scenario} hi` }));
  await waitFor((m) => m.type === "agent_end");
  a.send(JSON.stringify({ id: "req_2", type: "get_state" }));
  const state = await waitFor((m) => m.id === "req_2");
  a.send(JSON.stringify({ id: "req_3", type: "get_messages" }));
  const messages = await waitFor((m) => m.id === "req_3");
  await new Promise((r) => setTimeout(r, 50)); // let B's last events land
  return {
    ok: true,
    received,
    passive,
    nonJsonFrames,
    state: state.data,
    messages: messages.data.messages,
    controller: navigator.serviceWorker.controller?.scriptURL ?? null,
  };
}

run().then(
  (result) => (window.__piWebResult = result),
  (err: unknown) => (window.__piWebResult = { ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
);
