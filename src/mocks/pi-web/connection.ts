/**
 * One client socket as the engine sees it: the transport it writes to, the faults and framing it
 * selected on its upgrade, and the small write pipeline (binary or batched events under faults,
 * reversed responses for `reorder-responses`, pings).
 */
import { encodeJson, type WireFormat } from "./framing.js";
import type { PiWebHooks } from "./hooks.js";
import type { WsRecorder } from "./recorder.js";
import type { Json } from "./types.js";

/** What the engine needs from a socket (node `ws`, msw's client, or a test double). */
export interface PiWebTransport {
  /**
   * Sends one message: a string as a text frame, bytes as a binary frame. `fragment` asks for
   * continuation frames of that many bytes; a transport that cannot fragment ignores it.
   */
  send(data: string | Uint8Array, options?: { fragment?: number }): void;
  /** Closes the socket with this code and reason. */
  close(code: number, reason: string): void;
  /** Sends a WebSocket ping (optional: msw cannot). */
  ping?(): void;
}

const REORDER_WINDOW_MS = 50;
const utf8 = new TextEncoder();

export class Conn {
  open = true;
  private held: string[] = [];
  private heldTimer: ReturnType<typeof setTimeout> | undefined;
  private reordered: string[] = [];
  private reorderTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly id: string,
    private readonly transport: PiWebTransport,
    readonly hooks: PiWebHooks,
    /** The connection's default scenario (?scenario= or the mock's). */
    readonly scenario: string,
    readonly format: WireFormat,
    private readonly recorder: WsRecorder,
    private readonly reorder: boolean,
  ) {
    if (format.pingInterval > 0 && transport.ping) {
      this.pingTimer = setInterval(() => this.open && transport.ping?.(), format.pingInterval);
    }
  }

  /** A cache key of how this socket encodes JSON. */
  get encoding(): string {
    return `${this.format.pretty ? "p" : ""}${this.format.escapeUnicode ? "u" : ""}${this.format.largeFrames ? "l" : ""}`;
  }

  encode(message: Json): string {
    return encodeJson(message, this.format);
  }

  private write(data: string | Uint8Array): void {
    if (!this.open) return;
    try {
      this.transport.send(data, this.format.fragment > 0 ? { fragment: this.format.fragment } : undefined);
    } catch {
      // The socket went away between the check and the write; its close event follows.
      return;
    }
    this.recorder.frame(this.id, "out", data);
  }

  /** An event, already encoded for this socket. */
  event(text: string): void {
    const wire = this.hooks.wire;
    if (wire?.binaryEvents) {
      this.flushHeld();
      this.write(utf8.encode(text));
    } else if (wire?.batchEvents) {
      // Events emitted in the same tick leave two per frame, joined by "\n".
      this.held.push(text);
      if (this.held.length === 2) this.flushHeld();
      else this.heldTimer ??= setTimeout(() => this.flushHeld(), 0);
    } else {
      this.write(text);
    }
  }

  response(text: string): void {
    this.flushHeld();
    if (!this.reorder) return this.write(text);
    this.reordered.push(text);
    this.reorderTimer ??= setTimeout(() => {
      this.reorderTimer = undefined;
      const list = this.reordered.reverse();
      this.reordered = [];
      for (const t of list) this.write(t);
    }, REORDER_WINDOW_MS);
  }

  raw(data: string | Uint8Array): void {
    this.flushHeld();
    this.write(data);
  }

  private flushHeld(): void {
    if (this.heldTimer) clearTimeout(this.heldTimer);
    this.heldTimer = undefined;
    if (this.held.length === 0) return;
    const text = this.held.join("\n");
    this.held = [];
    this.write(text);
  }

  close(code: number, reason: string): void {
    if (!this.open) return;
    this.flushHeld();
    this.stop();
    this.open = false;
    try {
      this.transport.close(code, reason);
    } catch {
      // Already closed.
    }
  }

  /** The socket is gone: stop timers, write nothing more. */
  stop(): void {
    this.open = false;
    if (this.heldTimer) clearTimeout(this.heldTimer);
    if (this.reorderTimer) clearTimeout(this.reorderTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.heldTimer = this.reorderTimer = this.pingTimer = undefined;
  }
}
