/** Header handling for the relay: only `Host` and hop-by-hop headers are changed. */

/** RFC 9110 §7.6.1 connection-specific fields, and the ones every proxy drops. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"]);

/** Raw headers (name, value, name, value…) without hop-by-hop ones (and those `Connection` names). */
export function forwardable(raw: string[], drop: readonly string[] = []): string[] {
  const named = new Set(drop);
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === "connection") for (const n of raw[i + 1]!.split(",")) named.add(n.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name)) continue;
    out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** Lower-cased names, repeated headers joined with ", " (as the transcript records heads). */
export function flatten(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const k = raw[i]!.toLowerCase();
    out[k] = out[k] === undefined ? raw[i + 1]! : `${out[k]}, ${raw[i + 1]!}`;
  }
  return out;
}

/** Raw headers with Host set to the target's. */
export function withHost(raw: string[], host: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() !== "host") out.push(raw[i]!, raw[i + 1]!);
  return ["Host", host, ...out];
}
