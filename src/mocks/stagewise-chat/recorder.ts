/**
 * Records the toolbar's traffic on the transcript bus (probe "client") for the client checks:
 * discovery and control requests as `http-request` / `http-response` pairs (label "discovery" for
 * the info path, "http" otherwise), each socket as `ws-open` (connection "c<n>"), every frame as
 * `ws-frame` — direction "in" = sent by the toolbar, "out" = sent by the mock, a fragmented message
 * once and whole — and `ws-close`. Without a bus it records nothing.
 */
import type { TranscriptBus } from "../../core/transcript/transcript.js";
import { INFO_PATH } from "./pace.js";

export const CLIENT_PROBE = "client";

export class ClientRecorder {
  private sockets = 0;
  private exchanges = 0;

  constructor(private readonly bus?: TranscriptBus) {}

  http(method: string, target: string, headers: Record<string, string>, answer: { status: number; headers: Record<string, string>; body: string }): void {
    if (!this.bus) return;
    const exchange = `h${++this.exchanges}`;
    const path = target.split("?")[0] ?? "/";
    const label = path === INFO_PATH ? "discovery" : "http";
    this.bus.emit({ kind: "http-request", probe: CLIENT_PROBE, exchange, label, method, url: target, path: target, headers: lower(headers) });
    this.bus.emit({ kind: "http-response", probe: CLIENT_PROBE, exchange, label, status: answer.status, headers: lower(answer.headers) });
  }

  /** A new socket's connection id (given even without a bus, so callers need not care). */
  open(url: string, headers: Record<string, string>): string {
    const connection = `c${++this.sockets}`;
    this.bus?.emit({ kind: "ws-open", probe: CLIENT_PROBE, connection, label: "toolbar", url, headers: lower(headers) });
    return connection;
  }

  frame(connection: string, direction: "in" | "out", text: string, binary: boolean): void {
    this.bus?.emit({ kind: "ws-frame", probe: CLIENT_PROBE, connection, direction, binary, data: text });
  }

  /**
   * `by`: "client" when the toolbar closed, "kit" when the mock did (a drop, a refusal, its keep-alive, a cut at its
   * own cap). `cut`: why the mock cut the socket at its cap (a cause starting "limit", read by `cutByKit`).
   */
  close(connection: string, code: number | undefined, reason: string | undefined, by: "client" | "kit", cut?: string): void {
    this.bus?.emit({ kind: "ws-close", probe: CLIENT_PROBE, connection, ...(code !== undefined ? { code } : {}), ...(reason ? { reason } : {}), by, ...(cut !== undefined ? { cause: cut } : {}) });
  }
}

function lower(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v;
  return out;
}
