/**
 * What a protocol plugs into the kit: its check catalogue, the probes that drive a real target,
 * its reference mock, and the names of the mock's scenarios, faults, framings and profiles.
 */
import type { CheckDef, ProfileDef } from "../checks/check.js";
import type { TranscriptBus } from "../transcript/transcript.js";

/** A mock refused the options it was started with (unknown name, bad setting): the user's mistake. */
export class MockOptionError extends Error {}

export interface Timeouts {
  /** Per JSON request, head and body. */
  request: number;
  /** To the head of a stream. */
  headers: number;
  /** To the first event of a stream. */
  firstEvent: number;
  /** Longest silence inside a stream. */
  idle: number;
  /** Whole stream. */
  stream: number;
  /** From a terminal event to the end of the body. */
  close: number;
}

export interface ProbeContext {
  /** Base URL of the target, without a trailing slash. */
  url: string;
  bus: TranscriptBus;
  timeouts: Timeouts;
  /** Headers added to every probe request (--header, and --token for bearer-token protocols). */
  headers: Record<string, string>;
  /** The --token value (or the protocol's token environment variable), for protocols that send it otherwise. */
  token?: string;
  profile: ProfileDef;
  /** Protocol parameters after defaults, profile and CLI (origin, prompt, min gap...). */
  params: Record<string, unknown>;
  maxBytes: number;
  signal: AbortSignal;
  /** false: the user opted out of redaction (--no-redact): transports record credentials as sent. */
  redact?: boolean;
  /** Progress line for long runs (stderr on the CLI). */
  progress(message: string): void;
}

export interface NamedItem {
  name: string;
  description: string;
}

export interface FaultInfo extends NamedItem {
  /** Check ids (full) this fault must make fail — and nothing else. */
  violates: string[];
}

export interface MockStartOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  scenario?: string;
  faults?: string[];
  framing?: string;
  firstByteMs?: number;
  chunkDelayMs?: number;
  /** Seed for anything random (split-random framing, jitter). */
  seed?: number;
  /** Records client traffic and adapter results, for client-side checks. */
  bus?: TranscriptBus;
  /** Protocol-specific knobs (e.g. notConnected: "http-409"). */
  settings?: Record<string, unknown>;
  /**
   * Started by `agentwire test` as the embedded target: a mock may then require credentials it
   * chooses itself and report them in RunningMock.token, so the auth checks run against it too,
   * and paces itself quickly (delays not given explicitly), as the suite's self-test waits do.
   */
  suite?: boolean;
}

export interface RunningMock {
  /** Base URL, e.g. http://127.0.0.1:8000 */
  url: string;
  /**
   * What `agentwire mock` prints, one a line: first the URL a client is pointed at (e.g.
   * http://127.0.0.1:8000/v1, ws://127.0.0.1:4781/ws), then any others. Absent: the base URL.
   */
  urls?: string[];
  /** The credential the mock requires, when it chose one (see MockStartOptions.suite). */
  token?: string;
  /** Resolves once the mock has closed, also when it closed by itself (continue-remote's `POST /exit`). */
  closed?: Promise<void>;
  close(): Promise<void>;
}

/**
 * How the suite paces itself against its own reference mock (`agentwire test` without --url):
 * the mock answers at once on loopback, so the waits sized for a real target only cost time.
 * The checks stay the same; a real target always gets the protocol's defaults.
 */
export interface SelfTestPacing {
  /** Parameters over the protocol's defaults (a profile and the command line still win). */
  params?: Record<string, unknown>;
  /** Waits over the protocol's timeouts (--timeout still caps them). */
  timeouts?: Partial<Timeouts>;
}

export interface ProtocolDef {
  id: string;
  title: string;
  /** Seed file of the contract. */
  seed: string;
  checks: CheckDef[];
  scenarios: NamedItem[];
  faults: FaultInfo[];
  framings: NamedItem[];
  profiles: ProfileDef[];
  /** Default port of the mock (the contract's default base URL). */
  defaultPort: number;
  /** Default parameters; probes and checks read them from ctx.params. */
  defaultParams: Record<string, unknown>;
  timeouts: Timeouts;
  /** Quicker waits for the run against the built-in mock (see SelfTestPacing). */
  selfTest?: SelfTestPacing;
  /** Drives a target through every probe, recording into ctx.bus. */
  runProbes(ctx: ProbeContext): Promise<void>;
  startMock(options: MockStartOptions): Promise<RunningMock>;
  /**
   * How --token reaches the target: as `Authorization: Bearer` (default) or left to the probes
   * (e.g. a WebSocket `?token=` query). `env` names a variable read when --token is absent.
   */
  auth?: { token: "bearer" | "probes"; env?: string };
  /**
   * Mock settings with which the reference mock plays a profile's implementation (`mock --profile`);
   * absent, or {} for a profile, when the mock has no such mode and plays the contract.
   */
  mockSettingsFor?(profile: ProfileDef): Record<string, unknown>;
  /**
   * Mock settings for the embedded target of `agentwire test --profile P` (no --url), when the mock
   * must speak the generation the run judges; absent, the embedded mock plays its default.
   */
  selfTestMockFor?(profile: ProfileDef): Record<string, unknown>;
  /** Environment variables given to a client under test, besides AGENTWIRE_URL. */
  /** (`mock` is what the mock was started with, e.g. a token the client must present.) */
  clientEnv?(mockUrl: string, mock?: MockStartOptions): Record<string, string>;
}
