/** stagewise-chat conveniences on the shared transcript builder: tRPC frames as a toolbar and an agent exchange them. */
import { Transcript } from "./synthetic-transcript.js";

const DATE = "2025-08-08T10:00:00.000Z";
export const chat = (id: string, isActive: boolean, messages: unknown[] = [], title = "New chat") => ({ id, title, createdAt: DATE, isActive, messages });
export const item = (id: string, isActive: boolean, messageCount = 0, title = "New chat") => ({ id, title, createdAt: DATE, isActive, messageCount });
export const assistant = (id: string, content: unknown[] = []) => ({ id, role: "assistant", createdAt: DATE, content });

/** A transcript in the making on the agent's WebSocket. Times advance 1 ms per event unless `wait` says more. */
export class SwScript extends Transcript {
  constructor() {
    super({ wsUrl: "ws://127.0.0.1:5746/stagewise/ws" });
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
