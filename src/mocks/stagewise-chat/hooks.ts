/**
 * What a fault or a framing changes, as data: discovery, where the mock listens, the keep-alive, which inputs go
 * unchecked, requests the mock answers in the agent's place, rewrites of outgoing frames, and how turns are played.
 * Several records fold into one per connection. Browser-safe.
 */
import type { ChatAgent } from "../../stagewise/adapter/chat-agent.js";
import type { AgentParts } from "../../stagewise/adapter/agent-parts.js";
import type { Frame, Json, Request, Sub } from "./wire.js";

/** How the mock plays a turn; faults bend it. */
export interface TurnStyle {
  /** The whole reply in one `create` (no appends). */
  buffered: boolean;
  /** The reply grows by full `replace` of its text part. */
  replaceStreaming: boolean;
  /** The reply is two text parts (a heading, then the echo). */
  twoTextParts: boolean;
  /** A reasoning part first, and the text part replaced by itself at the end. */
  finalReplace: boolean;
  /** Tool results are stored directly, past the adapter's checks (for faults that break those rules). */
  directResults: boolean;
  /** A tool-result part for a call that does not exist. */
  orphanResult: boolean;
  /** A backend call's result in a tool message. */
  backendResultInToolMessage: boolean;
  /** A rejected call still gets a successful result. */
  executeRejected: boolean;
  /** Appended to every echo (characters a framing wants cut). */
  suffix: string;
  /** When > 0: the echo is cut into deltas at this unit of the suffix as well. */
  splitAt: number;
}

export const DEFAULT_STYLE: TurnStyle = {
  buffered: false,
  replaceStreaming: false,
  twoTextParts: false,
  finalReplace: false,
  directResults: false,
  orphanResult: false,
  backendResultInToolMessage: false,
  executeRejected: false,
  suffix: "",
  splitAt: 0,
};

/** What the whole mock shares with the hooks. */
export interface MockContext {
  core: AgentParts;
  agent: ChatAgent;
  chunkSize: number;
  /** The latest chat delta and messaging update as sent (wire form), for faults that replay them. */
  lastChatEvent?: Json;
  lastMessagingDelta?: Json;
  /** Event ids before which the seq-gap fault skips one (each turn's end). */
  gapsBefore: number[];
  /** The mock's validator (lenient where a fault says). */
  validate(schema: string, value: unknown): string | null;
  /** Tool-call part index of each message that has one. */
  toolCallIndex: Map<string, number>;
  /** Part replaced last in each message. */
  replaced: Map<string, number>;
  /** Aborts the mock's own part of the running turn (stop-leaves-pending). */
  abortTurn?: () => void;
  /** Closes every connection. */
  dropAll(code?: number, reason?: string): number;
}

/** One connection, as hooks see it. */
export interface Connection {
  readonly ctx: MockContext;
  readonly subs: Map<string, Sub>;
  readonly requests: Map<string, Request>;
  /** Scratch space for hooks that count per connection. */
  readonly scratch: Map<string, unknown>;
}

/** A request answered by the mock itself: the frames to send instead of the router's. */
export type Answer = string[];

export interface StagewiseHooks {
  info?: (info: Json) => Json;
  noCors?: boolean;
  /** Listen here, whatever port was asked for. */
  port?: number;
  wsPath?: string;
  /** Server keep-alive: off, or a ping after this many ms of client silence. */
  keepAlive?: false | { pingMs: number };
  /** Schemas of input the mock stops checking. */
  lenient?: readonly string[];
  /** Answers a request in the agent's place (undefined: the router handles it). */
  answer?: (request: Request, conn: Connection) => Answer | undefined;
  /** Rewrites one outgoing frame into any number of frames. */
  outgoing?: (frame: Frame, conn: Connection) => Frame[];
  /** Continuation frames of this many bytes (node only). */
  fragment?: number;
  /** Chat events wait while a mutation of their connection is unanswered. */
  resultFirst?: boolean;
  turn?: Partial<TurnStyle>;
}

/** One record of several, in order: transforms compose, flags and values of later records win. */
export function foldHooks(list: readonly StagewiseHooks[]): StagewiseHooks {
  const out: StagewiseHooks = {};
  for (const h of list) {
    if (h.info) {
      const prev = out.info;
      out.info = prev ? (i) => h.info!(prev(i)) : h.info;
    }
    if (h.answer) {
      const prev = out.answer;
      out.answer = prev ? (r, c) => prev(r, c) ?? h.answer!(r, c) : h.answer;
    }
    if (h.outgoing) {
      const prev = out.outgoing;
      out.outgoing = prev ? (f, c) => prev(f, c).flatMap((g) => h.outgoing!(g, c)) : h.outgoing;
    }
    if (h.lenient) out.lenient = [...(out.lenient ?? []), ...h.lenient];
    if (h.turn) out.turn = { ...out.turn, ...h.turn };
    for (const key of ["noCors", "port", "wsPath", "keepAlive", "fragment", "resultFirst"] as const) {
      if (h[key] !== undefined) (out as Record<string, unknown>)[key] = h[key];
    }
  }
  return out;
}
