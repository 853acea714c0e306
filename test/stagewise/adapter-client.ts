/**
 * A toolbar for the adapter tests: the real @trpc/client over `ws`, superjson, and a follower of
 * chat.getChatUpdates that records every event (Dates back to ISO strings) and reduces them.
 */
import { createTRPCClient, createWSClient, wsLink } from "@trpc/client";
import superjson from "superjson";
import WebSocket from "ws";
import type { ChatUpdate } from "../../src/generated/stagewise-chat.js";
import { initialChatState, reduceChatUpdates, type ChatState } from "../../src/stagewise/chat-state.js";
import type { AgentRouter } from "../../src/stagewise/adapter/router.js";
import { fromWire } from "../../src/stagewise/adapter/wire-dates.js";

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

export interface Toolbar {
  trpc: ReturnType<typeof createTRPCClient<AgentRouter>>;
  close(): Promise<void>;
}

export function connect(wsUrl: string): Toolbar {
  const ws = createWSClient({ url: wsUrl, WebSocket: WebSocket as unknown as typeof globalThis.WebSocket, retryDelayMs: () => 50 });
  const trpc = createTRPCClient<AgentRouter>({ links: [wsLink({ client: ws, transformer: superjson })] });
  return { trpc, close: () => ws.close() };
}

export interface Event {
  seq: number;
  update: ChatUpdate;
}

/** One chat.getChatUpdates subscription, recording its events. */
export class Follower {
  readonly events: Event[] = [];
  readonly errors: unknown[] = [];
  private readonly sub: { unsubscribe(): void };
  private waiters: (() => void)[] = [];

  constructor(toolbar: Toolbar) {
    this.sub = toolbar.trpc.chat.getChatUpdates.subscribe(undefined, {
      onData: (event: unknown) => {
        const { id, data } = event as { id: string; data: unknown };
        this.events.push({ seq: Number(id), update: fromWire(data) as ChatUpdate });
        for (const wake of this.waiters.splice(0)) wake();
      },
      onError: (error: unknown) => this.errors.push(error),
    });
  }

  /** Waits until an event satisfies `test` (looking at events from `from` on); returns it. */
  async waitFor(test: (e: Event) => boolean, timeoutMs = 3_000, from = 0): Promise<Event> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.events.slice(from).find(test);
      if (hit) return hit;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event within ${timeoutMs} ms; saw ${JSON.stringify(this.events.map((e) => [e.seq, e.update.type]))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  /** Waits until the follower has seen `seq`. */
  reach(seq: number, timeoutMs = 3_000): Promise<Event> {
    return this.waitFor((e) => e.seq >= seq, timeoutMs);
  }

  /** The state reduced from every event (snapshot first), as a toolbar holds it. */
  reduced(): ChatState {
    const result = reduceChatUpdates(this.events, initialChatState());
    if (!result.ok) throw new Error(`the events do not reduce: ${JSON.stringify(result.violation)} at seq ${String(result.seq)}`);
    return result.state;
  }

  stop(): void {
    this.sub.unsubscribe();
  }
}

/** The tRPC error's shape as the client received it. */
export function errorData(error: unknown): { code?: string; httpStatus?: number; reason?: string } {
  return ((error as { data?: unknown }).data ?? {}) as { code?: string; httpStatus?: number; reason?: string };
}

/** Runs a mutation expected to fail; returns its error data. */
export async function rejection(call: Promise<unknown>): Promise<{ code?: string; httpStatus?: number; reason?: string; message: string }> {
  try {
    await call;
  } catch (error) {
    return { ...errorData(error), message: (error as Error).message };
  }
  throw new Error("the call succeeded");
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `ready()` holds (checked every 5 ms), at most `ms`; then throws naming `what`. */
export async function until(ready: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(5);
  }
}
