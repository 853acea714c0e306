/** A raw WebSocket toolbar for the mock tests: every frame recorded as it came, requests written by hand. */
import WebSocket from "ws";
import { startStagewiseMock, type RunningStagewiseMock, type StagewiseStartOptions } from "../../../src/mocks/stagewise-chat/index.js";

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const METADATA = {
  currentUrl: "http://localhost:3000/",
  currentTitle: "App",
  currentZoomLevel: 1,
  viewportResolution: { width: 1280, height: 800 },
  devicePixelRatio: 2,
  userAgent: "Mozilla/5.0",
  locale: "en-US",
  selectedElements: [],
};

export interface Received {
  text: string;
  binary: boolean;
  json?: Json;
}

const VOID = { json: null, meta: { values: ["undefined"] } };

export class Raw {
  readonly frames: Received[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];
  private nextId = 100;

  private constructor(readonly ws: WebSocket) {
    ws.on("message", (data: Buffer, binary: boolean) => {
      const text = data.toString("utf8");
      let json: Json | undefined;
      try {
        json = JSON.parse(text) as Json;
      } catch {
        json = undefined;
      }
      this.frames.push({ text, binary, ...(json && typeof json === "object" ? { json } : {}) });
      this.wake();
    });
    ws.on("close", (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  static open(url: string): Promise<Raw> {
    const ws = new WebSocket(url, { maxPayload: 64 * 1024 * 1024 });
    return new Promise((resolve, reject) => {
      ws.once("open", () => resolve(new Raw(ws)));
      ws.once("error", reject);
    });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  send(value: unknown): void {
    this.ws.send(typeof value === "string" ? value : JSON.stringify(value));
  }

  subscribe(path: string, options: { id?: number; lastEventId?: string; input?: unknown } = {}): number {
    const id = options.id ?? this.nextId++;
    const input = options.input === undefined ? VOID : { json: options.input };
    this.send({ id, method: "subscription", params: { path, input, ...(options.lastEventId !== undefined ? { lastEventId: options.lastEventId } : {}) } });
    return id;
  }

  /** Sends a mutation and waits for its answer (result or error). */
  async mutate(path: string, input: unknown, method = "mutation"): Promise<Json> {
    const id = this.nextId++;
    this.send({ id, method, params: { path, input: input === undefined ? VOID : { json: input } } });
    return (await this.waitFor((f) => f.json?.id === id && (f.json.result !== undefined || f.json.error !== undefined))).json!;
  }

  async waitFor(test: (f: Received) => boolean, timeoutMs = 5_000, from = 0): Promise<Received> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.slice(from).find(test);
      if (found) return found;
      if (this.closed || Date.now() > deadline) throw new Error(`no such frame within ${timeoutMs} ms${this.closed ? ` (closed ${this.closed.code})` : ""}; got:\n${this.frames.map((f) => f.text.slice(0, 200)).join("\n")}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Chat events of one subscription: event id and update. */
  chat(subId: number): { seq: string | undefined; update: Json; frame: Received }[] {
    return this.frames
      .filter((f) => f.json?.id === subId && f.json.result?.type === "data")
      .map((f) => {
        const data = f.json!.result.data;
        const value = data?.json ?? data;
        return { seq: f.json!.result.id as string | undefined, update: (value?.data ?? value) as Json, frame: f };
      });
  }

  /** Plain values of a subscription (messaging, state). */
  values(subId: number): Json[] {
    return this.frames.filter((f) => f.json?.id === subId && f.json.result?.type === "data").map((f) => (f.json!.result.data?.json ?? f.json!.result.data) as Json);
  }

  close(): void {
    this.ws.close();
  }
}

/** A mock on a free port, quick. */
export function quickMock(options: StagewiseStartOptions = {}): Promise<RunningStagewiseMock> {
  return startStagewiseMock({ port: 0, firstDelayMs: 5, chunkDelayMs: 5, chunkSize: 8, ...options });
}

export const CHAT = "chat.getChatUpdates";

/** Subscribes to chat updates and waits for the snapshot's end (agent-state). */
export async function following(raw: Raw, options: { lastEventId?: string } = {}): Promise<number> {
  const id = raw.subscribe(CHAT, options);
  await raw.waitFor((f) => {
    const value = f.json?.result?.data?.json ?? f.json?.result?.data;
    // Tracked events wrap the update ({id, data}); untracked ones (a fault) are the update.
    return f.json?.id === id && ((value?.data ?? value)?.type === "agent-state" || f.json.result?.type === "stopped");
  });
  return id;
}

/** Sends a message to the active chat and waits for the turn's end on the subscription. */
export async function turn(raw: Raw, mock: RunningStagewiseMock, text: string, subId: number): Promise<Json> {
  const from = raw.frames.length;
  const answer = await raw.mutate("chat.sendMessage", { chatId: mock.engine.core.agent.activeChatId, content: [{ type: "text", text }], metadata: METADATA });
  if (answer.error) return answer;
  await raw.waitFor((f) => f.json?.id === subId && (f.json.result?.data?.json ?? f.json.result?.data)?.data?.type === "agent-state" && (f.json.result?.data?.json ?? f.json.result?.data)?.data?.isWorking === false, 10_000, from);
  return answer;
}
