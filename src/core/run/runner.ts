/**
 * Runs a protocol's server-side suite against a URL (or, with no URL, against its own reference
 * mock on a free loopback port), and the client-side checks against a command that plays the
 * client. Both feed one transcript bus into one Evaluation.
 */
import { shellQuote } from "../reporters/reproduce.js";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_PROFILE, type CheckContext, type CheckDef, type Level, type Outcome, type ProfileDef, type Side, type Violation } from "../checks/check.js";
import { Evaluation, matchesPrefix, selectChecks } from "../verdicts/evaluation.js";
import { MockOptionError, type MockStartOptions, type ProtocolDef, type RunningMock, type Timeouts } from "./protocol.js";
import { queryCredentials, redactQuery, scrubDeep, secretsOf, type Secrets } from "../transcript/redaction.js";
import { exitCodeFor, summarise, type CheckResult, type RunResult, type ViolationListener } from "../verdicts/result.js";
import { registry } from "../schemas/schema-registry.js";
import { CheckClock } from "../verdicts/check-timing.js";
import { exchangeRecords, explained, HeadLog } from "../verdicts/exchange-context.js";
import { openTranscriptFile, redact, type TranscriptFile } from "../transcript/transcript-file.js";
import { readTranscript, TranscriptBus, type TranscriptEvent, type TranscriptHeader } from "../transcript/transcript.js";
import { knownParams, paramTypeFits } from "./params.js";
import { UsageError } from "./usage-error.js";
import { recordStalls, type StallWatch } from "./stall-watch.js";
import { stopChild } from "./stop-child.js";
import { noteRunStopped } from "../checks/run-stop.js";

export { UsageError };

export interface CommonOptions {
  only?: string[];
  skip?: string[];
  strict?: boolean;
  profile?: string;
  /** Caps every wait of the run (ms). */
  timeout?: number;
  saveTranscript?: string;
  /** Protocol parameters (origin, prompt, min gap...), over the protocol's defaults. */
  params?: Record<string, unknown>;
  progress?: (message: string) => void;
  /** false: transcripts and results keep credentials as they crossed the wire (default true). */
  redact?: boolean;
  /** Further literal secrets to hide (a mock's token...); a suite adds its headers and token itself. */
  secrets?: string[];
  /** Called with each verdict as the run decides it (streaming reporters). */
  onVerdict?: (check: CheckResult, run: { protocol: string; side: Side }) => void;
  /** Called with each violation the moment a check sees it (a failure is final, so it never contradicts the verdict). */
  onViolation?: ViolationListener;
  /**
   * Keep the events around each failure for the report (the html reporter): the transcript is
   * written to a temporary file when none is saved, and read back after the run.
   */
  context?: boolean;
}

export interface SuiteOptions extends CommonOptions {
  /** Target base URL; none = the built-in reference mock. */
  url?: string;
  headers?: Record<string, string>;
  token?: string;
  maxBytes?: number;
  /** Options for the embedded mock when no URL is given (faults, scenario...). */
  mock?: MockStartOptions;
  signal?: AbortSignal;
}

export function resolveProfile(protocol: ProtocolDef, name: string | undefined): ProfileDef {
  if (!name || name === "default") return DEFAULT_PROFILE;
  const p = protocol.profiles.find((x) => x.name === name);
  if (!p) {
    const known = ["default", ...protocol.profiles.map((x) => x.name)].join(", ");
    throw new UsageError(`unknown profile "${name}" for ${protocol.id}; known: ${known}`);
  }
  return p;
}

/**
 * The options checks that need no target: profile and --only/--skip. Run for every protocol of a
 * command before any of them starts, so a mistake never surfaces halfway through.
 */
export function checkRunOptions(protocol: ProtocolDef, opts: CommonOptions, side: Side): void {
  resolveProfile(protocol, opts.profile);
  validatePrefixes(protocol, opts, side);
}

/** Starts a mock; options it refuses are the user's mistake, not a failure of the run. */
async function startMockChecked(protocol: ProtocolDef, options: MockStartOptions): Promise<RunningMock> {
  try {
    return await protocol.startMock(options);
  } catch (e) {
    if (e instanceof MockOptionError) throw new UsageError(e.message);
    throw e;
  }
}

function checkContext(protocol: ProtocolDef, profile: ProfileDef, params: Record<string, unknown>): CheckContext {
  return {
    protocol: protocol.id,
    profile,
    params,
    validate: (message, value) => registry.validate(protocol.id, message, value, profile.name),
  };
}

function capTimeouts(t: Timeouts, cap: number | undefined): Timeouts {
  if (!cap) return t;
  const out = { ...t };
  for (const k of Object.keys(out) as (keyof Timeouts)[]) out[k] = Math.min(out[k], cap);
  return out;
}

/**
 * Each --only and --skip prefix selects some check of the run's protocols on its sides: a typo in a
 * --skip would skip nothing, and in one of several --only prefixes select less, without a word.
 * Asked once per command (a prefix of a run over every protocol names one protocol's checks).
 */
export function checkPrefixes(protocols: readonly ProtocolDef[], opts: CommonOptions, sides: readonly Side[]): void {
  const selects = (prefix: string) => protocols.some((p) => p.checks.some((c) => sides.includes(c.side) && matchesPrefix(c.id, p.id, prefix)));
  for (const [option, prefixes] of [["--only", opts.only], ["--skip", opts.skip]] as const) {
    const none = (prefixes ?? []).filter((prefix) => !selects(prefix));
    if (none.length === 0) continue;
    const whose = sides.length === 1 ? `${sides[0]}-side check` : "check";
    const of = protocols.length === 1 ? ` of ${protocols[0]!.id}` : "";
    const list = protocols.length === 1 ? `agentwire list ${protocols[0]!.id}` : "agentwire list";
    throw new UsageError(`no ${whose}${of} matches ${option} ${none.join(", ")}; see "${list}"`);
  }
}

/** The side a saved transcript records: its header's, or for a file without one, the traffic's. */
export function transcriptSide(header: TranscriptHeader | undefined, events: readonly TranscriptEvent[]): Side {
  return header?.side ?? (events.some((e) => e.probe === "client") ? "client" : "server");
}

function validatePrefixes(protocol: ProtocolDef, opts: CommonOptions, side: "server" | "client") {
  const selected = selectChecks(protocol.id, protocol.checks, { side, only: opts.only, skip: opts.skip });
  if (selected.length === 0) {
    throw new UsageError(
      `no ${side}-side check of ${protocol.id} matches --only ${JSON.stringify(opts.only ?? [])} / --skip ${JSON.stringify(opts.skip ?? [])}; see "agentwire list ${protocol.id}"`,
    );
  }
  return selected;
}

export async function runSuite(protocol: ProtocolDef, opts: SuiteOptions = {}): Promise<RunResult> {
  const secrets = secretsOf(opts.headers, [opts.token, ...queryCredentials(opts.url), ...(opts.secrets ?? [])]);
  // Against its own mock the suite waits less; a real target gets the contract's waits.
  const selfTest = opts.url ? undefined : protocol.selfTest;
  const run = prepareRun(protocol, opts, "server", { secrets, quick: selfTest?.params });
  const { profile, params, bus } = run;

  let mock: RunningMock | undefined;
  let url = opts.url;
  if (!url) {
    const played = protocol.selfTestMockFor?.(profile);
    const settings = played ? { ...played, ...opts.mock?.settings } : opts.mock?.settings;
    mock = await startMockChecked(protocol, { ...opts.mock, ...(settings ? { settings } : {}), host: "127.0.0.1", port: 0, suite: true });
    url = mock.url;
  }
  const target = opts.url ?? `built-in mock (${url})`;
  run.begin(url, target);
  const reach = trackReachability(bus);

  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (mock?.token) for (const k of Object.keys(headers)) if (k.toLowerCase() === "authorization") delete headers[k];
  const envName = protocol.auth?.env;
  // The embedded mock's own credential wins: it accepts no other.
  const token = mock?.token ?? opts.token ?? (envName ? process.env[envName] : undefined) ?? undefined;
  if (token && (protocol.auth?.token ?? "bearer") === "bearer") headers["Authorization"] = `Bearer ${token}`;
  const abort = new AbortController();
  opts.signal?.addEventListener("abort", () => abort.abort(), { once: true });

  let error: string | undefined;
  try {
    await protocol.runProbes({
      url: url.replace(/\/+$/, ""),
      bus,
      timeouts: capTimeouts({ ...protocol.timeouts, ...selfTest?.timeouts }, opts.timeout),
      headers,
      ...(token ? { token } : {}),
      profile,
      params,
      maxBytes: opts.maxBytes ?? 64 * 1024 * 1024,
      signal: abort.signal,
      ...(opts.redact === false ? { redact: false } : {}),
      progress: opts.progress ?? (() => undefined),
    });
  } catch (e) {
    error = `probe aborted: ${(e as Error).message}`;
  } finally {
    await mock?.close();
  }
  // Stopped by the caller before anything answered: the target is not to blame.
  const unreachable = opts.signal?.aborted && !reach.reached ? `the run was interrupted before ${url} answered` : unreachableError(reach, url);
  return run.finish(target, unreachable ?? error, unreachable ? { verdict: "incomplete", message: unreachable } : undefined);
}

/** Why every check is untestable: nothing answered at all (the same reading live and in a replay). */
function unreachableError(reach: { reached: boolean; lastError?: string | undefined }, url: string): string | undefined {
  return !reach.reached && reach.lastError !== undefined ? `target unreachable at ${url}: ${reach.lastError}` : undefined;
}

interface PreparedRun {
  profile: ProfileDef;
  params: Record<string, unknown>;
  bus: TranscriptBus;
  evaluation: Evaluation;
  /** The run has its target: writes the transcript's header (before the first event). */
  begin(url: string, target: string): void;
  /** Ends the run: closes the transcript file, judges, and builds the result. */
  finish(target: string, error?: string, override?: Outcome): Promise<RunResult>;
}

interface PrepareOptions {
  secrets?: Secrets;
  /** Self-test pacing (the built-in mock). */
  quick?: Record<string, unknown> | undefined;
  /** Parameters as recorded (a replay of the same profile): they replace defaults, pacing and profile. */
  recorded?: Record<string, unknown>;
  /** Set by a replay: nothing is written, the transcript is the one read. */
  replayOf?: { file: string; events: readonly TranscriptEvent[] };
}

/**
 * What every run shares: profile, parameters, the bus, the evaluation and the transcript file.
 * Parameters: the protocol's defaults, then `quick` (self-test pacing), the profile, the caller.
 */
function prepareRun(protocol: ProtocolDef, opts: CommonOptions, side: Side, prep: PrepareOptions = {}): PreparedRun {
  const secrets = prep.secrets ?? secretsOf({}, opts.secrets);
  const redacting = opts.redact !== false;
  const profile = resolveProfile(protocol, opts.profile);
  const selected = validatePrefixes(protocol, opts, side);
  const caller = opts.params ?? {};
  const params = prep.recorded
    ? { ...prep.recorded, ...caller }
    : { ...protocol.defaultParams, ...(prep.quick ?? {}), ...(profile.params ?? {}), ...caller };
  const startedAt = new Date();
  const t0 = performance.now();
  const bus = new TranscriptBus();
  const listen = opts.onViolation;
  const onViolation =
    listen &&
    ((check: CheckDef, level: Level, v: Violation) => {
      const live = { check: check.id, level, side, ...v };
      listen(redacting ? scrubDeep(live, secrets) : live, { protocol: protocol.id, side });
    });
  const evaluation = new Evaluation(selected, checkContext(protocol, profile, params), opts.strict, onViolation);
  bus.subscribe(evaluation.observe);
  const clock = new CheckClock();
  bus.subscribe(clock.observe);
  const heads = new HeadLog();
  if (!prep.replayOf) bus.subscribe(heads.observe);
  let file: TranscriptFile | undefined;
  let temporary: string | undefined;
  const dir = opts.saveTranscript ?? (opts.context && !prep.replayOf ? (temporary = mkdtempSync(join(tmpdir(), "agentwire-context-"))) : undefined);
  if (dir && !prep.replayOf) {
    file = openTranscriptFile(dir, side === "server" ? protocol.id : `${protocol.id}-client`, redacting ? secrets : null);
    bus.subscribe(file.observer);
  }
  const probesOf = new Map(selected.map((c) => [c.id, c.probes]));
  let stalls: StallWatch | undefined;
  return {
    profile,
    params,
    bus,
    evaluation,
    begin(url, target) {
      // The kit's own hold-ups, for the timing rules, from the first event on (a replay reads those the live run
      // recorded).
      if (!prep.replayOf)
        stalls = recordStalls(bus);
      file?.header({
        agentwire: "transcript",
        version: 1,
        protocol: protocol.id,
        side,
        profile: profile.name,
        params,
        ...(Object.keys(caller).length ? { callerParams: caller } : {}),
        ...(prep.quick && Object.keys(prep.quick).length ? { quickParams: prep.quick } : {}),
        url: redacting ? redactQuery(url) : url,
        target: redacting ? redactQuery(target) : target,
        startedAt: startedAt.toISOString(),
      });
    },
    async finish(target, error, override) {
      stalls?.flush();
      stalls?.stop();
      await file?.close();
      if (file && !temporary) opts.progress?.(`transcript saved to ${file.path}`);
      const judged = evaluation.finish(override).map((c) => ({ ...c, durationMs: clock.durationOf(probesOf.get(c.id) ?? []) }));
      const checks = redacting ? scrubDeep(judged, secrets) : judged;
      for (const c of checks) opts.onVerdict?.(c, { protocol: protocol.id, side });
      const summary = summarise(checks);
      // The failures' exchanges: from the whole transcript when there is one, else from the heads kept.
      let source: readonly TranscriptEvent[] = prep.replayOf?.events ?? heads.events;
      const transcriptPath = prep.replayOf?.file ?? file?.path;
      if (checks.some(explained) && file && opts.context) source = readTranscript(readFileSync(file.path, "utf8")).events;
      const exchanges = exchangeRecords(redacting && source === heads.events ? source.map((e) => redact(e, secrets)) : source, checks);
      if (temporary) rmSync(temporary, { recursive: true, force: true });
      const result: RunResult = {
        protocol: protocol.id,
        target: redacting ? redactQuery(target) : target,
        side,
        profile: profile.name,
        strict: !!opts.strict,
        startedAt: startedAt.toISOString(),
        durationMs: Math.round(performance.now() - t0),
        summary,
        checks,
        exitCode: exitCodeFor(summary),
        ...(error ? { error } : {}),
        ...(transcriptPath && !temporary ? { transcript: transcriptPath } : {}),
        ...(prep.replayOf ? { replay: true } : {}),
        ...(exchanges.length ? { exchanges } : {}),
      };
      // Reports are written from the result: a secret a server echoed must not reach them either.
      return redacting ? scrubDeep(result, secrets) : result;
    },
  };
}

/** Whether anything answered: no response head at all means every check is untestable. */
function trackReachability(bus: TranscriptBus) {
  const state = { reached: false, lastError: undefined as string | undefined };
  bus.subscribe((ev: TranscriptEvent) => {
    if (ev.kind === "http-response" || ev.kind === "ws-open") state.reached = true;
    else if (ev.kind === "http-error") state.lastError = ev.error;
    // A refused upgrade still came from the server; one that failed before any answer did not.
    else if (ev.kind === "ws-reject") {
      if (ev.status !== undefined) state.reached = true;
      else state.lastError = ev.error ?? ev.code ?? "WebSocket upgrade failed";
    }
  });
  return state;
}

export interface ClientTestOptions extends CommonOptions {
  command: string;
  args: string[];
  mock?: MockStartOptions;
  /** Extra environment for the command. */
  env?: Record<string, string>;
  /** Forward the command's output (default: inherit to stderr). */
  stdio?: "inherit" | "ignore" | "pipe";
  /** Stops the command (Ctrl-C, SIGTERM): the run ends with what it did until then. */
  signal?: AbortSignal;
}

export interface ClientSession {
  url: string;
  /** The mock's URLs to show (RunningMock.urls). */
  urls: string[];
  bus: TranscriptBus;
  /**
   * The kit stops the client now (`by`: "Ctrl-C", a time limit): noted in the transcript, so the client rules leave
   * unjudged what its time had not run out for. Only the first call counts.
   */
  stopping(by: string): void;
  finish(extraError?: string): Promise<RunResult>;
}

/** Starts the mock in client-judging mode; finish() stops it and judges what clients sent. */
export async function startClientSession(
  protocol: ProtocolDef,
  opts: CommonOptions & { mock?: MockStartOptions; target?: string },
): Promise<ClientSession> {
  const run = prepareRun(protocol, opts, "client");
  const mock = await startMockChecked(protocol, { host: "127.0.0.1", port: 0, ...opts.mock, bus: run.bus });
  run.begin(mock.url, opts.target ?? `clients of ${mock.url}`);
  let stopped = false;
  return {
    url: mock.url,
    urls: mock.urls ?? [mock.url],
    bus: run.bus,
    stopping(by: string) {
      if (stopped) return;
      stopped = true;
      noteRunStopped(run.bus, by);
    },
    async finish(extraError?: string) {
      await mock.close();
      return run.finish(opts.target ?? `clients of ${mock.url}`, extraError);
    },
  };
}

/** The run's error when a stop signal ended it: the kit stopped the client, which did nothing wrong by exiting. */
const CLIENT_INTERRUPTED = "the client command was stopped with the run";

/** test-client: plays the server for one command and judges what it sent; `signal` stops the command. */
export async function runClientTest(protocol: ProtocolDef, opts: ClientTestOptions): Promise<RunResult> {
  // Quoted as a shell reads it: the report's rerun line ends with it, to be pasted.
  const target = [opts.command, ...opts.args].map(shellQuote).join(" ");
  const session = await startClientSession(protocol, { ...opts, target });
  const env = {
    ...process.env,
    ...(protocol.clientEnv?.(session.url, opts.mock ?? {}) ?? {}),
    AGENTWIRE_URL: session.url,
    AGENTWIRE_PROTOCOL: protocol.id,
    ...(opts.env ?? {}),
  };
  const limit = opts.timeout ?? 120_000;
  const error = await new Promise<string | undefined>((resolve) => {
    if (opts.signal?.aborted) return resolve(CLIENT_INTERRUPTED);
    // The client's stdout would mix with reports on ours: it goes to stderr (inherited: straight onto our fd 2,
    // so nothing of it waits in this process when it exits).
    const out = opts.stdio ?? "inherit";
    const child = spawn(opts.command, opts.args, { env, stdio: ["ignore", out === "inherit" ? 2 : out, out] });
    child.stdout?.pipe(process.stderr);
    /** Why the kit stopped the command, once it did: that, not the command's exit, is the run's error. */
    let stopping: string | undefined;
    const settle = (why: string | undefined) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      resolve(why);
    };
    const stop = (why: string, by: string) => {
      if (stopping !== undefined) return;
      stopping = why;
      session.stopping(by);
      void stopChild(child).then(() => settle(why));
    };
    // The CLI aborts with the signal's name as the reason.
    const onAbort = () => stop(CLIENT_INTERRUPTED, typeof opts.signal?.reason === "string" ? opts.signal.reason : "interrupted");
    const timer = setTimeout(() => stop(`client command did not exit within ${limit} ms; stopped`, `the ${limit} ms time limit`), limit);
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    child.on("error", (e: NodeJS.ErrnoException) => {
      if (stopping === undefined) settle(e.code === "ENOENT" ? `command not found: ${opts.command}` : e.message);
    });
    child.on("exit", (code, sig) => {
      if (stopping === undefined) settle(code === 0 ? undefined : `client command exited with ${sig ?? code}`);
    });
  });
  opts.progress?.(error ? `client: ${error}` : "client command finished");
  return session.finish(error);
}

export interface ReplayOptions extends CommonOptions {
  /** The transcript file (shown in the report and in its replay commands). */
  file: string;
}

/** Events a replay judges between two turns of the event loop (a few milliseconds of work). */
export const REPLAY_SLICE = 256;

/** The header's recorded parameters must have the types the protocol's parameters have: the checks read them as such. */
function recordedParamsProblem(protocol: ProtocolDef, header: TranscriptHeader, file: string): void {
  const known = knownParams(protocol);
  for (const field of ["params", "callerParams", "quickParams"] as const) {
    for (const [key, value] of Object.entries(header[field] ?? {})) {
      if (Object.hasOwn(known, key) && !paramTypeFits(known[key], value)) {
        throw new UsageError(`${file} line 1 is not an agentwire transcript header: "${field}.${key}" must be of the type of ${protocol.id}'s ${key} (like ${JSON.stringify(known[key])}), got ${JSON.stringify(value)}`);
      }
    }
  }
}

/**
 * Re-judges a saved transcript as the live run judged it: the side, profile and parameters come
 * from its header (another --profile re-resolves the parameters; --set adds to them). A file saved
 * before headers existed needs the protocol from the caller and gets the protocol's defaults.
 */
export async function replayTranscript(protocol: ProtocolDef, text: string, opts: ReplayOptions): Promise<RunResult> {
  const { header, events } = readTranscript(text);
  if (header && header.protocol !== protocol.id) {
    throw new UsageError(`${opts.file} was recorded with ${header.protocol}, not ${protocol.id}`);
  }
  if (header) recordedParamsProblem(protocol, header, opts.file);
  const side = transcriptSide(header, events);
  const profileName = opts.profile ?? header?.profile;
  const sameProfile = (profileName ?? "default") === (header?.profile ?? "default");
  // Another profile: its own parameters, under what the caller of the recorded run gave.
  const params = { ...(header && !sameProfile ? header.callerParams : {}), ...(opts.params ?? {}) };
  const { saveTranscript: _unused, ...rest } = opts;
  const run = prepareRun(protocol, { ...rest, ...(profileName ? { profile: profileName } : {}), params }, side, {
    ...(header && sameProfile ? { recorded: header.params } : { quick: header?.quickParams }),
    replayOf: { file: opts.file, events },
  });
  const reach = trackReachability(run.bus);
  for (let i = 0; i < events.length; i++) {
    // A turn of the event loop now and then: judging a long transcript in one go would hold up
    // whatever else the process serves meanwhile (live runs beside it, whose waits would run out).
    if (i > 0 && i % REPLAY_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    run.bus.replay(events[i]!);
  }
  const url = header?.url ?? header?.target ?? "the recorded target";
  const unreachable = side === "server" ? unreachableError(reach, url) : undefined;
  const target = `${header?.target ?? "an unknown target"} (replayed from ${opts.file})`;
  return run.finish(target, unreachable, unreachable ? { verdict: "incomplete", message: unreachable } : undefined);
}

export type { TranscriptHeader };
