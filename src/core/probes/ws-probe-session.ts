/**
 * What every WebSocket probe client shares: recorded GETs on the target's HTTP side, recorded
 * connections with the kit's frame and size limits and the run's headers, and a bounded reopening
 * of the main connection after the server closed it. A protocol adds its URLs, frames and waits.
 */
import { exchange, isUnreachable, type ExchangeResult } from "../transport/http-exchange.js";
import { ProbeSession, StopProbing } from "./probe-session.js";
import type { ProbeContext } from "../run/protocol.js";
import { openWs, type WsConnection, type WsOpenResult } from "../transport/ws-exchange.js";

/** A JSON answer on the HTTP side (discovery, health) is read this far. */
const HTTP_MAX_BYTES = 64 * 1024;
/** Reconnects of the main connection after the server closed it. */
const MAX_RECONNECTS = 2;

export interface WsProbeLimits {
  maxFrames: number;
  maxFramesPerSecond: number;
}

export class WsProbeSession extends ProbeSession {
  /** The connection that drives the probes. */
  main: WsConnection | undefined;
  private reconnects = 0;

  constructor(
    ctx: ProbeContext,
    protocolId: string,
    private readonly limits: WsProbeLimits,
  ) {
    super(ctx, protocolId);
  }

  unreachable(r: ExchangeResult): boolean {
    return isUnreachable(r);
  }

  /** A recorded GET of a JSON answer on the HTTP side. */
  protected async recordedGet(label: string, url: string, headers: Record<string, string>, timeouts: { headers: number; total: number }): Promise<ExchangeResult> {
    const r = await exchange(this.ctx.bus, {
      probe: this.probe,
      label,
      method: "GET",
      url,
      headers: { accept: "application/json", ...headers },
      timeouts,
      maxBytes: Math.min(this.ctx.maxBytes, HTTP_MAX_BYTES),
      signal: this.ctx.signal,
    });
    if (this.ctx.signal.aborted) throw new StopProbing("aborted");
    return r;
  }

  /** Opens a recorded connection with the run's headers and an Origin (`null`: none). */
  protected async openRecorded(label: string, url: string, origin: string | null): Promise<WsOpenResult> {
    if (this.ctx.signal.aborted) throw new StopProbing("aborted");
    const headers: Record<string, string> = { ...this.ctx.headers };
    if (origin !== null) headers["origin"] = origin;
    return openWs(this.ctx.bus, {
      probe: () => this.probe,
      label,
      url,
      headers,
      openTimeout: this.ctx.timeouts.headers,
      maxBytes: this.ctx.maxBytes,
      maxFrames: this.limits.maxFrames,
      maxFramesPerSecond: this.limits.maxFramesPerSecond,
      maxPayload: Math.min(this.ctx.maxBytes, 100 * 1024 * 1024),
      signal: this.ctx.signal,
      ...(this.ctx.redact === false ? { redact: false } : {}),
    });
  }

  /**
   * The main connection while it is open; otherwise undefined, so the caller opens it again, and
   * the run stops when the server has closed it too often, or when the kit cut it (`stopIfCut`).
   */
  protected openMain(): WsConnection | undefined {
    if (this.main?.isOpen) return this.main;
    this.stopIfCut(this.main);
    if (this.main && this.reconnects >= MAX_RECONNECTS) this.stop(`the server closed the main connection ${this.reconnects + 1} times`);
    if (this.main) this.reconnects++;
    return undefined;
  }

  /**
   * Stops the probes once the kit cut `conn` at one of its own limits (a message over its cap, a flood): what the
   * server said after the cut was never read, so the probes that follow, on that connection or a new one, would judge
   * a conversation the kit lost track of, and blame the server for the part it missed.
   */
  stopIfCut(conn: WsConnection | undefined): void {
    if (conn?.stopped !== undefined) this.stop(`the kit stopped reading the ${conn.label} connection (${conn.stopped})`);
  }
}
