/**
 * The proxy's two judges on one transcript: the server checks read the relayed traffic as the
 * kit's probes record theirs (labels of the probes, the target's answers coming "in"), the client
 * checks read it as the kit's mock records a client (probe "client", the mock's labels, the
 * client's frames coming "in"). One bus, one transcript file; each side its own evaluation.
 */
import { readFileSync, rmSync } from "node:fs";
import { DEFAULT_PROFILE, type CheckContext, type Side } from "../core/checks/check.js";
import { CheckClock } from "../core/verdicts/check-timing.js";
import { Evaluation, selectChecks } from "../core/verdicts/evaluation.js";
import { exchangeRecords, explained } from "../core/verdicts/exchange-context.js";
import type { ProtocolDef } from "../core/run/protocol.js";
import { redactQuery, scrubDeep, type Secrets } from "../core/transcript/redaction.js";
import { exitCodeFor, summarise, type CheckResult, type RunResult, type ViolationListener } from "../core/verdicts/result.js";
import { resolveProfile, UsageError } from "../core/run/runner.js";
import { registry } from "../core/schemas/schema-registry.js";
import { openTranscriptFile, type TranscriptFile } from "../core/transcript/transcript-file.js";
import { readTranscript, type TranscriptEvent } from "../core/transcript/transcript.js";
import { UNJUDGED, type ProxyAdapter } from "./adapter.js";
import { asProxied } from "./decidable.js";
import { RelayBus } from "./relay-bus.js";
import { recordStalls, type StallWatch } from "../core/run/stall-watch.js";
import { RUN_STOPPED_NOTE } from "../core/checks/run-stop.js";

/** The name relayed traffic is recorded under (the probe field of its events). */
export const PROXY_PROBE = "proxy";
const CLIENT_PROBE = "client";

/**
 * The cause the relay records on the client's close (`by: "kit"`, the kit's side of the target connection): the
 * client view gives that close back to the client; every other close of the kit's is the mock's in that view.
 */
export const CLIENT_CLOSED = "the client closed it";

/** The note that records a client name in the transcript, so a replay judges the client side as the proxy did. */
export const CLIENT_NAME_NOTE = "proxy:client-name";

/**
 * Client names of the relayed exchanges and connections (the mock's labels), by id. Each name given is also noted on
 * the bus (before the exchange's first event), so a saved transcript carries it; a replay fills the map from those
 * notes instead. A name is dropped after its exchange's last event, to keep memory flat.
 */
export class ClientNames extends Map<string, string> {
  constructor(private readonly bus?: RelayBus) {
    super();
  }

  override set(id: string, label: string): this {
    this.bus?.emit({ kind: "note", probe: PROXY_PROBE, name: CLIENT_NAME_NOTE, value: { id, label } });
    return super.set(id, label);
  }

  /** A name goes once the events queued before it were judged: they may be its exchange's last ones. */
  override delete(id: string): boolean {
    this.bus?.drain();
    return super.delete(id);
  }

  /** A name read back from a saved transcript's note. */
  restore(value: unknown): void {
    const v = value as { id?: unknown; label?: unknown } | null;
    if (v && typeof v.id === "string" && typeof v.label === "string") super.set(v.id, v.label);
  }
}

export interface JudgeOptions {
  profile?: string | undefined;
  strict?: boolean | undefined;
  only?: string[] | undefined;
  skip?: string[] | undefined;
  params?: Record<string, unknown> | undefined;
  saveTranscript?: string | undefined;
  onVerdict?: ((check: CheckResult, run: { protocol: string; side: Side }) => void) | undefined;
  /** Each violation the moment a check sees it on the relayed traffic. */
  onViolation?: ViolationListener | undefined;
}

/** The kinds a client check can read from relayed traffic (a mock records no body chunks or SSE). */
const CLIENT_KINDS = new Set<string>(["http-request", "http-response", "http-error", "body-end", "ws-open", "ws-reject", "ws-frame", "ws-close"]);

export class ProxyJudge {
  readonly bus = new RelayBus();
  readonly clientNames: ClientNames;
  private readonly sides: { side: Side; evaluation: Evaluation; probes: Map<string, string[]> }[] = [];
  private readonly clock = new CheckClock();
  private readonly file: TranscriptFile | undefined;
  private readonly startedAt = new Date();
  private readonly t0 = performance.now();
  private readonly profileName: string;
  /** Something answered (a head or an upgrade): without it, every verdict is "unreachable". */
  reached = false;
  lastError: string | undefined;
  private finished = false;
  /** The proxy's own hold-ups, recorded for the timing rules (none when a saved transcript is judged). */
  private readonly stalls: StallWatch | undefined;

  constructor(
    private readonly protocol: ProtocolDef,
    private readonly adapter: ProxyAdapter,
    private readonly target: string,
    private readonly secrets: Secrets,
    private readonly opts: JudgeOptions,
    /** Judging a saved transcript: names come from its notes, nothing is written. */
    replaying = false,
  ) {
    this.clientNames = replaying ? new ClientNames() : new ClientNames(this.bus);
    const profile = resolveProfile(protocol, opts.profile);
    this.profileName = profile.name;
    const params = { ...protocol.defaultParams, ...(profile.params ?? {}), ...(opts.params ?? {}) };
    const ctx: CheckContext = { protocol: protocol.id, profile: profile ?? DEFAULT_PROFILE, params, validate: (m, v) => registry.validate(protocol.id, m, v, profile.name) };
    for (const side of ["server", "client"] as const) {
      const selected = selectChecks(protocol.id, protocol.checks, { side, only: opts.only, skip: opts.skip });
      const listen = opts.onViolation;
      const evaluation = new Evaluation(
        selected.map((c) => asProxied(c, adapter)),
        ctx,
        opts.strict,
        listen && ((check, level, v) => listen(scrubDeep({ check: check.id, level, side, ...v }, secrets), { protocol: protocol.id, side })),
      );
      this.sides.push({ side, evaluation, probes: new Map(selected.map((c) => [c.id, c.probes])) });
    }
    if (this.sides.every((s) => s.probes.size === 0)) {
      throw new UsageError(`no check of ${protocol.id} matches --only ${JSON.stringify(opts.only ?? [])} / --skip ${JSON.stringify(opts.skip ?? [])}; see "agentwire list ${protocol.id}"`);
    }
    const [server, client] = this.sides as [(typeof this.sides)[0], (typeof this.sides)[0]];
    // Kit requests and requests outside the protocol's routes are recorded, not judged as the target's answers.
    if (replaying) this.bus.subscribe((ev) => void (ev.kind === "note" && ev.name === CLIENT_NAME_NOTE && this.clientNames.restore(ev.value)));
    this.bus.subscribe((ev) => {
      if ("label" in ev && ev.label !== undefined && UNJUDGED.has(ev.label)) return;
      if (ev.kind === "note" && ev.name === CLIENT_NAME_NOTE) return;
      server.evaluation.observe(ev);
    });
    this.bus.subscribe((ev) => {
      const seen = asClientEvent(ev, this.clientNames);
      if (seen) client.evaluation.observe(seen);
    });
    this.bus.subscribe(this.clock.observe);
    this.bus.subscribe((ev) => {
      if (ev.kind === "http-response" || ev.kind === "ws-open" || (ev.kind === "ws-reject" && ev.status !== undefined)) this.reached = true;
      else if (ev.kind === "http-error") this.lastError = ev.error;
      else if (ev.kind === "ws-reject") this.lastError = ev.error ?? ev.code ?? "WebSocket upgrade failed";
    });
    if (opts.saveTranscript) {
      const file = (this.file = openTranscriptFile(opts.saveTranscript, `${protocol.id}-proxy`, secrets));
      // A straggler (a socket's close after the run ended) must not write to the closed file.
      this.bus.subscribe((ev) => {
        if (!this.finished) file.observer(ev);
      });
      this.file.header({
        agentwire: "transcript",
        version: 1,
        protocol: protocol.id,
        side: "server",
        proxy: true,
        profile: profile.name,
        params,
        ...(opts.params && Object.keys(opts.params).length ? { callerParams: opts.params } : {}),
        url: redactQuery(target),
        target: `agentwire proxy → ${redactQuery(target)}`,
        startedAt: this.startedAt.toISOString(),
      });
    }
    if (!replaying)
      this.stalls = recordStalls(this.bus);
  }

  /** The proxy never started: the transcript file is closed and removed. */
  async abandon(): Promise<void> {
    this.stalls?.stop();
    this.bus.drain();
    this.finished = true;
    if (!this.file) return;
    await this.file.close();
    rmSync(this.file.path, { force: true });
  }

  /** Ends the run: both sides judged, one result per side (server first). */
  async finish(): Promise<RunResult[]> {
    this.stalls?.flush();
    this.stalls?.stop();
    this.bus.drain();
    this.finished = true;
    await this.file?.close();
    const unreachable = !this.reached && this.lastError !== undefined ? `target unreachable at ${redactQuery(this.target)}: ${this.lastError}` : undefined;
    // The events around failures come from the saved transcript (read once, when a failure needs it).
    let saved: readonly TranscriptEvent[] | undefined;
    const eventsFor = (checks: CheckResult[]): readonly TranscriptEvent[] =>
      this.file && checks.some(explained) ? (saved ??= readTranscript(readFileSync(this.file.path, "utf8")).events) : [];
    const results: RunResult[] = [];
    for (const { side, evaluation, probes } of this.sides) {
      if (probes.size === 0) continue;
      // Only the target's side is unreachable: what the client sent was still judged.
      const override = unreachable && side === "server" ? { verdict: "incomplete" as const, message: unreachable } : undefined;
      const judged = evaluation.finish(override).map((c) => ({ ...c, durationMs: this.clock.durationOf(probes.get(c.id) ?? []) }));
      const checks = scrubDeep(judged, this.secrets);
      for (const c of checks) this.opts.onVerdict?.(c, { protocol: this.protocol.id, side });
      const summary = summarise(checks);
      const exchanges = exchangeRecords(eventsFor(checks), checks);
      const target = side === "server" ? `${redactQuery(this.target)} (through agentwire proxy)` : `clients of agentwire proxy → ${redactQuery(this.target)}`;
      results.push(
        scrubDeep(
          {
            protocol: this.protocol.id,
            target,
            side,
            profile: this.profileName,
            strict: !!this.opts.strict,
            startedAt: this.startedAt.toISOString(),
            durationMs: Math.round(performance.now() - this.t0),
            summary,
            checks,
            exitCode: exitCodeFor(summary),
            proxied: redactQuery(this.target),
            ...(unreachable && side === "server" ? { error: unreachable } : {}),
            ...(this.file ? { transcript: this.file.path } : {}),
            ...(exchanges.length ? { exchanges } : {}),
          } satisfies RunResult,
          this.secrets,
        ),
      );
    }
    return results;
  }
}

/**
 * The event as the kit's mock would have recorded it for the client checks: probe "client", the
 * mock's label, WebSocket directions seen from the server's end. Body chunks and SSE events are
 * the target's, which no client rule reads.
 */
export function asClientEvent(ev: TranscriptEvent, names: ClientNames): TranscriptEvent | undefined {
  // The proxy's stop cuts the client off too: the client rules read it as a run the kit stopped.
  if (ev.kind === "note" && ev.name === RUN_STOPPED_NOTE) return ev;
  if (!CLIENT_KINDS.has(ev.kind)) return undefined;
  if (ev.kind === "ws-frame") return { ...ev, probe: CLIENT_PROBE, direction: ev.direction === "out" ? "in" : "out" };
  // The mock's view: the target's close is the kit's (the mock plays the server), the client's is the client's, and the
  // relay's own (a cut at its cap, its stop) stays the kit's.
  if (ev.kind === "ws-close") return { ...ev, probe: CLIENT_PROBE, ...(ev.by ? { by: ev.by === "kit" && ev.cause === CLIENT_CLOSED ? "client" : "kit" } : {}) };
  if ("exchange" in ev) {
    const label = names.get(ev.exchange);
    return label === undefined ? undefined : ({ ...ev, probe: CLIENT_PROBE, label } as TranscriptEvent);
  }
  if (ev.kind === "ws-open" || ev.kind === "ws-reject") {
    const label = names.get(ev.connection);
    return { ...ev, probe: CLIENT_PROBE, ...(label !== undefined ? { label } : {}) } as TranscriptEvent;
  }
  return { ...ev, probe: CLIENT_PROBE };
}
