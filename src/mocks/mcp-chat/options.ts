/**
 * Options of the mcp-chat mock engine, their defaults, and up-front validation: a mock started
 * with an unknown scenario, fault or framing must fail loudly instead of serving the default.
 */
import type { TranscriptBus } from "../../core/transcript/transcript.js";
import { findFault, FAULTS } from "./faults.js";
import { DEFAULT_FRAMING, findFraming, FRAMINGS } from "./framing.js";
import type { McpChatTiming } from "./hooks.js";
import { DEFAULT_SERVERS, type McpServerEntry } from "./registry.js";
import { DEFAULT_SCENARIO, findScenario, SCENARIOS } from "./scenarios.js";
import { checkedSelection, mockNames } from "../../core/mock/names.js";
import { givenNumbers, nonNegativeProblem, optionFailure } from "../../core/mock/option-checks.js";
import { normalBasePath } from "../../core/mock/paths.js";
import { isTimeScale } from "../../core/client-cases/time-scale.js";

export type NotConnectedForm = "sse-error" | "http-409";

export interface McpChatMockOptions extends Partial<McpChatTiming> {
  /** Default scenario (weather-tool). */
  scenario?: string;
  /** Faults active on every request. */
  faults?: string[];
  /** Default framing (canonical). */
  framing?: string;
  /** Seed of the random framing and of the jitter. */
  seed?: number;
  /** How chat while disconnected is refused: a 200 stream with only [ERROR] (default) or 409. */
  notConnected?: NotConnectedForm;
  /** Serve the optional POST /chat (default true; false makes it a 404). */
  chatSync?: boolean;
  /** Escape non-ASCII in SSE JSON as \uXXXX. */
  asciiJson?: boolean;
  /** SSE JSON without spaces after "," and ":" (default: the seed's spaced style). */
  compactJson?: boolean;
  /** Answer 401 to requests without `Authorization: Bearer …`. */
  requireBearer?: boolean;
  /** Server registry (default: weather and server-id-1). */
  servers?: McpServerEntry[];
  /** Origins echoed in CORS headers. */
  allowedOrigins?: string[];
  /** Path prefix stripped before routing (e.g. "/api" for a base URL with a path). */
  basePath?: string;
  /**
   * Factor on the waits scenarios, framings and faults impose (a slow tool, streams held open
   * after [DONE]); default 1. Quick test runs shrink it.
   */
  timeScale?: number;
  /** Records client traffic as http-request / http-response events (probe "client"). */
  bus?: TranscriptBus;
  /** Extension point consulted before the normal routes (e.g. /__agentwire/* endpoints). */
  routes?: (request: Request) => Promise<Response | undefined>;
}

export interface ResolvedMcpChatOptions extends McpChatTiming {
  scenario: string;
  faults: string[];
  framing: string;
  seed: number;
  notConnected: NotConnectedForm;
  chatSync: boolean;
  asciiJson: boolean;
  compactJson: boolean;
  requireBearer: boolean;
  servers: McpServerEntry[];
  allowedOrigins: string[];
  basePath: string;
  timeScale: number;
  bus?: TranscriptBus;
  routes?: (request: Request) => Promise<Response | undefined>;
}

export const DEFAULT_TIMING: McpChatTiming = {
  headersDelay: 0,
  firstEventDelay: 50,
  eventDelay: 20,
  toolDuration: 200,
  closeDelay: 0,
  jitter: 0,
  chunkGap: 0,
};

export const DEFAULT_ALLOWED_ORIGINS = ["http://localhost:3000", "http://127.0.0.1:3000"];

const TIMING_KEYS = Object.keys(DEFAULT_TIMING) as (keyof McpChatTiming)[];

const fail = optionFailure("mcp-chat");

/** Fills defaults and checks every name and number; throws an Error naming what is wrong. */
export function resolveMcpChatOptions(options: McpChatMockOptions = {}): ResolvedMcpChatOptions {
  const timing = { ...DEFAULT_TIMING, ...givenNumbers(TIMING_KEYS, options, nonNegativeProblem("milliseconds"), fail) };
  const { scenario, framing, faults } = checkedSelection(NAMES, options, { scenario: DEFAULT_SCENARIO, framing: DEFAULT_FRAMING });
  const notConnected = options.notConnected ?? "sse-error";
  if (notConnected !== "sse-error" && notConnected !== "http-409") {
    fail(`notConnected must be "sse-error" or "http-409", got "${String(notConnected)}"`);
  }
  if (options.timeScale !== undefined && !isTimeScale(options.timeScale)) fail(`timeScale must be a number > 0, got ${String(options.timeScale)}`);
  const servers = options.servers ?? DEFAULT_SERVERS.map((s) => ({ ...s, tools: [...s.tools] }));
  const ids = new Set<string>();
  for (const s of servers) {
    if (!s.id || ids.has(s.id)) fail(`server ids must be unique and non-empty ("${s.id}")`);
    ids.add(s.id);
  }
  return {
    ...timing,
    scenario,
    framing,
    faults,
    seed: options.seed ?? 1,
    notConnected,
    chatSync: options.chatSync ?? true,
    asciiJson: options.asciiJson ?? false,
    compactJson: options.compactJson ?? false,
    requireBearer: options.requireBearer ?? false,
    servers,
    allowedOrigins: options.allowedOrigins ?? [...DEFAULT_ALLOWED_ORIGINS],
    basePath: normalBasePath(options.basePath),
    timeScale: options.timeScale ?? 1,
    ...(options.bus ? { bus: options.bus } : {}),
    ...(options.routes ? { routes: options.routes } : {}),
  };
}

export type NameKind = "scenario" | "framing" | "fault";

const NAMES = mockNames<NameKind>("mcp-chat", {
  scenario: { find: findScenario, all: SCENARIOS },
  framing: { find: findFraming, all: FRAMINGS },
  fault: { find: findFault, all: FAULTS },
});

export const { unknownNameMessage } = NAMES;
