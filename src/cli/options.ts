/** Parsing and checking of options shared by several commands. */
import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync, statSync, unlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ALL_PROTOCOL_IDS, IMPLEMENTED_IDS, hasMock, isImplemented, loadMock, loadProtocol, type MockEntry } from "../protocol-loader.js";
import type { ProtocolDef } from "../core/run/protocol.js";
import { knownParams, paramTypeFits } from "../core/run/params.js";
import { REPORTERS, type ReporterName } from "../core/reporters/names.js";
import { MAX_DELAY_MS } from "../core/mock/timing.js";
import { UsageError } from "./errors.js";

/** What --baseline takes, in every command that has it. */
export const BASELINE_HELP =
  "known failures (YAML: failures: [{id, reason, link?, expires?}]): listed failures do not fail the run; a listed check that passes, or an expired entry, does";

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
  return loadMock(id !== undefined && hasMock(id) ? id : requireProtocolId(id));
}

export function intOption(name: string, min = 0, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value: string) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
      throw new UsageError(`${name} takes a whole number ${range}, got "${value}"`);
    }
    return Number(value);
  };
}

/** What an HTTP field value may hold (RFC 9110; node refuses the rest): no line break, no other control character but tab. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The parameters that have an option of their own (`--close-timeout` sets closeTimeoutMs), with the
 * least whole number the option takes: `--set` holds the parameter to the same.
 */
export const PARAM_OPTIONS = {
  closeTimeoutMs: { flag: "--close-timeout", min: 1, max: MAX_DELAY_MS },
  minGapMs: { flag: "--min-gap", min: 0, max: MAX_DELAY_MS },
  pollIntervalMs: { flag: "--poll-interval", min: 1, max: MAX_DELAY_MS },
} as const;

/** The parser of a parameter's own option, with its range from PARAM_OPTIONS. */
export function paramOption(param: keyof typeof PARAM_OPTIONS): (value: string) => number {
  const { flag, min, max } = PARAM_OPTIONS[param];
  return intOption(flag, min, max);
}

/** Why --set gives a parameter a value its own option refuses; undefined when it would take it. */
function rangeProblem(key: string, value: unknown): string | undefined {
  if (!Object.hasOwn(PARAM_OPTIONS, key)) return undefined;
  const { flag, min, max } = PARAM_OPTIONS[key as keyof typeof PARAM_OPTIONS];
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max ? undefined : `${key} takes a whole number from ${min} to ${max}, as ${flag} does`;
}

export function parseHeaders(list: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const i = h.indexOf(":");
    const name = i > 0 ? h.slice(0, i).trim() : "";
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header takes "Name: value", got ${JSON.stringify(h)}`);
    const value = h.slice(i + 1).trim();
    // Said without the value: it is often a credential.
    if (!FIELD_VALUE.test(value)) throw new UsageError(`--header ${name}: the value holds a line break or another control character, which no request can carry`);
    out[name] = value;
  }
  return out;
}

/** A --token travels in a header (Authorization: Bearer) or a query: it must be one a header can carry. */
export function checkToken(token: string | undefined): void {
  if (token !== undefined && !FIELD_VALUE.test(token)) throw new UsageError("--token holds a line break or another control character, which no request can carry");
}

/** An Origin as a browser sends it: scheme, host and port, nothing more (or "null", a page with none). */
export function checkOrigin(origin: string, option: string): void {
  let shown: string | undefined;
  try {
    shown = new URL(origin).origin;
  } catch {
    shown = undefined;
  }
  if (origin !== "null" && shown !== origin) {
    throw new UsageError(`${option} ${JSON.stringify(origin)} is not an origin as a browser sends it${shown && shown !== "null" ? ` (did you mean ${shown}?)` : ""}, e.g. http://localhost:5173`);
  }
}

export function parseSettings(list: string[] = []): Record<string, unknown> {
  // No prototype: a key such as __proto__ is a setting like any other (and an unknown one).
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
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

/**
 * --set for the commands that judge (test, replay, proxy): each key must be a parameter of a
 * protocol of the run, and its value of the parameter's type, before anything starts. A string
 * parameter keeps the text as typed (`--set model=3` is the model "3").
 */
export function parseParamSettings(protocols: readonly ProtocolDef[], list: string[] = []): Record<string, unknown> {
  const values = parseSettings(list);
  const known = protocols.map((p) => ({ id: p.id, params: knownParams(p) }));
  const ids = protocols.map((p) => p.id).join(", ");
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const raw = list.filter((kv) => kv.slice(0, kv.indexOf("=")) === key).at(-1)!.slice(key.length + 1);
    const having = known.filter((k) => Object.hasOwn(k.params, key));
    if (having.length === 0) {
      const names = [...new Set(known.flatMap((k) => Object.keys(k.params)))];
      throw new UsageError(`--set: unknown setting "${key}" for ${ids} (known: ${names.join(", ")})`);
    }
    for (const k of having) {
      const def = k.params[key];
      if (!paramTypeFits(def, value)) {
        throw new UsageError(`--set ${key}=${raw}: ${key} takes ${typeWords(def)} (${k.id} default: ${JSON.stringify(def)})`);
      }
    }
    const range = rangeProblem(key, value);
    if (range) throw new UsageError(`--set ${key}=${raw}: ${range}`);
    out[key] = having.every((k) => typeof k.params[key] === "string") ? raw : value;
  }
  return out;
}

function typeWords(def: unknown): string {
  if (Array.isArray(def)) return "a comma-separated list or a JSON array";
  if (typeof def === "number") return "a number";
  if (typeof def === "boolean") return "true or false";
  if (typeof def === "object") return "a JSON object";
  return "text";
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
  // "-" is stdout, as validate reads "-" as stdin.
  const files = outputs.filter((o) => o !== "-");
  checkDistinctOutputs(files);
  for (const o of files) checkWritableFile(o, "--output");
  const targets = names.map((r, i) => ({ reporter: r as ReporterName, ...(outputs[i] && outputs[i] !== "-" ? { output: outputs[i] } : {}) }));
  if (targets.filter((t) => !t.output).length > 1) {
    throw new UsageError("only one reporter can write to stdout; give the others an --output path");
  }
  return targets;
}

/** Two reports written to one file would leave only the last: each needs its own (`r` and `./r` are one). */
function checkDistinctOutputs(outputs: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const o of outputs) {
    const first = seen.get(resolve(o));
    if (first !== undefined) throw new UsageError(`--output ${o} is given twice${first !== o ? ` (as ${first})` : ""}: each --reporter needs a file of its own`);
    seen.set(resolve(o), o);
  }
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

/**
 * The schemes a protocol's --url takes: a WebSocket protocol any of http(s) and ws(s), an HTTP one
 * http(s) only (its probes could not speak to a ws:// URL), as the proxy's --target. Its transport
 * is the one its proxy adapter declares.
 */
export async function checkUrlFor(protocolId: string, url: string): Promise<void> {
  const { loadProxyAdapter } = await import("../proxy/adapters.js");
  const adapter = await loadProxyAdapter(protocolId);
  if (!adapter || adapter.transport === "ws") return;
  const scheme = new URL(url).protocol;
  if (scheme !== "http:" && scheme !== "https:") throw new UsageError(`--url must be http or https for ${protocolId}, not ${scheme.replace(":", "")}`);
}

/** --catalogue belongs to the protocols whose checks read a tool catalogue (the `catalogue` parameter). */
export async function checkCatalogueOption(p: ProtocolDef, catalogue: string | undefined): Promise<void> {
  if (catalogue === undefined) return;
  if (!("catalogue" in p.defaultParams)) throw new UsageError(`--catalogue is an openai-chat option; ${p.id} has no tool catalogue`);
  const { OPENAI_CHAT_CATALOGUES } = await import("../mocks/openai-chat/catalogues.js");
  const known = [...OPENAI_CHAT_CATALOGUES.map((c) => c.name), "none"];
  if (!known.includes(catalogue)) throw new UsageError(`unknown --catalogue "${catalogue}"; use one of ${known.join(", ")}`);
}

/** Fault names are checked against the protocol's list before any mock starts or probe runs. */
export function checkFaults(p: ProtocolDef, faults: string[] = []): void {
  const unknown = faults.filter((f) => !p.faults.some((x) => x.name === f));
  if (unknown.length) {
    throw new UsageError(`unknown --fault ${unknown.join(", ")} for ${p.id}; see "agentwire list ${p.id}" (${p.faults.length} faults)`);
  }
}

/** The mock setting that makes a mock require a credential: each protocol names its own. */
const CREDENTIAL_SETTING: Record<string, string> = { "openai-chat": "apiKey", "pi-web": "token", "continue-remote": "token" };

/** What a mock that takes no credential offers instead, where it offers something (a setting it has). */
const NO_CREDENTIAL_HINT: Record<string, string> = { "mcp-chat": "; --set requireBearer=true makes it ask for any Bearer token" };

/** Whether a protocol's mock can be made to require a token. */
export function takesToken(protocolId: string): boolean {
  return protocolId in CREDENTIAL_SETTING;
}

export function credentialSetting(protocolId: string, token: string | undefined): Record<string, string> {
  checkToken(token);
  if (!token) return {};
  const key = CREDENTIAL_SETTING[protocolId];
  if (!key) throw new UsageError(`--token: the ${protocolId} mock takes no credential (the protocol defines none)${NO_CREDENTIAL_HINT[protocolId] ?? ""}`);
  return { [key]: token };
}

/**
 * Fails now, before a run starts, when a report could not be written at PATH later: its folder
 * cannot be made, or the file cannot be opened for writing. Leaves nothing behind.
 */
export function checkWritableFile(path: string, option: string): void {
  const full = resolve(path);
  try {
    if (existsSync(full) && statSync(full).isDirectory()) throw new Error("it is a directory");
    makeDirs(dirname(full));
    const existed = existsSync(full);
    closeSync(openSync(full, "a"));
    if (!existed) unlinkSync(full);
  } catch (e) {
    throw new UsageError(`${option} ${path} cannot be written: ${reason(e)}`);
  }
}

/** Same for a folder that will receive files (--save-transcript). */
export function checkWritableDir(path: string, option: string): void {
  try {
    makeDirs(path);
    accessSync(path, constants.W_OK);
    const probe = join(path, `.agentwire-write-check-${process.pid}`);
    closeSync(openSync(probe, "w"));
    unlinkSync(probe);
  } catch (e) {
    throw new UsageError(`${option} ${path} cannot be written: ${reason(e)}`);
  }
}

/**
 * `mkdir -p`, a folder at a time: node's recursive mkdir never returns for some paths (under /proc),
 * where one level at a time fails at once.
 */
function makeDirs(path: string): void {
  const missing: string[] = [];
  for (let at = resolve(path); !existsSync(at); ) {
    missing.push(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir);
    } catch (e) {
      // Made meanwhile by someone else (two runs writing to one new folder): that is what was wanted.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || !statSync(dir).isDirectory()) throw e;
    }
  }
}

function reason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const known: Record<string, string> = {
    ENOENT: "a parent folder is missing",
    ENOTDIR: "a parent is not a folder",
    EACCES: "permission denied",
    EPERM: "permission denied",
    EROFS: "read-only file system",
    EISDIR: "it is a directory",
    EEXIST: "a file is in the way of a folder",
  };
  return (err.code && known[err.code]) ?? err.message;
}

/** What test and test-client pass on alike: the checks selected, how strictly they count, the profile, the waits and the transcript. */
export function judgingOptions(o: { only?: string[]; skip?: string[]; strict?: boolean; profile?: string; timeout?: number; saveTranscript?: string }) {
  return {
    ...(o.only ? { only: o.only } : {}),
    ...(o.skip ? { skip: o.skip } : {}),
    strict: !!o.strict,
    ...(o.profile ? { profile: o.profile } : {}),
    ...(o.timeout ? { timeout: o.timeout } : {}),
    ...(o.saveTranscript ? { saveTranscript: o.saveTranscript } : {}),
  };
}
