/**
 * `mcp-chat/client/*`: what any client sends, judged from the mock's `http-request` events (the
 * mock labels each request by route and records its own state in `meta`). These need no adapter,
 * so a browser frontend gets them too.
 */
import { at, excerpt, type CheckDef } from "../../../core/checks/check.js";
import { mediaType } from "../../../core/checks/check-helpers.js";
import { checkMaker, type CheckSpec } from "../../../core/checks/define-check.js";
import { requestRules } from "../../../core/client-cases/request-check.js";
import { crossedReason, crossingGrace } from "../../../core/checks/crossing.js";
import { tallyChecks } from "../../../core/checks/tally-rule.js";
import { tap } from "../../../core/views/hooks.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import type { TranscriptEvent } from "../../../core/transcript/transcript.js";
import { caseOfPath } from "./cases.js";
import { SEED } from "../labels.js";

const CHAT_LABELS = new Set(["chat-stream", "chat"]);
const connectBeforeChatId = "mcp-chat/client/connect-before-chat";
/** The mock records client traffic under this probe name. */
export const CLIENT_PROBE = "client";

type Request = Extract<TranscriptEvent, { kind: "http-request" }>;

/**
 * A request the rule applies to: client traffic with one of `labels`, unless it is a robustness
 * case whose request breaks this rule on purpose (the kit asked for it).
 */
function judged(event: TranscriptEvent, labels: Set<string>, checkId: string): event is Request {
  if (event.kind !== "http-request" || event.probe !== CLIENT_PROBE || !labels.has(event.label)) return false;
  return !caseOfPath(event.path)?.exempt?.includes(checkId);
}

/** Rules judged on each request with one of the record's `labels` (see `judged`). */
const requestCheck = requestRules<CheckSpec, Request, { labels: Set<string> }>(checkMaker({ seed: SEED, side: "client" }), (req, rule) =>
  judged(req, rule.labels, rule.id) ? req : undefined,
);

export const chatRequestCheck = requestCheck({
  id: "mcp-chat/client/chat-request",
  labels: CHAT_LABELS,
  pass: "every chat request was application/json with a valid ChatRequest",
  untested: "the client sent no chat request",
  judge(req, t, ctx) {
    const type = mediaType(req.headers["content-type"]);
    if (type !== "application/json") {
      t.fail("Content-Type: application/json", `${req.method} ${req.path} sent Content-Type ${JSON.stringify(req.headers["content-type"] ?? "(none)")}`, at(req, { excerpt: excerpt(req.body ?? "") }));
    }
    let body: unknown;
    try {
      body = JSON.parse(req.body ?? "");
    } catch {
      return t.fail("a JSON body {\"message\": string}", `${req.method} ${req.path} body is not JSON`, at(req, { excerpt: excerpt(req.body ?? "") }));
    }
    const result = ctx.validate("chat-request", body);
    if (!result.ok) {
      t.fail("a valid ChatRequest {\"message\": string}", `${req.method} ${req.path} body is not a ChatRequest: ${formatSchemaErrors(result.errors)}`, at(req, { excerpt: excerpt(req.body ?? "") }));
    }
  },
});

// RFC 3986 pchar: what may stand unescaped in a path segment.
const PCHARS = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*$/;

export const connectKnownIdCheck = requestCheck({
  id: "mcp-chat/client/connect-known-id",
  labels: new Set(["connect"]),
  pass: "every connect named a listed server id, percent-encoded",
  untested: "the client never connected",
  // Both halves or nothing: a connect whose listing is unknown (through the proxy, a client that never
  // fetched GET /servers there) is judged on its encoding only, which can fail it but not pass it.
  judge(req, t) {
    const raw = req.path.split("?")[0]!.replace(/^\/connect\//, "");
    let id: string;
    try {
      id = decodeURIComponent(raw);
    } catch {
      return t.fail("a percent-encoded server id", `connect path segment ${JSON.stringify(raw)} is not valid percent-encoding`, at(req));
    }
    const encoded = PCHARS.test(raw);
    if (!encoded) {
      t.fail(`the id percent-encoded (${encodeURIComponent(id)})`, `connect path segment ${JSON.stringify(raw)} is not percent-encoded`, at(req));
    }
    const listed = req.meta?.listedIds;
    if (!Array.isArray(listed)) {
      if (!encoded) return;
      t.untestable(`the listing was unknown when ${req.method} ${req.path} was sent (the client had not fetched GET /servers through the proxy), so whether the id was listed could not be judged`);
      return false;
    }
    if (!listed.includes(id)) {
      t.fail(`one of the listed ids ${JSON.stringify(listed)}`, `connected to unlisted id ${JSON.stringify(id)}`, at(req, { excerpt: excerpt(req.path) }));
    }
  },
});

/** Requests that change the mock's connection state. */
const STATE_LABELS = new Set(["connect", "disconnect"]);

/** A connect or disconnect the mock received while connected, and when it answered it. */
interface Change {
  answeredAt: number | undefined;
}

export const connectBeforeChatCheck = tallyChecks(checkMaker({ seed: SEED, side: "client" }))({
  id: connectBeforeChatId,
  pass: "every chat request came while a server was connected",
  untested: "the client sent no chat request",
  // Connects and disconnects made while connected, until answered a grace ago (core/checks/crossing.ts).
  state: (ctx) => ({ grace: crossingGrace(ctx), changes: new Map<string, Change>() }),
  observe: (t, s) =>
    tap(["http-request", "http-response"], (e) => {
      if ((e.kind !== "http-request" && e.kind !== "http-response") || e.probe !== CLIENT_PROBE) return;
      for (const [x, c] of s.changes) if (c.answeredAt !== undefined && c.answeredAt <= e.t - s.grace) s.changes.delete(x);
      if (e.kind === "http-response") {
        const c = s.changes.get(e.exchange);
        if (c) c.answeredAt = e.t;
        return;
      }
      if (STATE_LABELS.has(e.label)) {
        if (e.meta?.connected === true) s.changes.set(e.exchange, { answeredAt: undefined });
        return;
      }
      if (!judged(e, CHAT_LABELS, connectBeforeChatId)) return;
      const connected = e.meta?.connected;
      if (typeof connected !== "boolean") return; // the mock did not say: cannot judge
      if (connected) return t.ok();
      // The client was connected until a change it may not have heard back from when it sent this.
      if (s.changes.size > 0) return t.untestable(crossedReason(`${e.method} ${e.path}`, s.grace));
      t.fail("a connected server (POST /connect/{id} first)", `${e.method} ${e.path} sent while no server was connected`, at(e, { excerpt: excerpt(e.body ?? "") }));
    }),
});

export const TRAFFIC_CHECKS: CheckDef[] = [chatRequestCheck, connectKnownIdCheck, connectBeforeChatCheck];
