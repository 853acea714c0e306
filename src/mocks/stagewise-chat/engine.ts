/**
 * The stagewise-chat reference agent without a transport: the adapter's parts (agent, side channels) with
 * the mock's scenarios as its turns, the faults and framing folded into hooks, discovery and the control endpoints
 * as a plain request → answer function, and connections as tapped sockets. The node server (server.ts) and the msw
 * handlers (msw.ts) both drive this. Browser-safe.
 */
import { superjson } from "./superjson-ref.js";
import type { AgentMessageUpdate, ChatMessage } from "../../generated/stagewise-chat.js";
import { createAgentParts, type AgentParts } from "../../stagewise/adapter/agent-parts.js";
import type { SeqEvent } from "../../stagewise/adapter/chat-store.js";
import type { RouterParts } from "../../stagewise/adapter/router.js";
import type { Validate } from "../../stagewise/adapter/chat-agent.js";
import { messagingUpdateToWire, updateToWire } from "../../stagewise/adapter/wire-dates.js";
import { splitNames } from "../../core/mock/names.js";
import { findFault } from "./faults.js";
import { findFraming } from "./framing.js";
import { DEFAULT_STYLE, foldHooks, type MockContext, type StagewiseHooks } from "./hooks.js";
import { NAMES, type ResolvedStagewiseOptions } from "./options.js";
import { CONTROL_DROP, CONTROL_SCENARIO, INFO_PATH } from "./pace.js";
import { findScenario, scenarioOf, type Scenario } from "./scenarios.js";
import { TapSocket, type Transport } from "./tap.js";
import { CHAT_PATH, copyFrame, seqOf, setSeq, type Frame, type Json, type Sub } from "./wire.js";

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface StagewiseEngine {
  /**
   * The agent without its router: the node server builds that with its first upgrade, the msw handlers at once.
   * `liveChat` lets the connections write the live updates of chat subscriptions themselves (live-chat.ts).
   */
  readonly core: AgentParts & Pick<RouterParts, "liveChat">;
  /** The hooks of the mock as started (faults and framing), without a connection's own. */
  readonly hooks: StagewiseHooks;
  readonly scenario: string;
  /** Discovery and the control endpoints. */
  http(method: string, path: string, body: string): HttpAnswer;
  /** A tapped socket for a new connection; `url` may select more faults or a framing (`?fault=`, `?framing=`). */
  connect(transport: Transport, url: string, toRaw?: (text: string) => unknown): TapSocket | { error: string };
  /** Asks every toolbar to reconnect. */
  reconnect(): void;
  close(): void;
}

function counterIds(): (kind: "chat" | "message" | "tool-call") => string {
  let n = 0;
  const prefix = { chat: "chat", message: "msg", "tool-call": "call" };
  return (kind) => `${prefix[kind]}-${++n}`;
}

/**
 * Makes `ctx.lastChatEvent` the wire form of the last chat update, built on first read; returns what to call with each
 * update and the id it went out with (kept as given: nothing is made per update).
 */
function lastChatEvent(ctx: MockContext): (event: SeqEvent, id: number) => void {
  let last: SeqEvent | undefined;
  let lastId = 0;
  let built: Json | undefined;
  const make = (event: SeqEvent, id: number) => superjson().serialize({ id: String(id), data: updateToWire(event.update) }) as unknown as Json;
  Object.defineProperty(ctx, "lastChatEvent", { enumerable: true, get: () => (built ??= last && make(last, lastId)) });
  return (event, id) => {
    last = event;
    lastId = id;
    built = undefined;
  };
}

const CORS = { "access-control-allow-origin": "*", "access-control-allow-methods": "GET, POST, OPTIONS", "access-control-allow-headers": "*" };

export interface EngineSettings {
  /** Every frame through tRPC's connection handler: the way the mock's own writes of live chat updates must match. */
  viaTrpc?: boolean;
}

export function createStagewiseEngine(options: ResolvedStagewiseOptions, validate: Validate, settings: EngineSettings = {}): StagewiseEngine {
  const records = (names: string[], framing: string) => [findFraming(framing)!, ...names.map((n) => findFault(n)!)];
  const hooks = foldHooks(records(options.faults, options.framing));
  const lenient = new Set(hooks.lenient ?? []);
  const checked: Validate = (schema, value) => (lenient.has(schema) ? null : validate(schema, value));
  const start = findScenario(options.scenario)!;
  let current: Scenario = start;
  const connections = new Set<TapSocket>();
  /** Ids sent since the last restart start again from 0 (the restart scenario). */
  let seqBase = 0;

  const ctx: MockContext = {
    core: undefined as unknown as AgentParts,
    agent: undefined as unknown as AgentParts["agent"],
    chunkSize: options.chunkSize,
    gapsBefore: [],
    toolCallIndex: new Map(),
    replaced: new Map(),
    validate: checked,
    dropAll(code = 1012, reason = "dropped by the agent") {
      const n = connections.size;
      for (const c of connections) c.close(code, reason);
      return n;
    },
  };

  const core = createAgentParts(
    {
      name: "agentwire stagewise-chat mock",
      description: "The reference stagewise chat agent of agentwire",
      // Every delta goes out as the scenario makes it: the pace is the mock's knob.
      coalesceMs: 0,
      // Ids by count: two runs of the mock (node and msw) send the same frames, timestamps aside.
      idGenerator: counterIds(),
      ...(start.initialChats ? { initialChats: start.initialChats() } : {}),
      hooks: {
        onUserMessage: (turn) => playTurn(turn.chatId, turn.message, turn.signal),
        // A turn cut short by a deletion or a stop is the toolbar's doing, not the mock's failure.
        onError: () => {},
      },
    },
    checked,
  );
  ctx.core = core;
  ctx.agent = core.agent;

  // tRPC starts iterating a subscription in the same synchronous run as it sends `started` (node's adapter and
  // trpc-socket.ts alike), so the chat subscription the router asks about is the one whose `started` just went out.
  let starting: { socket: TapSocket; sub: Sub; text: string } | undefined;
  const chatStarted = (socket: TapSocket, sub: Sub, text: string) => {
    const now = (starting = { socket, sub, text });
    queueMicrotask(() => {
      if (starting === now) starting = undefined;
    });
  };
  const liveChat: RouterParts["liveChat"] = (viaTrpc) => {
    const s = starting;
    starting = undefined;
    return s?.socket.liveChat(s.sub, s.text, viaTrpc);
  };
  const parts: AgentParts & Pick<RouterParts, "liveChat"> = settings.viaTrpc ? core : { ...core, liveChat };

  // Only a few faults replay the last update: it is serialized when one asks, not for every delta (the updates are
  // never changed once sent, so the later serialization is the same).
  const setLastChatEvent = lastChatEvent(ctx);
  core.agent.store.subscribe((event) => {
    const { seq, update } = event;
    setLastChatEvent(event, seq - seqBase);
    if (update.type === "agent-state" && !update.isWorking) ctx.gapsBefore.push(seq);
    if (update.type === "message-updated") {
      if (update.update.content.type === "tool-call") ctx.toolCallIndex.set(update.update.messageId, update.update.partIndex);
      if (update.update.updateType === "replace") ctx.replaced.set(update.update.messageId, update.update.partIndex);
    }
  });
  // The messaging mirror keeps its last delta (made only when asked for): no subscriber of its own per delta.
  let lastDelta: AgentMessageUpdate | null = null;
  let lastDeltaWire: Json | undefined;
  Object.defineProperty(ctx, "lastMessagingDelta", {
    enumerable: true,
    get: () => {
      const delta = core.messaging.lastDelta;
      if (delta === null) return undefined;
      if (delta !== lastDelta) {
        lastDelta = delta;
        lastDeltaWire = superjson().serialize(messagingUpdateToWire(delta)) as unknown as Json;
      }
      return lastDeltaWire;
    },
  });

  async function playTurn(chatId: string, message: ChatMessage, signal: AbortSignal): Promise<void> {
    const text = message.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
    const named = scenarioOf(text);
    const scenario = (named.name !== undefined ? findScenario(named.name) : undefined) ?? current;
    const own = new AbortController();
    ctx.abortTurn = () => own.abort();
    try {
      await scenario.play({
        ctx,
        agent: core.agent,
        chatId,
        text: named.text,
        signal: AbortSignal.any([signal, own.signal]),
        pace: options,
        style: { ...DEFAULT_STYLE, ...hooks.turn },
        reconnect,
        restart() {
          seqBase = core.agent.seq;
          ctx.dropAll(1012, "agent restarting");
        },
      });
    } catch (error) {
      if (!own.signal.aborted && !signal.aborted) throw error;
    } finally {
      ctx.abortTurn = undefined;
    }
  }

  /** After a restart, ids count from the restart (base hook, before any fault). */
  const restarted = (frame: Frame): Frame[] => {
    const seq = seqOf(frame);
    if (seqBase === 0 || frame.kind !== "event" || frame.sub?.path !== CHAT_PATH || seq === undefined) return [frame];
    const out = copyFrame(frame);
    setSeq(out, Math.max(0, seq - seqBase));
    return [out];
  };

  // Without a restart the ids need no rewriting: no outgoing hook at all lets live updates go straight out.
  const folded = new Map<Scenario, StagewiseHooks>();
  const foldedRestarted = new Map<Scenario, StagewiseHooks>();
  const base = () => (seqBase !== 0 ? [{ outgoing: restarted }] : []);
  // Asked for every frame: the common case is a lookup.
  const hooksFor = (extra: StagewiseHooks[]) => () => {
    if (extra.length > 0) return foldHooks([...base(), current, hooks, ...extra]);
    const cache = seqBase !== 0 ? foldedRestarted : folded;
    let h = cache.get(current);
    if (!h) cache.set(current, (h = foldHooks([...base(), current, hooks])));
    return h;
  };

  function reconnect(): void {
    for (const c of connections) c.send(JSON.stringify({ id: null, method: "reconnect" }));
  }

  const json = (status: number, body: unknown, extra: Record<string, string> = {}): HttpAnswer => ({
    status,
    headers: { ...(hooks.noCors ? {} : CORS), "content-type": "application/json", ...extra },
    body: JSON.stringify(body),
  });

  return {
    core: parts,
    hooks,
    get scenario() {
      return current.name;
    },
    http(method, path, body) {
      if (method === "OPTIONS") return { status: 204, headers: hooks.noCors ? {} : CORS, body: "" };
      if (path === INFO_PATH) {
        if (method !== "GET" && method !== "HEAD") return json(405, { error: `${INFO_PATH} answers GET` }, { allow: "GET, OPTIONS" });
        return json(200, hooks.info ? hooks.info(structuredClone(core.info) as unknown as Json) : core.info);
      }
      if (path === CONTROL_SCENARIO || path === CONTROL_DROP) {
        if (method !== "POST") return json(405, { error: `${path} answers POST` }, { allow: "POST" });
        if (path === CONTROL_DROP) return json(200, { dropped: ctx.dropAll() });
        let name: unknown;
        try {
          name = (JSON.parse(body) as { scenario?: unknown } | null)?.scenario;
        } catch {
          return json(400, { error: 'the body is JSON: {"scenario": "<name>"}' });
        }
        if (typeof name !== "string") return json(400, { error: 'the body is JSON: {"scenario": "<name>"}' });
        const problem = NAMES.unknownNameMessage("scenario", name);
        if (problem) return json(400, { error: problem });
        current = findScenario(name)!;
        return json(200, { scenario: current.name });
      }
      return json(404, { error: `no route ${method} ${path}; discovery is GET ${INFO_PATH}` });
    },
    connect(transport, url, toRaw) {
      const query = new URL(url, "ws://localhost").searchParams;
      const extra: StagewiseHooks[] = [];
      for (const name of splitNames(query.get("fault"))) {
        const problem = NAMES.unknownNameMessage("fault", name);
        if (problem) return { error: problem };
        extra.push(findFault(name)!);
      }
      const framing = query.get("framing");
      if (framing !== null) {
        const problem = NAMES.unknownNameMessage("framing", framing);
        if (problem) return { error: problem };
        extra.push(findFraming(framing)!);
      }
      const socket = new TapSocket(transport, ctx, hooksFor(extra), toRaw, chatStarted);
      connections.add(socket);
      socket.once("close", () => connections.delete(socket));
      return socket;
    },
    reconnect,
    close() {
      ctx.abortTurn?.();
      core.agent.close();
      ctx.dropAll(1001, "agent closing");
    },
  };
}
