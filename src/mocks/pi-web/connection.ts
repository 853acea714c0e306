/**
 * One client socket as the engine sees it: the transport it writes to, the faults and framing it
 * selected on its upgrade, and the small write pipeline (binary or batched events under faults,
 * reversed responses for `reorder-responses`, pings).
 */
import { encodeEvent, encodeJson, Utf8Text, type WireFormat } from "./framing.js";
import type { PiWebHooks } from "./hooks.js";
import type { WsRecorder } from "./recorder.js";
import type { Json } from "./types.js";
import { timerMs } from "../../core/mock/timing.js";

/** What the engine needs from a socket (node `ws`, msw's client, or a test double). */
export interface PiWebTransport {
  /**
   * Sends one message: a string as a text frame, bytes as a binary frame. `fragment` asks for
   * continuation frames of that many bytes; a transport that cannot fragment ignores it.
   */
  send(data: string | Uint8Array, options?: { fragment?: number }): void;
  /**
   * Sends one text message given as its UTF-8 bytes (optional: without it the engine sends the
   * decoded string). Saves a transport that writes bytes anyway from encoding the text again.
   */
  sendUtf8?(bytes: Uint8Array, options?: { fragment?: number }): void;
  /** Closes the socket with this code and reason. */
  close(code: number, reason: string): void;
  /** Sends a WebSocket ping (optional: msw cannot). */
  ping?(): void;
}

const REORDER_WINDOW_MS = 50;
const utf8 = new TextEncoder();

export class Conn {
  open = true;
  /** The mock closed the socket (not the client). */
  closedByMock = false;
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
      this.pingTimer = setInterval(() => this.open && transport.ping?.(), timerMs(format.pingInterval));
    }
  }

  /** A cache key of how this socket encodes JSON. */
  get encoding(): string {
    return `${this.format.pretty ? "p" : ""}${this.format.escapeUnicode ? "u" : ""}${this.format.largeFrames ? "l" : ""}`;
  }

  encode(message: Json): string {
    return encodeJson(message, this.format);
  }

  /** An event for this socket: text, or a text message's UTF-8 bytes. */
  encodeEvent(message: Json): string | Utf8Text {
    return encodeEvent(message, this.format);
  }

  private write(data: string | Uint8Array | Utf8Text): void {
    if (!this.open) return;
    const options = this.format.fragment > 0 ? { fragment: this.format.fragment } : undefined;
    try {
      if (!(data instanceof Utf8Text)) this.transport.send(data, options);
      else if (this.transport.sendUtf8) this.transport.sendUtf8(data.bytes, options);
      else this.transport.send(data.text, options);
    } catch {
      // The socket went away between the check and the write; its close event follows.
      return;
    }
    if (this.recorder.active) this.recorder.frame(this.id, "out", data instanceof Utf8Text ? data.text : data);
  }

  /** An event, already encoded for this socket. */
  event(frame: string | Utf8Text): void {
    const wire = this.hooks.wire;
    if (wire?.binaryEvents) {
      this.flushHeld();
      this.write(typeof frame === "string" ? utf8.encode(frame) : frame.bytes);
    } else if (wire?.batchEvents) {
      // Events emitted in the same tick leave two per frame, joined by "\n".
      this.held.push(typeof frame === "string" ? frame : frame.text);
      if (this.held.length === 2) this.flushHeld();
      else this.heldTimer ??= setTimeout(() => this.flushHeld(), 0);
    } else {
      this.write(frame);
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
    this.closedByMock = true;
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
