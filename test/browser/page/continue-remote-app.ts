/**
 * The continue-remote browser test page: msw's `setupWorker` with agentwire's continue-remote
 * handlers, imported from the BUILT package entry ("agentwire/msw" → dist/msw.js). Like a web
 * frontend of `cn serve`, it posts a message to http://localhost:8000 (nothing listens there: the
 * worker answers) and polls GET /state until the turn is over, answering a pending permission.
 * `?scenario=<name>` and `?profile=<seed|cn-session>` choose the turn; the outcome is left on
 * window.__continueRemoteResult.
 */
import { setupWorker } from "msw/browser";
import { continueRemoteHandlers } from "agentwire/msw";

type Json = Record<string, any>;

export type ContinueRemotePageResult =
  | {
      ok: true;
      accepted: Json;
      /** Every snapshot polled, in order. */
      snapshots: Json[];
      /** The answers to the permissions the page gave. */
      permissions: Json[];
      contentType: string | null;
      controller: string | null;
    }
  | { ok: false; error: string };

declare global {
  interface Window {
    __continueRemoteResult?: ContinueRemotePageResult;
  }
}

const BASE = "http://localhost:8000";
const MAX_POLLS = 500;

async function run(): Promise<ContinueRemotePageResult> {
  const query = new URLSearchParams(location.search);
  const scenario = query.get("scenario") ?? "read-file";
  const profile = query.get("profile") === "cn-session" ? "cn-session" : "seed";
  // The poll clock: each busy poll moves the turn one step, so the page sees every state once.
  const worker = setupWorker(...continueRemoteHandlers({ baseUrl: BASE, profile, clock: "poll" }));
  await worker.start({ serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "bypass", quiet: true });

  const post = (path: string, body: unknown) =>
    fetch(`${BASE}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const accepted = (await (await post("/message", { message: `#scenario:${scenario} go` })).json()) as Json;
  const snapshots: Json[] = [];
  const permissions: Json[] = [];
  let contentType: string | null = null;
  for (let i = 0; i < MAX_POLLS; i++) {
    const res = await fetch(`${BASE}/state`);
    contentType = res.headers.get("content-type");
    const s = (await res.json()) as Json;
    snapshots.push(s);
    if (s.pendingPermission) permissions.push(await (await post("/permission", { requestId: s.pendingPermission.requestId, approved: true })).json());
    else if (!s.isProcessing) break;
  }
  return { ok: true, accepted, snapshots, permissions, contentType, controller: navigator.serviceWorker.controller?.scriptURL ?? null };
}

run().then(
  (result) => (window.__continueRemoteResult = result),
  (err: unknown) => (window.__continueRemoteResult = { ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
);
