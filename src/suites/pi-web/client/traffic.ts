/**
 * Reading the mock's record of client traffic: `ws-open` / `ws-frame` / `ws-close` events with
 * probe "client" (direction "in" = sent by the client, "out" = sent by the mock), and the mock's
 * `http-request` / `http-response` pairs for upgrades it refused. Frames are parsed once per
 * event (cached), so a dozen checks cost one JSON.parse per frame.
 *
 * {@link MockView} follows what the mock told its clients: the extension UI requests it sent
 * (dialogs and fire-and-forget alike), whether a run was in progress (with when it changed, since
 * a command may cross the change on the wire: core/checks/crossing.ts), and its responses.
 * Whether a run is in progress is the mock's own word where it recorded one (its run note): a run
 * that ends while no socket is open, or without the `agent_end` reaching anyone, is over all the
 * same. Without the note (an older transcript), the frames tell it, and a server shutdown ends it.
 * Browser-safe: no node modules.
 */
import { CROSSING_GRACE_MS, StateTrail } from "../../../core/checks/crossing.js";
import type { TranscriptEvent } from "../../../core/transcript/transcript.js";
import { RUN_NOTE } from "../../../mocks/pi-web/recorder.js";
import { wsConnectionView } from "../../../core/views/ws-connection.js";

/** The mock records client traffic under this probe name. */
export const CLIENT_PROBE = "client";

export type WsOpen = Extract<TranscriptEvent, { kind: "ws-open" }>;
export type WsFrame = Extract<TranscriptEvent, { kind: "ws-frame" }>;
export type WsClose = Extract<TranscriptEvent, { kind: "ws-close" }>;
export type Message = Record<string, unknown>;

export type Parsed = { ok: true; message: Message } | { ok: false; problem: string };

const cache = new WeakMap<object, Parsed>();

/** A frame from the client under test. */
export function isClientFrame(e: TranscriptEvent): e is WsFrame {
  return e.kind === "ws-frame" && e.probe === CLIENT_PROBE && e.direction === "in";
}

/** A frame the mock sent to a client under test. */
export function isMockFrame(e: TranscriptEvent): e is WsFrame {
  return e.kind === "ws-frame" && e.probe === CLIENT_PROBE && e.direction === "out";
}

/**
 * The frame's payload as one JSON object, or what is wrong with it. A binary frame is read as
 * the server reads it (UTF-8 JSON); its data may be recorded as text or as base64.
 */
export function parseFrame(frame: WsFrame): Parsed {
  const hit = cache.get(frame);
  if (hit) return hit;
  let parsed = parseText(frame.data);
  if (!parsed.ok && frame.binary) {
    const decoded = fromBase64Utf8(frame.data);
    if (decoded !== undefined) {
      const again = parseText(decoded);
      if (again.ok) parsed = again;
    }
  }
  cache.set(frame, parsed);
  return parsed;
}

/** The parsed object of a frame, or undefined. */
export function messageOf(frame: WsFrame): Message | undefined {
  const p = parseFrame(frame);
  return p.ok ? p.message : undefined;
}

function parseText(text: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: "is not one JSON value (invalid JSON, or several values in one frame)" };
  }
  if (value === null || typeof value !== "object") return { ok: false, problem: `is JSON ${value === null ? "null" : typeof value}, not an object` };
  if (Array.isArray(value)) return { ok: false, problem: "is a JSON array, not an object" };
  return { ok: true, message: value as Message };
}

function fromBase64Utf8(data: string): string | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 !== 0) return undefined;
  try {
    const bin = atob(data);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The client's connections to the mock, each frame read once as one JSON object (undefined when it is not). */
export const CLIENT_FRAMES = wsConnectionView<Message | undefined>({ name: "pi-web/client", decode: (ev) => messageOf(ev) });

/** `type` of a message when it is a string. */
export function typeOf(m: Message): string | undefined {
  return typeof m.type === "string" ? m.type : undefined;
}

/** One `extension_ui_request` the mock sent (to any socket: requests are broadcast). */
export interface UiRequest {
  id: string;
  method: string;
  /** `select` options. */
  options?: unknown[];
  /** When the first copy was sent (ms since the run started). */
  t: number;
  /** The request's own `timeout` (ms), after which the server gives up on a reply. */
  timeoutMs?: number;
  seq: number;
}

/** Close codes of a server going away (1001) or restarting (1012). */
const SHUTDOWN_CODES: ReadonlySet<number> = new Set([1001, 1012]);

/**
 * The mock closed the socket because it was shutting down (§1: `1001 "server shutting down"`; 1012 a restart). The
 * mock records `by: "kit"` on the closes it made; in a transcript without it, the reason tells (a browser leaving the
 * page closes with 1001 too, but not "shutting down").
 */
export function isShutdownClose(e: Extract<TranscriptEvent, { kind: "ws-close" }>): boolean {
  if (!SHUTDOWN_CODES.has(e.code ?? 0)) return false;
  if (e.by !== undefined) return e.by === "kit";
  return /shut|restart/i.test(e.reason ?? "");
}

/** What the mock said to its clients, as far as client checks need it. */
export class MockView {
  readonly requests = new Map<string, UiRequest>();
  /**
   * Inside a run: from `agent_start` until `agent_end` (or `session_changed`, §3 rule 12, or a shutdown), with when
   * it changed; the mock's run note, where it records one, rules over the frames.
   */
  readonly run: StateTrail<boolean>;
  /** A run took place (the mock began one). */
  sawRun = false;
  /** The connection the last run change came by (a reply there shows the client read it). */
  private runConn: string | undefined;
  /** The mock records its run state in notes: frames no longer decide it. */
  private noted = false;

  constructor(grace = CROSSING_GRACE_MS) {
    this.run = new StateTrail(false, grace);
  }

  /** Inside a run, as the mock last told it. */
  get running(): boolean {
    return this.run.latest;
  }

  /** The mock's own note that its run began or is over. */
  note(e: Extract<TranscriptEvent, { kind: "note" }>): void {
    if (e.name !== RUN_NOTE || e.probe !== CLIENT_PROBE) return;
    const running = (e.value as { running?: unknown } | null)?.running;
    if (typeof running !== "boolean") return;
    this.noted = true;
    // No socket has been told yet: the frames that follow (if any socket is open) say which one carried it.
    this.runConn = undefined;
    this.setRun(e.t, running);
  }

  /** A socket closed: a server shutdown ends the run it had (nothing of it is replayed). */
  close(e: Extract<TranscriptEvent, { kind: "ws-close" }>): void {
    if (e.probe !== CLIENT_PROBE || this.noted || !isShutdownClose(e)) return;
    this.runConn = undefined;
    this.setRun(e.t, false);
  }

  /** Feeds one transcript event; returns the mock's message for mock frames. */
  observe(e: TranscriptEvent): Message | undefined {
    if (e.kind !== "ws-frame" || e.probe !== CLIENT_PROBE) return undefined;
    const m = messageOf(e);
    if (!m) return undefined;
    if (e.direction === "in") {
      // A reply to a request the mock sent after a run change, on the same socket, shows the client read the change.
      const req = m.type === "extension_ui_response" && typeof m.id === "string" ? this.requests.get(m.id) : undefined;
      if (req && e.connection === this.runConn) this.run.readUpTo(req.t);
      return undefined;
    }
    switch (m.type) {
      case "agent_start":
        this.runChanged(e, true);
        break;
      case "agent_end":
      case "session_changed":
        this.runChanged(e, false);
        break;
      case "extension_ui_request":
        if (typeof m.id === "string" && !this.requests.has(m.id)) {
          this.requests.set(m.id, {
            id: m.id,
            method: typeof m.method === "string" ? m.method : String(m.method),
            ...(Array.isArray(m.options) ? { options: m.options } : {}),
            t: e.t,
            ...(typeof m.timeout === "number" && m.timeout > 0 ? { timeoutMs: m.timeout } : {}),
            seq: e.seq,
          });
        }
        break;
    }
    return m;
  }

  private runChanged(e: WsFrame, running: boolean): void {
    if (this.noted) {
      // The mock's note said it first; this frame is the one that told a client.
      if (running === this.run.latest) this.runConn = e.connection;
      return;
    }
    this.runConn = e.connection;
    this.setRun(e.t, running);
  }

  private setRun(t: number, running: boolean): void {
    if (running) this.sawRun = true;
    if (running !== this.run.latest) this.run.set(t, running);
  }
}
