/**
 * pi-web behaviours for the shared hostile WebSocket server: each misbehaves on the WebSocket in
 * one way; `hostilePiWeb` serves one behind pi's GET /health (so the target is reachable).
 */
import type { WebSocket } from "ws";
import { hostileWs, routes, type HostileWs, type WsBehaviour } from "./hostile-ws.js";

export type { HostileWs, WsBehaviour } from "./hostile-ws.js";

export const hostilePiWeb = (behaviour: WsBehaviour | "no-upgrade"): Promise<HostileWs> => hostileWs(behaviour, { routes: routes.piWeb });

/** Calls `fn` every `ms` until the socket closes. */
function forever(ws: WebSocket, ms: number, fn: () => void): void {
  const timer = setInterval(() => {
    if (ws.readyState !== ws.OPEN) clearInterval(timer);
    else fn();
  }, ms);
  ws.on("close", () => clearInterval(timer));
}

const commandOf = (data: unknown): { id?: unknown; type?: unknown } => {
  try {
    const v = JSON.parse(String(data)) as unknown;
    return v && typeof v === "object" ? (v as { id?: unknown; type?: unknown }) : {};
  } catch {
    return {};
  }
};

const respond = (ws: WebSocket, cmd: { id?: unknown; type?: unknown }) =>
  ws.send(JSON.stringify({ type: "response", ...(cmd.id !== undefined ? { id: cmd.id } : {}), command: cmd.type, success: true }));

const assistant = { role: "assistant", content: [], api: "mock", provider: "mock", model: "m", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 1 };

export const wsBehaviours = {
  /** Upgrades, then never sends anything. */
  silence: (() => undefined) as WsBehaviour,
  /** Random binary frames, forever. */
  binaryGarbage: ((ws) => {
    let seed = 7;
    forever(ws, 5, () => {
      const chunk = Buffer.alloc(512);
      for (let i = 0; i < chunk.length; i++) chunk[i] = (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
      ws.send(chunk, { binary: true });
    });
  }) as WsBehaviour,
  /** Answers every message with a text frame of invalid UTF-8. */
  invalidUtf8: ((ws) => {
    ws.on("message", () => ws.send(Buffer.from([0x7b, 0x22, 0x74, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]), { binary: false }));
  }) as WsBehaviour,
  /** Answers commands; a prompt starts a run that closes with 1011 in the middle of a message. */
  close1011MidRun: ((ws) => {
    ws.on("message", (data) => {
      const cmd = commandOf(data);
      if (typeof cmd.type !== "string") return;
      respond(ws, cmd);
      if (cmd.type !== "prompt") return;
      ws.send(JSON.stringify({ type: "agent_start" }));
      ws.send(JSON.stringify({ type: "turn_start" }));
      ws.send(JSON.stringify({ type: "message_start", message: assistant }));
      ws.send(JSON.stringify({ type: "message_update", message: assistant, assistantMessageEvent: { type: "text_start", contentIndex: 0 } }));
      ws.send(JSON.stringify({ type: "message_update", message: assistant, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "Hel" } }));
      setTimeout(() => ws.close(1011, "internal error"), 20);
    });
  }) as WsBehaviour,
  /** Floods message_update events from the first message on, forever. */
  eventFlood: ((ws) => {
    const update = JSON.stringify({ type: "message_update", message: assistant, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "flood " } });
    ws.once("message", () => forever(ws, 1, () => {
      for (let i = 0; i < 200; i++) ws.send(update);
    }));
  }) as WsBehaviour,
  /**
   * Answers commands; a prompt starts a run that never ends: its last message_update is repeated
   * every 200 ms, so no idle limit fires and no agent_end ever comes.
   */
  neverEnds: ((ws) => {
    ws.on("message", (data) => {
      const cmd = commandOf(data);
      if (typeof cmd.type !== "string") return;
      respond(ws, cmd);
      if (cmd.type !== "prompt") return;
      ws.send(JSON.stringify({ type: "agent_start" }));
      ws.send(JSON.stringify({ type: "turn_start" }));
      ws.send(JSON.stringify({ type: "message_start", message: assistant }));
      const update = JSON.stringify({ type: "message_update", message: assistant, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "still going" } });
      forever(ws, 200, () => ws.send(update));
    });
  }) as WsBehaviour,
  /** Reads every command and sends run events, but never a response. */
  neverAnswers: ((ws) => {
    ws.on("message", () => {
      ws.send(JSON.stringify({ type: "agent_start" }));
      ws.send(JSON.stringify({ type: "agent_end", messages: [] }));
    });
  }) as WsBehaviour,
};
