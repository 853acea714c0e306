/**
 * The browser test page: msw's service worker with agentwire's handlers, imported from the BUILT
 * package entry ("agentwire/msw" → dist/msw.js), then the connect + chat/stream flow a frontend
 * runs against http://localhost:8000. Nothing listens there: the worker answers. The outcome is
 * left on window.__result for the test to read. `?scenario=<name>` selects the chat scenario.
 */
import { setupWorker } from "msw/browser";
import { mcpChatHandlers } from "agentwire/msw";
import { readSse } from "../sse.js";

export type PageResult =
  | {
      ok: true;
      connectStatus: number;
      connectBody: unknown;
      status: number;
      contentType: string | null;
      text: string;
      events: string[];
      controller: string | null;
    }
  | { ok: false; error: string };

declare global {
  interface Window {
    __result?: PageResult;
  }
}

const BASE = "http://localhost:8000";

async function run(): Promise<PageResult> {
  const scenario = new URLSearchParams(location.search).get("scenario");
  const worker = setupWorker(...mcpChatHandlers());
  await worker.start({ serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "bypass", quiet: true });

  const connect = await fetch(`${BASE}/connect/weather`, { method: "POST" });
  const connectBody: unknown = await connect.json();
  const query = scenario ? `?scenario=${encodeURIComponent(scenario)}` : "";
  const res = await fetch(`${BASE}/chat/stream${query}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message: "hi" }),
  });
  const { text, payloads } = await readSse(res.body);
  return {
    ok: true,
    connectStatus: connect.status,
    connectBody,
    status: res.status,
    contentType: res.headers.get("content-type"),
    text,
    events: payloads,
    controller: navigator.serviceWorker.controller?.scriptURL ?? null,
  };
}

run().then(
  (result) => (window.__result = result),
  (err: unknown) => (window.__result = { ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
);
