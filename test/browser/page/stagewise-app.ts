/**
 * The stagewise-chat browser test page: msw's `setupWorker` with agentwire's stagewise-chat handlers, imported from
 * the BUILT per-protocol entry ("agentwire/msw/stagewise-chat" → dist/mocks/stagewise-chat/msw.js). Nothing listens on localhost:5746: the page fetches
 * discovery, opens the WebSocket, subscribes to chat.getChatUpdates, sends a message and records every frame until
 * the turn is over. The outcome is left on window.__stagewiseResult.
 */
import { setupWorker } from "msw/browser";
import { stagewiseChatHandlers } from "agentwire/msw/stagewise-chat";
import { PAGE_METADATA, PAGE_TEXT, type Json, type StagewisePageResult } from "./stagewise-shared.js";

declare global {
  interface Window {
    __stagewiseResult?: StagewisePageResult;
  }
}

const update = (frame: Json | undefined) => frame?.result?.data?.json?.data as Json | undefined;

async function run(): Promise<StagewisePageResult> {
  const worker = setupWorker(...stagewiseChatHandlers({ firstDelayMs: 5, chunkDelayMs: 5 }));
  await worker.start({ serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "bypass", quiet: true });
  const info = (await (await fetch("http://localhost:5746/stagewise/info")).json()) as Json;

  const frames: string[] = [];
  const parsed: Json[] = [];
  let wake: (() => void) | undefined;
  const ws = new WebSocket("ws://localhost:5746/stagewise/ws");
  ws.addEventListener("message", (e) => {
    frames.push(String(e.data));
    try {
      parsed.push(JSON.parse(String(e.data)) as Json);
    } catch {
      parsed.push({});
    }
    wake?.();
  });
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve, { once: true });
    ws.addEventListener("error", () => reject(new Error("WebSocket error")), { once: true });
  });
  const waitFor = (pred: (m: Json) => boolean, from = 0) =>
    new Promise<Json>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`timed out; got ${frames.join("\n")}`)), 15_000);
      const check = () => {
        const hit = parsed.slice(from).find(pred);
        if (!hit) return;
        clearTimeout(t);
        wake = undefined;
        resolve(hit);
      };
      wake = check;
      check();
    });

  ws.send(JSON.stringify({ id: 1, method: "subscription", params: { path: "chat.getChatUpdates", input: { json: null, meta: { values: ["undefined"] } } } }));
  await waitFor((m) => m.id === 1 && update(m)?.type === "agent-state");
  const list = update(parsed.find((m) => m.id === 1 && update(m)?.type === "chat-list"))!;
  const chatId = (list.chats as Json[]).find((c) => c.isActive)!.id;
  const from = parsed.length;
  ws.send(JSON.stringify({ id: 2, method: "mutation", params: { path: "chat.sendMessage", input: { json: { chatId, content: [{ type: "text", text: PAGE_TEXT }], metadata: PAGE_METADATA } } } }));
  await waitFor((m) => m.id === 2);
  await waitFor((m) => m.id === 1 && update(m)?.type === "agent-state" && update(m)?.isWorking === false, from);
  ws.close();
  return { ok: true, info, frames, controller: navigator.serviceWorker.controller?.scriptURL ?? null };
}

run().then(
  (r) => (window.__stagewiseResult = r),
  (e: unknown) => (window.__stagewiseResult = { ok: false, error: String((e as Error)?.stack ?? e) }),
);
