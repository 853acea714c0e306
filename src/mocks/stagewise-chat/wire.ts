/**
 * The mock's view of the frames crossing a connection: what each outgoing text is (a keep-alive, a subscription's
 * event, a mutation's answer, an error) and what each incoming request asks, so faults and framings can rewrite,
 * delay or answer them. Browser-safe.
 */
import type { ChatUpdate } from "../../generated/stagewise-chat.js";

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A request of the toolbar, as far as the mock follows it. */
export interface Request {
  id: number | string | null;
  method: string;
  path: string;
  /** The superjson envelope's `json`. */
  input: unknown;
  /** tRPC would parse it: an id, and an input envelope (mandatory, §1). Only such requests are answered by hooks. */
  wellFormed: boolean;
  lastEventId?: string;
}

/** A subscription the toolbar opened on this connection. */
export interface Sub {
  id: number | string;
  path: string;
  /** The toolbar resumed (lastEventId in params or input). */
  resumed: boolean;
  lastEventId?: string;
  /** Data frames sent so far. */
  sent: number;
  /** chat.getChatUpdates: the snapshot is over (its agent-state went out). */
  snapshotOver: boolean;
  stopped: boolean;
}

export type FrameKind = "ping" | "pong" | "reconnect" | "started" | "stopped" | "event" | "result" | "error" | "other";

/** One outgoing frame; hooks change `json` (or `text` when there is no JSON) and the transport fields. */
export interface Frame {
  kind: FrameKind;
  text: string;
  json?: Json;
  /** The subscription of a started/stopped/event frame, or the request an answer belongs to. */
  sub?: Sub;
  request?: Request;
  /** chat.getChatUpdates events: part of the snapshot of their subscription. */
  snapshot?: boolean;
  binary?: boolean;
  /** Sent this many ms after the previous frame of the connection. */
  delayMs?: number;
  /** The connection closes after this frame. */
  closeAfter?: boolean;
  /** Sent only once this settles (later frames do not wait for it). */
  waitFor?: () => Promise<void>;
  /** The exact text to send, when a hook wrote it itself (padding, superjson references). */
  raw?: string;
}

export const CHAT_PATH = "chat.getChatUpdates";
export const MESSAGING_PATH = "messaging.getMessage";
export const STATE_PATH = "state.getState";

/** The update a chat event carries (tracked: `{id, data}` inside superjson's json), or undefined. */
export function chatUpdateOf(frame: Frame): ChatUpdate | undefined {
  if (frame.kind !== "event" || frame.sub?.path !== CHAT_PATH) return undefined;
  return (frame.json?.result?.data?.json as Json | undefined)?.data as ChatUpdate | undefined;
}

/** The plain value of any other event (superjson's json). */
export function valueOf(frame: Frame): Json | undefined {
  return frame.kind === "event" ? (frame.json?.result?.data?.json as Json | undefined) : undefined;
}

/** The event id of a chat event. */
export function seqOf(frame: Frame): number | undefined {
  const id = frame.json?.result?.id;
  return typeof id === "string" ? Number(id) : undefined;
}

/** Sets a chat event's id, in both places tRPC puts it. */
export function setSeq(frame: Frame, seq: number): void {
  const result = frame.json!.result as Json;
  result.id = String(seq);
  if (result.data?.json && typeof result.data.json === "object") result.data.json.id = String(seq);
}

/** A frame of the same kind with a copied JSON body. */
export function copyFrame(frame: Frame, changes: Partial<Frame> = {}): Frame {
  return { ...frame, ...(frame.json ? { json: structuredClone(frame.json) } : {}), ...changes };
}

/** The requests of one incoming text (one request or a batch); null when it is not JSON of requests. */
export function parseRequests(text: string): { requests: Request[]; raw: unknown[]; batch: boolean } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const batch = Array.isArray(parsed);
  const raw = batch ? (parsed as unknown[]) : [parsed];
  const requests: Request[] = [];
  for (const r of raw) {
    if (!r || typeof r !== "object") return null;
    const o = r as Json;
    const params = (o.params ?? {}) as Json;
    const input = (params.input as Json | undefined)?.json;
    const lastEventId = params.lastEventId ?? (input && typeof input === "object" ? (input as Json).lastEventId : undefined);
    requests.push({
      id: (o.id ?? null) as Request["id"],
      method: String(o.method ?? ""),
      path: typeof params.path === "string" ? params.path : "",
      input,
      wellFormed: (typeof o.id === "number" || typeof o.id === "string") && typeof params.path === "string" && params.input !== null && typeof params.input === "object" && "json" in params.input,
      ...(typeof lastEventId === "string" ? { lastEventId } : {}),
    });
  }
  return { requests, raw, batch };
}

/** A tRPC answer with superjson's envelope: `data` undefined is sent as void. */
export function resultFrame(id: Request["id"], data: unknown): string {
  return JSON.stringify({ id, result: { type: "data", data: data === undefined ? { json: null, meta: { values: ["undefined"], v: 1 } } : { json: data } } });
}

const CODES: Record<string, [number, number]> = {
  PARSE_ERROR: [-32700, 400],
  BAD_REQUEST: [-32600, 400],
  INTERNAL_SERVER_ERROR: [-32603, 500],
  NOT_FOUND: [-32004, 404],
  CONFLICT: [-32009, 409],
  FORBIDDEN: [-32003, 403],
};

/** A tRPC error frame in the agent's shape (§1). */
export function errorFrame(id: Request["id"], code: keyof typeof CODES & string, message: string, extra: Json = {}): string {
  const [json, httpStatus] = CODES[code]!;
  return JSON.stringify({ id, error: { json: { message, code: json, data: { code, httpStatus, ...extra } } } });
}
