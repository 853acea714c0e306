/**
 * Drives the continue-remote engine in-process and judges its snapshots: the schema of the profile
 * and the §3.17 consistency rules between successive polls.
 */
import { expect } from "vitest";
import { isDeepStrictEqual } from "node:util";
import { formatSchemaErrors, registry } from "../../../src/core/schemas/schema-registry.js";
import { createContinueRemoteEngine, type ContinueRemoteEngine } from "../../../src/mocks/continue-remote/engine.js";
import type { ContinueRemoteMockOptions } from "../../../src/mocks/continue-remote/options.js";

export const BASE = "http://127.0.0.1:8000";
export type Json = Record<string, any>;
export type Profile = "seed" | "cn-session";

export interface Client {
  engine: ContinueRemoteEngine;
  profile: Profile;
  /** GET /state, validated against the profile's schema. */
  state(): Promise<Json>;
  post(path: string, body?: unknown, contentType?: string): Promise<{ status: number; body: Json; type: string | null }>;
  get(path: string): Promise<{ status: number; body: Json; type: string | null }>;
  send(message: string): Promise<Json>;
}

export function client(options: ContinueRemoteMockOptions = {}): Client {
  const engine = createContinueRemoteEngine({ clock: "poll", ...options });
  const profile = engine.options.profile;
  const call = async (method: string, path: string, body?: unknown, contentType = "application/json") => {
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      init.headers = { "content-type": contentType };
    }
    const res = await engine.handle(new Request(BASE + path, init));
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as Json, type: res.headers.get("content-type") };
  };
  return {
    engine,
    profile,
    async state() {
      const r = await call("GET", "/state");
      expect(r.status).toBe(200);
      expectValid("state-response", r.body, profile);
      return r.body;
    },
    post: (path, body, contentType) => call("POST", path, body, contentType),
    get: (path) => call("GET", path),
    async send(message) {
      const r = await call("POST", "/message", { message });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expectValid("message-response", r.body, profile);
      return r.body;
    },
  };
}

export function expectValid(message: string, value: unknown, profile: Profile): void {
  const r = registry.validate("continue-remote", message, value, profile === "seed" ? "default" : "cn-session");
  expect(r.ok, r.ok ? "" : `${message}: ${formatSchemaErrors(r.errors)}\n${JSON.stringify(value).slice(0, 2000)}`).toBe(true);
}

export const entries = (s: Json, profile: Profile): Json[] => (profile === "seed" ? s.chatHistory : s.session.history);

/**
 * Polls until idle, answering permissions with `decide` (in request order), and returns every
 * snapshot seen, each judged against the one before.
 */
export async function pollUntilIdle(
  c: Client,
  decide: (index: number) => boolean = () => true,
  limit = 2000,
): Promise<Json[]> {
  const seen: Json[] = [];
  let asked = 0;
  let lastId: string | undefined;
  for (let i = 0; i < limit; i++) {
    const s = await c.state();
    if (seen.length) expectConsistent(seen.at(-1) as Json, s, c.profile);
    seen.push(s);
    if (!s.isProcessing) return seen;
    const p = s.pendingPermission;
    if (p) {
      expect(p.requestId).not.toBe(lastId);
      lastId = p.requestId;
      const r = await c.post("/permission", { requestId: p.requestId, approved: decide(asked++) });
      expect(r.status).toBe(200);
    }
  }
  throw new Error(`still processing after ${limit} polls`);
}

/** §3.17 between P and N, plus the per-snapshot rules (§3.5, §3.7, §3.8, §3.15). */
export function expectConsistent(P: Json, N: Json, profile: Profile, opts: { mayVanish?: boolean } = {}): void {
  expectWellFormed(N, profile);
  let p = entries(P, profile);
  const n = entries(N, profile);
  if (opts.mayVanish && p.length) {
    const last = p.at(-1) as Json;
    const vanishes = profile === "seed" ? last.isStreaming === true : last.message.role === "assistant" && last.message.content === "";
    if (vanishes) p = p.slice(0, -1);
  }
  expect(n.length, "history shrank").toBeGreaterThanOrEqual(p.length);
  p.forEach((before, i) => {
    const after = n[i] as Json;
    if (isDeepStrictEqual(before, after)) return;
    if (profile === "cn-session") {
      for (const k of ["role", "content", "toolCalls"]) expect(after.message[k], `item ${i} ${k} changed`).toEqual(before.message[k]);
      const rank = { generating: 0, generated: 1, calling: 2, done: 3, errored: 3, canceled: 3 } as Record<string, number>;
      (before.toolCallStates ?? []).forEach((s: Json, j: number) => {
        const t = after.toolCallStates[j];
        expect(t.toolCallId).toBe(s.toolCallId);
        expect(rank[t.status], `status ${s.status} → ${t.status}`).toBeGreaterThanOrEqual(rank[s.status] as number);
        if (rank[s.status] === 3) expect(t).toEqual(s);
      });
      return;
    }
    if (before.isStreaming === true) {
      expect(after.role).toBe("assistant");
      expect((after.content as string).startsWith(before.content), `entry ${i} rewritten, not appended to`).toBe(true);
      return;
    }
    if (before.messageType === "tool-start") {
      expect(after.messageType, `entry ${i}`).toBe("tool-result");
      expect(after.toolName).toBe(before.toolName);
      return;
    }
    expect(after, `entry ${i} changed`).toEqual(before);
  });
  if (profile === "cn-session") expect(N.session.sessionId).toBe(P.session.sessionId);
}

/** What holds in any one snapshot. */
export function expectWellFormed(s: Json, profile: Profile): void {
  const list = entries(s, profile);
  if (profile === "seed") {
    const streaming = list.map((e, i) => (e.isStreaming ? i : -1)).filter((i) => i >= 0);
    expect(streaming.length, "more than one entry streams").toBeLessThanOrEqual(1);
    if (streaming.length) {
      expect(streaming[0]).toBe(list.length - 1);
      expect(list.at(-1)?.role).toBe("assistant");
    }
    list.forEach((e, i) => {
      if (e.messageType !== "tool-start") return;
      const next = list[i + 1];
      const resolved = next && (next.messageType === "tool-result" || next.messageType === "tool-error");
      if (resolved) {
        if (next.toolName !== undefined) expect(next.toolName).toBe(e.toolName);
        return;
      }
      expect(i, "an unresolved tool-start is not the last entry").toBe(list.length - 1);
      expect(s.isProcessing, "an unresolved tool-start while idle").toBe(true);
    });
    if (!s.isProcessing) expect(streaming).toEqual([]);
  } else {
    for (const item of list) {
      expect(item.message.role).not.toBe("system");
      for (const call of item.message.toolCalls ?? []) {
        const state = (item.toolCallStates ?? []).find((t: Json) => t.toolCallId === call.id);
        expect(state, `no state for ${call.id}`).toBeDefined();
        expect(state.toolCall).toEqual(call);
        expect(JSON.parse(call.function.arguments)).toEqual(state.parsedArgs);
        if (!s.isProcessing) expect(["generating", "generated", "calling"]).not.toContain(state.status);
      }
    }
  }
  if (!s.isProcessing) {
    expect(s.pendingPermission ?? null).toBeNull();
    expect(s.messageQueueLength ?? 0).toBe(0);
  }
}
