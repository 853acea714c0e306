/**
 * tRPC's WebSocket protocol served over any socket-like object, for where @trpc/server's `ws` adapter cannot go (it
 * imports node's http): the msw handlers in a page. It does what the adapter's connection handler does with the same
 * router — parse (PARSE_ERROR with id null), call the procedure, answer mutations once, stream subscriptions
 * (`started`, tracked ids, `stopped` after `subscription.stop`), answer PING with PONG — through tRPC's own core
 * functions, so the frames are the ones the node mock sends. There is no server keep-alive ping here. Browser-safe.
 */
import type { AnyRouter } from "@trpc/server";
import {
  callProcedure,
  getErrorShape,
  getTRPCErrorFromUnknown,
  isAsyncIterable,
  isTrackedEnvelope,
  parseTRPCMessage,
  transformTRPCResponse,
  TRPCError,
} from "@trpc/server/unstable-core-do-not-import";

export interface TrpcSocketLike {
  readonly readyState: number;
  send(data: string): void;
  on(event: string, listener: (...args: any[]) => void): unknown; // eslint-disable-line @typescript-eslint/no-explicit-any
  once(event: string, listener: (...args: any[]) => void): unknown; // eslint-disable-line @typescript-eslint/no-explicit-any
}

type Id = string | number | null;
type ProcedureType = "query" | "mutation" | "subscription";

export function serveTrpcSocket(router: AnyRouter, socket: TrpcSocketLike): void {
  const config = router._def._config;
  const subscriptions = new Map<Id, AbortController>();

  const respond = (message: Record<string, unknown>) => {
    if (socket.readyState !== 1) return;
    socket.send(JSON.stringify(transformTRPCResponse(config, message as never)));
  };
  const shape = (error: TRPCError, type: ProcedureType | "unknown", path?: string, input?: unknown) => getErrorShape({ config, error, type, path, input, ctx: {} });

  socket.on("message", (raw: unknown) => {
    const text = typeof raw === "string" ? raw : String(raw);
    if (text === "PONG") return;
    if (text === "PING") {
      socket.send("PONG");
      return;
    }
    let messages: ReturnType<typeof parseTRPCMessage>[];
    try {
      const parsed: unknown = JSON.parse(text);
      messages = (Array.isArray(parsed) ? parsed : [parsed]).map((m) => parseTRPCMessage(m, config.transformer));
    } catch (cause) {
      respond({ id: null, error: shape(new TRPCError({ code: "PARSE_ERROR", cause }), "unknown") });
      return;
    }
    messages.forEach((m, i) => void handle(m, i));
  });
  socket.once("close", () => {
    for (const c of subscriptions.values()) c.abort();
    subscriptions.clear();
  });

  async function handle(message: ReturnType<typeof parseTRPCMessage>, batchIndex: number): Promise<void> {
    const { id, jsonrpc } = message;
    if (id === null) {
      respond({ id, jsonrpc, error: shape(new TRPCError({ code: "PARSE_ERROR", message: "`id` is required" }), "unknown") });
      return;
    }
    if (message.method === "subscription.stop") {
      subscriptions.get(id)?.abort();
      return;
    }
    const { path, lastEventId } = message.params;
    let { input } = message.params;
    const type = message.method as ProcedureType;
    if (lastEventId !== undefined) input = input && typeof input === "object" ? { ...input, lastEventId } : (input ?? { lastEventId });
    if (type === "subscription" && subscriptions.has(id)) {
      respond({ id, jsonrpc, error: shape(new TRPCError({ code: "BAD_REQUEST", message: `Duplicate id ${id}` }), type, path, input) });
      return;
    }
    const controller = new AbortController();
    if (type === "subscription") subscriptions.set(id, controller);
    try {
      const result: unknown = await callProcedure({ router, path, getRawInput: async () => input, ctx: {}, type, signal: controller.signal, batchIndex });
      if (type !== "subscription") {
        respond({ id, jsonrpc, result: { type: "data", data: result } });
        return;
      }
      if (!isAsyncIterable(result)) throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: `Subscription ${path} did not return an AsyncGenerator` });
      respond({ id, jsonrpc, result: { type: "started" } });
      const iterator = (result as AsyncIterable<unknown>)[Symbol.asyncIterator]();
      const stopped = new Promise<"stop">((resolve) => controller.signal.addEventListener("abort", () => resolve("stop"), { once: true }));
      for (;;) {
        const next = await Promise.race([iterator.next(), stopped]);
        if (next === "stop") {
          void iterator.return?.(undefined);
          break;
        }
        if (next.done) break;
        const value = next.value;
        respond({ id, jsonrpc, result: isTrackedEnvelope(value) ? { type: "data", id: value[0], data: { id: value[0], data: value[1] } } : { type: "data", data: value } });
      }
      respond({ id, jsonrpc, result: { type: "stopped" } });
    } catch (cause) {
      respond({ id, jsonrpc, error: shape(getTRPCErrorFromUnknown(cause), type, path, input) });
    } finally {
      if (subscriptions.get(id) === controller) subscriptions.delete(id);
    }
  }
}
