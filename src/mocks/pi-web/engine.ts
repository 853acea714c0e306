/**
 * The pi-web reference mock as a transport-independent engine: the node server (`ws`) and the
 * msw handlers both drive it, so a frontend sees the same conversation either way. Browser-safe:
 * nothing here or below imports node modules.
 *
 * One agent session is shared by every socket (§3 rule 1): events fan out to all sockets in the
 * same order, a response goes to the socket that sent the command. Nothing is sent on connect and
 * nothing is replayed; a socket that drops mid-run just stops receiving, and a new one resyncs
 * with get_state, list_sessions and get_messages.
 */
import type { TranscriptBus } from "../../core/transcript/transcript.js";
import { Conn, type PiWebTransport } from "./connection.js";
import { DialogBroker } from "./dialogs.js";
import { findFault, type PiWebFault } from "./faults.js";
import { findFraming, formatOf, type Utf8Text } from "./framing.js";
import { combineHooks, type PiWebHooks } from "./hooks.js";
import { IdSource } from "./ids.js";
import { handleMessage, type CommandHost } from "./commands.js";
import { splitNames } from "../../core/mock/names.js";
import { Selection } from "../../core/mock/selection.js";
import {
  originAllowList,
  resolvePiWebOptions,
  unknownNameMessage,
  type NameKind,
  type PiWebMockOptions,
  type ResolvedPiWebOptions,
} from "./options.js";
import { httpRoute, judgeUpgrade, refusal, type PiWebHttpResponse, type UpgradeDecision } from "./gate.js";
import { findProfile } from "./profiles.js";
import { WsRecorder } from "./recorder.js";
import { Run, type MessageQueue, type RunHost, type RunSpec } from "./run.js";
import { findScenario, replyOf, type PiWebScenario } from "./scenarios.js";
import { SessionStore } from "./sessions.js";
import type { Json, UserInput } from "./types.js";

export type { PiWebTransport } from "./connection.js";
export type { PiWebHttpResponse, UpgradeDecision } from "./gate.js";

/** The upgrade request as the engine judges it. */
export interface PiWebConnectInfo {
  /** The upgrade URL: absolute, or path + query. */
  url: string;
  /** Request headers (any case); `origin` is read from them. */
  headers?: Record<string, string | undefined>;
}

/** What a transport feeds back into the engine for one accepted socket. */
export interface PiWebConnection {
  readonly id: string;
  /** One received message; `binary` for binary frames (parsed as UTF-8 all the same). */
  onMessage(data: string | Uint8Array, binary?: boolean): void;
  /**
   * The socket closed (either side). `cut`: the transport cut it at the mock's own cap (a message over its size cap,
   * say), with that cause: the close is then the kit's, not the client's.
   */
  onClose(code?: number, reason?: string, cut?: string): void;
}

/** A look at the engine's state, for tests and tools. */
export interface PiWebEngineState {
  clients: number;
  busy: boolean;
  isStreaming: boolean;
  sessionId: string;
  messageCount: number;
  steering: string[];
  followUp: string[];
  pendingDialogs: string[];
}

export interface PiWebEngine {
  readonly options: ResolvedPiWebOptions;
  /** Judges (and records) an upgrade request: §1 checks in order 404, 401, 403, then bad selections 400. */
  upgrade(info: PiWebConnectInfo): UpgradeDecision;
  /** Accepts a socket that passed `upgrade`. */
  connect(transport: PiWebTransport, info: PiWebConnectInfo): PiWebConnection;
  /** Plain HTTP: GET /health, GET / (a page naming the WebSocket URL), else 404. */
  http(method: string, url: string): PiWebHttpResponse;
  state(): PiWebEngineState;
  /** Ends the run in progress without another event and closes every socket (default 1001 "server shutting down"). */
  shutdown(code?: number, reason?: string): void;
  /** Stops the run, timers and dialogs, and closes every socket. */
  dispose(): void;
}

interface ConnSelection {
  hooks: PiWebHooks;
  scenario: string;
  framing: string[];
  errors: string[];
}

export function createPiWebEngine(options: PiWebMockOptions = {}): PiWebEngine {
  const opts = resolvePiWebOptions(options);
  const profileHooks = findProfile(opts.profile)?.hooks ?? [];
  const baseFaults = opts.faults.map((n) => findFault(n) as PiWebFault);
  const ids = new IdSource(opts.seed);
  const sessions = new SessionStore(ids, opts.seedSessions);
  const queue: MessageQueue = { steering: [], followUp: [] };
  const dialogs = new DialogBroker(ids);
  const recorder = new WsRecorder(opts.bus as TranscriptBus | undefined);
  const conns = new Map<string, Conn>();
  const allowed = originAllowList(opts);
  let connCount = 0;
  let activeRun: Run | null = null;
  /** server-shutdown: commands are left unanswered until the sockets close. */
  let holding = false;
  let disposed = false;
  const idleWaiters: (() => void)[] = [];

  function select(url: URL): ConnSelection {
    // A WebSocket upgrade carries no headers a browser lets a page set: the query selects.
    const sel = new Selection<NameKind>(unknownNameMessage);
    const faults = sel.list("fault", [], url.searchParams.get("fault"), findFault);
    const scenario = url.searchParams.get("scenario") ?? opts.scenario;
    const known = sel.pick("scenario", scenario, findScenario) !== undefined;
    const framing = splitNames(url.searchParams.get("framing")).filter((f) => sel.pick("framing", f, findFraming) !== undefined);
    return {
      hooks: combineHooks([...profileHooks, ...baseFaults, ...faults]),
      scenario: known ? scenario : opts.scenario,
      framing,
      errors: sel.problems.map((p) => p.message),
    };
  }

  function parseUrl(raw: string): URL {
    return new URL(raw, `ws://${opts.host}:${opts.port}`);
  }

  function headerOf(info: PiWebConnectInfo, name: string): string | undefined {
    for (const [k, v] of Object.entries(info.headers ?? {})) if (k.toLowerCase() === name) return v;
    return undefined;
  }

  function decide(info: PiWebConnectInfo): UpgradeDecision {
    const url = parseUrl(info.url);
    const sel = select(url);
    const failed = judgeUpgrade(url, headerOf(info, "origin"), sel.hooks, opts, allowed);
    if (failed) return failed;
    return sel.errors.length ? refusal(400, sel.errors[0] as string) : { ok: true, status: 101 };
  }

  function headersOf(info: PiWebConnectInfo): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(info.headers ?? {})) if (v !== undefined) out[k.toLowerCase()] = v;
    return out;
  }

  // --- fan-out ---

  function broadcast(event: Json, owner: string | null, hooks: PiWebHooks): void {
    const only = hooks.fanout?.unicast && owner !== null ? conns.get(owner) : undefined;
    const targets = only ? [only] : hooks.fanout?.unicast && owner !== null ? [] : [...conns.values()];
    const encoded = new Map<string, string | Utf8Text>();
    for (const c of targets) {
      if (!c.open) continue;
      let frame = encoded.get(c.encoding);
      if (frame === undefined) {
        frame = c.encodeEvent(event);
        encoded.set(c.encoding, frame);
      }
      c.event(frame);
    }
  }

  function sendRaw(data: string | Uint8Array): void {
    for (const c of conns.values()) c.raw(data);
  }

  // --- runs ---

  const runHost: RunHost = {
    opts,
    sessions,
    queue,
    broadcast,
    interrupt(action, run) {
      run.silence();
      if (activeRun === run) activeRun = null;
      if (action === "switch") {
        queue.steering = [];
        queue.followUp = [];
        const next = sessions.fresh();
        sessions.activate(next);
        const rewrite = run.hooks.events?.();
        const event = sessionChanged("new", run.hooks);
        for (const e of rewrite ? rewrite(event) : [event]) broadcast(e, run.owner, run.hooks);
      } else {
        shutdown(1001, "server shutting down");
      }
      notifyIdle();
    },
    runChanged(running) {
      recorder.run(running);
    },
  };

  function notifyIdle(): void {
    while (activeRun === null && idleWaiters.length) idleWaiters.shift()?.();
  }

  function whenIdle(): Promise<void> {
    return activeRun === null ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));
  }

  function startRun(spec: RunSpec): Run {
    const run = new Run(runHost, spec);
    activeRun = run;
    void run.start().then(() => {
      if (activeRun === run) activeRun = null;
      notifyIdle();
    });
    return run;
  }

  function sessionChanged(reason: string, hooks: PiWebHooks): Json {
    const s = sessions.active;
    return {
      type: "session_changed",
      reason,
      sessionId: s.id,
      messageCount: visibleHistory(hooks).length,
      leafId: s.entryIds.at(-1) ?? null,
      sessionFile: s.path,
      ...(s.name !== undefined ? { sessionName: s.name } : {}),
    };
  }

  const globalHooks = combineHooks([...profileHooks, ...baseFaults]);

  function visibleHistory(hooks: PiWebHooks) {
    const s = sessions.active;
    return hooks.transformHistory ? hooks.transformHistory([...s.messages], s) : s.messages;
  }

  function scenarioRun(scenario: PiWebScenario, owner: string | null, hooks: PiWebHooks, input: UserInput | null, said: string): RunSpec {
    return {
      owner,
      hooks,
      reply: replyOf(scenario),
      input,
      said,
      ...(scenario.events ? { rewrite: scenario.events } : {}),
    };
  }

  const commandHost: CommandHost = {
    opts,
    sessions,
    queue,
    dialogs,
    get activeRun() {
      return activeRun;
    },
    get holding() {
      return holding;
    },
    hold() {
      holding = true;
    },
    conns: () => [...conns.values()],
    broadcast,
    sendRaw,
    startRun,
    whenIdle,
    scenarioRun,
    sessionChanged,
    visibleHistory,
    async changeSession(target, hooks) {
      const run = activeRun;
      if (run) {
        if (hooks.sessions?.suppressRunOnChange) {
          run.silence();
          activeRun = null;
          notifyIdle();
        } else {
          run.abort();
          await run.done;
        }
      }
      queue.steering = [];
      queue.followUp = [];
      sessions.activate(target);
    },
  };

  // --- connections ---

  function connect(transport: PiWebTransport, info: PiWebConnectInfo): PiWebConnection {
    const url = parseUrl(info.url);
    const sel = select(url);
    const scenario = findScenario(sel.scenario) as PiWebScenario;
    const id = `c${++connCount}`;
    const conn = new Conn(
      id,
      transport,
      sel.hooks,
      sel.scenario,
      formatOf(opts.format, sel.framing),
      recorder,
      scenario.reorderResponses === true,
    );
    conns.set(id, conn);
    recorder.open(id, info.url, headersOf(info));
    if (scenario.onConnect) {
      const hooks = conn.hooks;
      setTimeout(() => {
        if (!conn.open || disposed) return;
        scenario.onConnect?.({
          ui: (method, fields) => void dialogs.request(method, fields, hooks, (e) => broadcast(e, id, hooks)),
          foreignRun: (input) => {
            if (activeRun) return;
            startRun(scenarioRun(findScenario("text") as PiWebScenario, null, globalHooks, input, input.text));
          },
        });
      }, 0);
    }
    let closed = false;
    return {
      id,
      onMessage(data) {
        if (closed || disposed) return;
        // Bytes are recorded as a binary frame and parsed as UTF-8 JSON all the same.
        recorder.frame(id, "in", data);
        handleMessage(commandHost, conn, typeof data === "string" ? data : new TextDecoder().decode(data));
      },
      onClose(code, reason, cut) {
        if (closed) return;
        closed = true;
        conn.stop();
        conns.delete(id);
        recorder.close(id, code, reason, conn.closedByMock, cut);
      },
    };
  }

  function shutdown(code = 1001, reason = "server shutting down"): void {
    // A server going away takes its run with it: no socket hears the rest, and the next one finds the agent idle.
    const run = activeRun;
    if (run) {
      run.silence();
      activeRun = null;
    }
    holding = false;
    for (const c of [...conns.values()]) c.close(code, reason);
    notifyIdle();
  }

  function http(method: string, rawUrl: string): PiWebHttpResponse {
    const url = parseUrl(rawUrl);
    return httpRoute(method, url, select(url).hooks, opts.wsPath, conns.size);
  }

  return {
    options: opts,
    upgrade(info) {
      const d = decide(info);
      recorder.upgrade({ url: info.url, headers: headersOf(info), status: d.status });
      return d;
    },
    connect,
    http,
    state() {
      return {
        clients: conns.size,
        busy: activeRun !== null,
        isStreaming: activeRun?.streaming ?? false,
        sessionId: sessions.active.id,
        messageCount: sessions.active.messages.length,
        steering: queue.steering.map((m) => m.text),
        followUp: queue.followUp.map((m) => m.text),
        pendingDialogs: dialogs.waiting(),
      };
    },
    shutdown,
    dispose() {
      disposed = true;
      activeRun?.silence();
      activeRun = null;
      dialogs.dispose();
      shutdown(1001, "server shutting down");
      for (const c of conns.values()) c.stop();
      conns.clear();
    },
  };
}
