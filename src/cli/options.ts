/** Parsing and checking of options shared by several commands. */
import { ALL_PROTOCOL_IDS, IMPLEMENTED_IDS, isImplemented, loadMock, loadProtocol, type MockEntry } from "../protocol-loader.js";
import type { ProtocolDef } from "../core/protocol.js";
import { REPORTERS, type ReporterName } from "../core/reporters/names.js";
import { UsageError } from "./errors.js";

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The id of an implemented protocol, or a usage error that names the implemented ones. */
export function requireProtocolId(id: string | undefined): string {
  const implemented = IMPLEMENTED_IDS.join(", ");
  if (!id) throw new UsageError(`a protocol is required; implemented: ${implemented}`);
  if (isImplemented(id)) return id;
  if (ALL_PROTOCOL_IDS.includes(id)) throw new UsageError(`protocol "${id}" is not implemented in this version yet; implemented: ${implemented}`);
  throw new UsageError(`unknown protocol "${id}"; implemented: ${implemented}`);
}

/** An implemented protocol, loaded (only this one). */
export function requireProtocol(id: string | undefined): Promise<ProtocolDef> {
  return loadProtocol(requireProtocolId(id));
}

/** An implemented protocol's mock, loaded without its checks. */
export function requireMock(id: string | undefined): Promise<MockEntry> {
  return loadMock(requireProtocolId(id));
}

export function intOption(name: string, min = 0): (value: string) => number {
  return (value: string) => {
    if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`${name} takes a whole number >= ${min}, got "${value}"`);
    return Number(value);
  };
}

export function parseHeaders(list: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const i = h.indexOf(":");
    const name = i > 0 ? h.slice(0, i).trim() : "";
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header takes "Name: value", got "${h}"`);
    out[name] = h.slice(i + 1).trim();
  }
  return out;
}

export function parseSettings(list: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list) {
    const i = kv.indexOf("=");
    if (i <= 0) throw new UsageError(`--set takes key=value, got "${kv}"`);
    const raw = kv.slice(i + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // Plain strings need no quotes.
    }
    out[kv.slice(0, i)] = value;
  }
  return out;
}

export interface ReportTarget {
  reporter: ReporterName;
  /** undefined = stdout */
  output?: string;
}

/** Pairs --reporter and --output by position; extra reporters go to stdout. */
export function reportTargets(reporters: string[] = [], outputs: string[] = []): ReportTarget[] {
  const names = reporters.length ? reporters : ["console"];
  for (const r of names) {
    if (!REPORTERS.includes(r as ReporterName)) throw new UsageError(`unknown reporter "${r}"; use one of ${REPORTERS.join(", ")}`);
  }
  if (outputs.length > names.length) throw new UsageError(`more --output (${outputs.length}) than --reporter (${names.length})`);
  const targets = names.map((r, i) => ({ reporter: r as ReporterName, ...(outputs[i] ? { output: outputs[i] } : {}) }));
  if (targets.filter((t) => !t.output).length > 1) {
    throw new UsageError("only one reporter can write to stdout; give the others an --output path");
  }
  return targets;
}

export function checkUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`--url is not a URL: "${url}"`);
  }
  if (!["http:", "https:", "ws:", "wss:"].includes(u.protocol)) throw new UsageError(`--url must be http(s) or ws(s), got "${url}"`);
  return url;
}

/** The mock setting that makes a mock require a credential: each protocol names its own. */
export function credentialSetting(protocolId: string, token: string | undefined): Record<string, string> {
  if (!token) return {};
  return { [protocolId === "openai-chat" ? "apiKey" : "token"]: token };
}
