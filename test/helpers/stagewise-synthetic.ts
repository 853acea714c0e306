/** Hand-built stagewise-chat transcripts (tRPC frames as a toolbar and an agent exchange them), and their evaluation. */
import { DEFAULT_PROFILE, type ProfileDef } from "../../src/core/check.js";
import { Evaluation } from "../../src/core/evaluation.js";
import type { CheckResult } from "../../src/core/result.js";
import { registry } from "../../src/core/schema-registry.js";
import type { TranscriptEvent } from "../../src/core/transcript.js";
import { STAGEWISE_SERVER_CHECKS } from "../../src/suites/stagewise-chat/checks/index.js";

export function evaluateStagewise(events: Iterable<TranscriptEvent>, o: { profile?: ProfileDef } = {}): Map<string, CheckResult> {
  const profile = o.profile ?? DEFAULT_PROFILE;
  const ev = new Evaluation(
    STAGEWISE_SERVER_CHECKS,
    { protocol: "stagewise-chat", profile, params: { ...(profile.params ?? {}) }, validate: (m, v) => registry.validate("stagewise-chat", m, v, profile.name) },
    false,
  );
  for (const e of events) ev.observe(e);
  return new Map(ev.finish().map((c) => [c.id.replace(/^stagewise-chat\//, ""), c]));
}

const DATE = "2025-08-08T10:00:00.000Z";
export const chat = (id: string, isActive: boolean, messages: unknown[] = [], title = "New chat") => ({ id, title, createdAt: DATE, isActive, messages });
export const item = (id: string, isActive: boolean, messageCount = 0, title = "New chat") => ({ id, title, createdAt: DATE, isActive, messageCount });
export const assistant = (id: string, content: unknown[] = []) => ({ id, role: "assistant", createdAt: DATE, content });

/** A transcript in the making. Times advance 1 ms per event unless `wait` says more. */
export class SwScript {
  readonly events: TranscriptEvent[] = [];
  private seq = 0;
  private t = 0;

  private push(e: Record<string, unknown>): this {
    this.events.push({ seq: this.seq++, t: (this.t += 1), probe: "synthetic", ...e } as TranscriptEvent);
    return this;
  }

  wait(ms: number): this {
    this.t += ms;
    return this;
  }

  open(conn: string, label: string): this {
    return this.push({ kind: "ws-open", connection: conn, url: "ws://127.0.0.1:5746/stagewise/ws", label });
  }

  send(conn: string, label: string, message: unknown): this {
    return this.push({ kind: "ws-frame", connection: conn, direction: "out", binary: false, data: JSON.stringify(message), label });
  }

  recv(conn: string, message: unknown): this {
    return this.push({ kind: "ws-frame", connection: conn, direction: "in", binary: false, data: JSON.stringify(message) });
  }

  close(conn: string, by: "kit" | "server" = "kit"): this {
    return this.push({ kind: "ws-close", connection: conn, code: 1000, by });
  }

  /** A chat subscription and its `started`. */
  subscribe(conn: string, label: string, id: number): this {
    return this.send(conn, label, {
      id,
      method: "subscription",
      params: { path: "chat.getChatUpdates", input: { json: null, meta: { values: ["undefined"] } } },
    }).recv(conn, { id, result: { type: "started" } });
  }

  tracked(conn: string, sub: number, seq: number, update: unknown): this {
    const id = String(seq);
    return this.recv(conn, { id: sub, result: { type: "data", id, data: { json: { id, data: update } } } });
  }

  /** A snapshot at `s`: the list, the active chat's full sync, the working flag. */
  snapshot(conn: string, sub: number, s: number, chats: ReturnType<typeof chat>[], isWorking = false): this {
    this.tracked(conn, sub, s, { type: "chat-list", chats: chats.map((c) => item(c.id, c.isActive, c.messages.length, c.title)) });
    const active = chats.find((c) => c.isActive);
    if (active) this.tracked(conn, sub, s, { type: "chat-full-sync", chat: active });
    return this.tracked(conn, sub, s, { type: "agent-state", isWorking });
  }

  mutation(conn: string, label: string, id: number, path: string, input: unknown): this {
    return this.send(conn, label, { id, method: "mutation", params: { path, input: { json: input } } });
  }

  answer(conn: string, id: number, value: unknown): this {
    return this.recv(conn, { id, result: { type: "data", data: { json: value } } });
  }

  reject(conn: string, id: number, reason: string, code = "NOT_FOUND", json = -32004, httpStatus = 404): this {
    return this.recv(conn, { id, error: { json: { message: reason, code: json, data: { code, httpStatus, reason } } } });
  }
}
