/**
 * Reading the mock's record of a toolbar: frames of probe "client" ("in" = sent by the toolbar, "out" = sent by the
 * mock), decoded once per frame through core's connection view, and {@link AgentView}, what the mock had told its
 * toolbars when a request arrived: the chat state reduced from the chat subscription's events (the active chat, its
 * messages and tool calls, whether the agent works), with when each state was sent, since a request may cross an update
 * on the wire (core/checks/crossing.ts). Browser-safe.
 */
import { CROSSING_GRACE_MS, StateTrail } from "../../../core/checks/crossing.js";
import { frameJson, type WsFrameEvent } from "../../../core/transport/ws-exchange.js";
import { wsConnectionView, type Conn } from "../../../core/views/ws-connection.js";
import { applyChatUpdate, initialChatState, parseEventId, type ChatState } from "../../../stagewise/chat-state.js";
import type { ChatUpdate } from "../../../generated/stagewise-chat.js";
import { CHAT_PATH_NAME, isObject, resultOf, type Json } from "./vocabulary.js";

export const CLIENT_PROBE = "client";

/** A frame as the client checks read it. */
export type Frame =
  | { kind: "keepalive"; text: "PING" | "PONG" }
  /** One tRPC message, or (from the toolbar) a batch of them. */
  | { kind: "json"; values: Json[]; batch: boolean; raw: unknown }
  | { kind: "bad"; reason: string };

function decode(ev: WsFrameEvent): Frame {
  if (ev.data === "PING" || ev.data === "PONG") return { kind: "keepalive", text: ev.data };
  const p = frameJson(ev);
  if (!p.ok) return { kind: "bad", reason: `not JSON (${p.error})` };
  if (isObject(p.value)) return { kind: "json", values: [p.value], batch: false, raw: p.value };
  if (Array.isArray(p.value)) return { kind: "json", values: p.value.filter(isObject), batch: true, raw: p.value };
  return { kind: "bad", reason: `JSON ${p.value === null ? "null" : typeof p.value}, not a tRPC message` };
}

/** The toolbar's connections to the mock, each frame decoded once for every client check. */
export const TOOLBAR = wsConnectionView<Frame>({ name: "stagewise-chat/toolbar", decode: (ev) => (ev.probe === CLIENT_PROBE ? decode(ev) : { kind: "bad", reason: "not client traffic" }) });

export const fromToolbar = (ev: WsFrameEvent): boolean => ev.probe === CLIENT_PROBE && ev.direction === "in";
export const fromMock = (ev: WsFrameEvent): boolean => ev.probe === CLIENT_PROBE && ev.direction === "out";

/** What the mock had sent its toolbars so far, as far as client checks need it. */
export class AgentView {
  /** Chat subscriptions by connection and tRPC id, each with the state its events reduce to. */
  private readonly subs = new Map<string, ChatState>();
  /** The states of the chat subscription that heard last, as the mock sent them: the agent's state as it told it. */
  readonly trail: StateTrail<ChatState | undefined>;
  /** Per connection: when the mock last sent PING (its PONG shows the toolbar read everything sent before). */
  private readonly pings = new Map<string, number>();
  /** The connection the last state came by. */
  private stateConn: string | undefined;
  /** When the mock sent each recent chat event, by event id (a resume naming one shows the toolbar read it). */
  private readonly eventTimes = new Map<string, number>();

  constructor(grace = CROSSING_GRACE_MS) {
    this.trail = new StateTrail<ChatState | undefined>(undefined, grace);
  }

  /** The agent's state as the mock last told it. */
  get latest(): ChatState | undefined {
    return this.trail.latest;
  }

  /** The states a toolbar frame may have been written against (undefined: before any chat snapshot), oldest first. */
  statesFor(ev: WsFrameEvent): (ChatState | undefined)[] {
    return this.trail.plausible(ev.t);
  }

  /** Feeds one decoded frame of a connection (both directions). */
  frame(ev: WsFrameEvent, f: Frame, c: Conn): void {
    if (f.kind === "keepalive") {
      if (fromMock(ev) && f.text === "PING") this.pings.set(c.id, ev.t);
      else if (fromToolbar(ev) && f.text === "PONG" && c.id === this.stateConn && this.pings.has(c.id)) this.trail.readUpTo(this.pings.get(c.id)!);
      return;
    }
    if (f.kind !== "json") return;
    for (const v of f.values) {
      const key = `${c.id} ${JSON.stringify(v.id)}`;
      if (fromToolbar(ev)) {
        const params = isObject(v.params) ? v.params : {};
        if (v.method === "subscription" && params.path === CHAT_PATH_NAME) {
          this.subs.set(key, initialChatState());
          // Resuming after event N: the toolbar had read the chat up to it.
          const after = typeof params.lastEventId === "string" ? this.eventTimes.get(params.lastEventId) : undefined;
          if (after !== undefined) this.trail.readUpTo(after);
        }
        else if (v.method === "subscription.stop") this.subs.delete(key);
        continue;
      }
      const state = this.subs.get(key);
      if (!state) continue;
      const r = resultOf(v);
      if (r.kind !== "data" || !isObject(r.value)) continue;
      // Tracked events carry {id, data}; the update is the data.
      const update = (isObject(r.value.data) && typeof r.value.type !== "string" ? r.value.data : r.value) as unknown as ChatUpdate;
      const seq = parseEventId(r.eventId ?? r.value.id);
      if (seq === null) continue;
      // A snapshot starts afresh: the toolbar keeps nothing (r3).
      const from = update.type === "chat-list" ? initialChatState() : state;
      const next = applyChatUpdate(from, update, seq);
      if (!next.ok) continue;
      this.subs.set(key, next.state);
      this.trail.set(ev.t, next.state);
      this.stateConn = c.id;
      this.noteEvent(String(r.eventId ?? r.value.id), ev.t);
    }
  }

  /** Keeps event ids only as long as a resume naming them could still move the crossing window. */
  private noteEvent(id: string, t: number): void {
    // Oldest first: a snapshot repeats the last id.
    this.eventTimes.delete(id);
    this.eventTimes.set(id, t);
    for (const [k, at] of this.eventTimes) {
      if (at > t - this.trail.grace) break;
      this.eventTimes.delete(k);
    }
  }
}

/** A tool call of the active chat and what became of it. */
export interface ToolCallInfo {
  toolCallId: string;
  toolName: string;
  runtime: string;
  requiresApproval: boolean;
  /** The recorded approval (true / false), or undefined when none. */
  approved: boolean | undefined;
  hasResult: boolean;
}

/** The active chat's tool calls, from the messages the mock sent. */
export function toolCalls(state: ChatState): Map<string, ToolCallInfo> {
  const out = new Map<string, ToolCallInfo>();
  for (const m of state.messages) {
    for (const part of m.content as unknown as Json[]) {
      if (part.type === "tool-call" && typeof part.toolCallId === "string") {
        out.set(part.toolCallId, {
          toolCallId: part.toolCallId,
          toolName: String(part.toolName),
          runtime: String(part.runtime),
          requiresApproval: part.requiresApproval === true,
          approved: undefined,
          hasResult: false,
        });
      }
    }
  }
  for (const m of state.messages) {
    for (const part of m.content as unknown as Json[]) {
      const call = typeof part.toolCallId === "string" ? out.get(part.toolCallId) : undefined;
      if (!call) continue;
      if (part.type === "tool-approval") call.approved = part.approved === true;
      if (part.type === "tool-result") call.hasResult = true;
    }
  }
  return out;
}
