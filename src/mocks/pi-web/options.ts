/**
 * Options of the pi-web mock engine, their defaults, and up-front validation: an unknown
 * scenario, fault, framing or profile fails loudly instead of serving the default.
 */
import type { TranscriptBus } from "../../core/transcript/transcript.js";
import { FAULTS, findFault } from "./faults.js";
import { CANONICAL_FORMAT, DEFAULT_FRAMING, findFraming, formatOf, FRAMINGS, type WireFormat } from "./framing.js";
import { findProfile, PROFILES, type PiWebProfile } from "./profiles.js";
import { DEFAULT_SCENARIO, findScenario, SCENARIOS } from "./scenarios.js";
import { mockNames, splitNames } from "../../core/mock/names.js";
import { givenNumbers, nonNegativeProblem, optionFailure, tooLongProblem } from "../../core/mock/option-checks.js";

/** Timing knobs in milliseconds, except chunkSize (characters per delta). */
export interface PiWebTiming {
  /** prompt → agent_start. */
  firstDelay: number;
  /** Between message updates; 0 sends a burst. */
  chunkDelay: number;
  /** Characters (code points) per text/thinking/toolcall delta. */
  chunkSize: number;
  /** Per tool execution. */
  toolDelay: number;
  /** How long the slow-queries fault holds each query command (§6: 3 s, over the 2 s the UI allows). */
  slowQueryDelay: number;
}

export const DEFAULT_TIMING: PiWebTiming = { firstDelay: 30, chunkDelay: 20, chunkSize: 4, toolDelay: 150, slowQueryDelay: 3000 };

export const PI_WEB_DEFAULT_PORT = 4781;
export const PI_WEB_WS_PATH = "/ws";

export interface PiWebMockOptions extends Partial<PiWebTiming>, Partial<WireFormat> {
  /** Default scenario of a prompt without `scenario:<name>` (default "text"). */
  scenario?: string;
  /** Faults active on every connection. */
  faults?: string[];
  /** Framing name(s), comma-separated (default "canonical"); the WireFormat keys override them. */
  framing?: string;
  profile?: PiWebProfile;
  /** Enables the token check: the upgrade query must carry `token=<this>`. */
  token?: string;
  /** How a presented token is compared with `token`; the node server passes a constant-time one. */
  sameToken?: (given: string, expected: string) => boolean;
  /** Extra allowed origins (added to the loopback list when bound to a loopback host). */
  allowedOrigins?: string[];
  /** false disables the Origin check (default true; the msw handlers default to false). */
  originCheck?: boolean;
  /** new_session asks a confirm dialog first. */
  confirmNewSession?: boolean;
  /** Seed of session, dialog and entry ids. */
  seed?: number;
  /** Only "memory" is implemented. */
  sessions?: "memory";
  /** false starts with no stored session, as a fresh install does (default true: the three seeded ones). */
  seedSessions?: boolean;
  /** Host and port the server is bound to: the default Origin allow-list derives from them. */
  host?: string;
  port?: number;
  /** The WebSocket path (default /ws). */
  wsPath?: string;
  /** Records client traffic (probe "client"): upgrades, ws-open, ws-frame both ways, ws-close. */
  bus?: TranscriptBus;
}

export interface ResolvedPiWebOptions extends PiWebTiming {
  scenario: string;
  faults: string[];
  framing: string[];
  format: WireFormat;
  profile: PiWebProfile;
  token?: string;
  sameToken?: (given: string, expected: string) => boolean;
  allowedOrigins: string[];
  originCheck: boolean;
  confirmNewSession: boolean;
  seed: number;
  seedSessions: boolean;
  host: string;
  port: number;
  wsPath: string;
  bus?: TranscriptBus;
}

const TIMING_KEYS = Object.keys(DEFAULT_TIMING) as (keyof PiWebTiming)[];
const FORMAT_KEYS = Object.keys(CANONICAL_FORMAT) as (keyof WireFormat)[];

const fail = optionFailure("pi-web");

/** Fills defaults and checks every name and number; throws an Error naming what is wrong. */
export function resolvePiWebOptions(options: PiWebMockOptions = {}): ResolvedPiWebOptions {
  const timing = { ...DEFAULT_TIMING, ...givenNumbers(TIMING_KEYS, options, nonNegativeProblem(), fail) };
  if (timing.chunkSize < 1 || !Number.isInteger(timing.chunkSize)) fail(`chunkSize must be an integer >= 1, got ${timing.chunkSize}`);
  const scenario = options.scenario ?? DEFAULT_SCENARIO;
  checkName("scenario", scenario);
  const faults = [...(options.faults ?? [])];
  for (const f of faults) checkName("fault", f);
  const framing = splitNames(options.framing ?? DEFAULT_FRAMING);
  for (const f of framing) checkName("framing", f);
  const format = formatOf(CANONICAL_FORMAT, framing);
  for (const key of FORMAT_KEYS) {
    const v = options[key];
    if (v === undefined) continue;
    if (typeof CANONICAL_FORMAT[key] === "boolean") {
      if (typeof v !== "boolean") fail(`${key} must be a boolean, got ${String(v)}`);
    } else if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
      fail(`${key} must be an integer >= 0, got ${String(v)}`);
    } else {
      // pingInterval is a timer's period.
      const tooLong = tooLongProblem(key, v);
      if (tooLong) fail(tooLong);
    }
    (format as unknown as Record<string, unknown>)[key] = v;
  }
  const profile = options.profile ?? "default";
  checkName("profile", profile);
  if (options.sessions !== undefined && options.sessions !== "memory") {
    fail(`sessions must be "memory" (session files are not implemented), got ${JSON.stringify(options.sessions)}`);
  }
  if (options.seedSessions !== undefined && typeof options.seedSessions !== "boolean") fail(`seedSessions must be a boolean, got ${String(options.seedSessions)}`);
  if (options.token !== undefined && (typeof options.token !== "string" || options.token === "")) {
    fail("token must be a non-empty string");
  }
  const wsPath = options.wsPath ?? PI_WEB_WS_PATH;
  if (!wsPath.startsWith("/")) fail(`wsPath must start with "/", got ${JSON.stringify(wsPath)}`);
  return {
    ...timing,
    scenario,
    faults,
    framing,
    format,
    profile,
    ...(options.token !== undefined ? { token: options.token } : {}),
    ...(options.sameToken ? { sameToken: options.sameToken } : {}),
    allowedOrigins: [...(options.allowedOrigins ?? [])],
    originCheck: options.originCheck ?? true,
    confirmNewSession: options.confirmNewSession ?? false,
    seed: options.seed ?? 1,
    seedSessions: options.seedSessions ?? true,
    host: options.host ?? "127.0.0.1",
    port: options.port ?? PI_WEB_DEFAULT_PORT,
    wsPath,
    ...(options.bus ? { bus: options.bus } : {}),
  };
}

export type NameKind = "scenario" | "framing" | "fault" | "profile";

const NAMES = mockNames<NameKind>("pi-web", {
  scenario: { find: findScenario, all: SCENARIOS },
  framing: { find: findFraming, all: FRAMINGS },
  fault: { find: findFault, all: FAULTS },
  profile: { find: findProfile, all: PROFILES },
});

export const { unknownNameMessage } = NAMES;
const { checkName } = NAMES;

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/**
 * The Origin allow-list (§1): bound to a loopback host, `http://<host>:<port>`,
 * `http://localhost:<port>`, `http://127.0.0.1:<port>` plus the extras; bound elsewhere, the
 * extras only, and no check at all without extras. Null = no Origin check.
 */
export function originAllowList(o: Pick<ResolvedPiWebOptions, "host" | "port" | "allowedOrigins" | "originCheck">): string[] | null {
  if (!o.originCheck) return null;
  if (LOOPBACK.has(o.host)) {
    const host = o.host === "::1" ? "[::1]" : o.host;
    return [...new Set([`http://${host}:${o.port}`, `http://localhost:${o.port}`, `http://127.0.0.1:${o.port}`, ...o.allowedOrigins])];
  }
  if (o.allowedOrigins.length === 0) return null;
  return [`http://${o.host}:${o.port}`, ...o.allowedOrigins];
}
