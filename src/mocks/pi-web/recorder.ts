/**
 * Records client traffic on the transcript bus (probe "client") for the `pi-web/client/*`
 * checks:
 * - every upgrade attempt as an `http-request` (label "ws-upgrade", exchange "u<n>", method,
 *   url, path+query, lower-cased headers incl. origin) and its `http-response` (101, or the
 *   refusal status 404/401/403/400, no headers);
 * - each accepted socket as `ws-open` (connection "c<n>", url, headers);
 * - every frame as `ws-frame`: direction "in" = sent by the client, "out" = sent by the mock;
 *   text frames as their text (a fragmented message once, whole), binary frames as base64;
 * - `ws-close` with the close code and reason, and `by: "kit"` when the engine closed the socket
 *   (a shutdown, say) or cut it at the mock's own cap (with that `cause`, starting "limit");
 * - a `note` named {@link RUN_NOTE} each time the agent's run starts or ends (`{running}`), as the
 *   mock knows it: with no socket open, or with the `agent_end` never sent, no frame tells it.
 */
import type { TranscriptBus } from "../../core/transcript/transcript.js";

/** Note name; value `{ running: boolean }`: the mock's run began (`agent_start`) or is over. */
export const RUN_NOTE = "pi-web/run";

export interface UpgradeRecord {
  url: string;
  headers: Record<string, string>;
  status: number;
}

export class WsRecorder {
  private upgrades = 0;

  constructor(private readonly bus?: TranscriptBus) {}

  get active(): boolean {
    return this.bus !== undefined;
  }

  upgrade(r: UpgradeRecord): void {
    if (!this.bus) return;
    const exchange = `u${++this.upgrades}`;
    const url = new URL(r.url, "ws://mock.invalid");
    this.bus.emit({
      kind: "http-request",
      probe: "client",
      exchange,
      label: "ws-upgrade",
      method: "GET",
      url: r.url,
      path: url.pathname + url.search,
      headers: lower(r.headers),
    });
    this.bus.emit({ kind: "http-response", probe: "client", exchange, label: "ws-upgrade", status: r.status, headers: {} });
  }

  open(connection: string, url: string, headers: Record<string, string>): void {
    this.bus?.emit({ kind: "ws-open", probe: "client", connection, url, headers: lower(headers) });
  }

  frame(connection: string, direction: "in" | "out", data: string | Uint8Array): void {
    if (!this.bus) return;
    const binary = typeof data !== "string";
    this.bus.emit({
      kind: "ws-frame",
      probe: "client",
      connection,
      direction,
      binary,
      data: binary ? toBase64(data) : data,
    });
  }

  /** `cut`: why the mock cut the socket at its own cap (a cause starting "limit"), which makes the close the kit's. */
  close(connection: string, code?: number, reason?: string, byMock = false, cut?: string): void {
    this.bus?.emit({
      kind: "ws-close",
      probe: "client",
      connection,
      ...(code !== undefined ? { code } : {}),
      ...(reason ? { reason } : {}),
      ...(byMock || cut !== undefined ? { by: "kit" as const } : {}),
      ...(cut !== undefined ? { cause: cut } : {}),
    });
  }

  /** The agent's run began or is over. */
  run(running: boolean): void {
    this.bus?.emit({ kind: "note", probe: "client", name: RUN_NOTE, value: { running } });
  }
}

function lower(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v;
  return out;
}

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
