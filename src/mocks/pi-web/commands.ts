/**
 * Client messages (§3 rules 3–11, 19–26): parsing, bad input, the nine commands and their
 * responses, and `extension_ui_response`. Commands run concurrently; each gets exactly one
 * response, sent only to the socket that sent it.
 */
import { sleep } from "../../core/mock/timing.js";
import type { Conn } from "./connection.js";
import type { DialogBroker } from "./dialogs.js";
import { confirmed } from "./dialogs.js";
import { QUERY_COMMANDS } from "./faults.js";
import type { PiWebHooks } from "./hooks.js";
import { CONTEXT_WINDOW, historyChars, MOCK_MODEL } from "./messages.js";
import { unknownNameMessage, type ResolvedPiWebOptions } from "./options.js";
import type { Run, MessageQueue, RunSpec } from "./run.js";
import { findScenario, scenarioPrefix, type PiWebScenario, type PromptContext } from "./scenarios.js";
import { summaryOf, type Session, type SessionStore } from "./sessions.js";
import type { AgentMessage, ImageContent, Json, UserInput } from "./types.js";
import { answerOf, commandProblem, isCommandType, UI_RESPONSE } from "./validate.js";

export const BUSY_ERROR =
  "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";
export const SESSION_NOT_FOUND = "Session file not found";

/** What command handling needs from the engine. */
export interface CommandHost {
  readonly opts: ResolvedPiWebOptions;
  readonly sessions: SessionStore;
  readonly queue: MessageQueue;
  readonly dialogs: DialogBroker;
  readonly activeRun: Run | null;
  readonly holding: boolean;
  hold(): void;
  conns(): Conn[];
  broadcast(event: Json, owner: string | null, hooks: PiWebHooks): void;
  sendRaw(data: string | Uint8Array): void;
  startRun(spec: RunSpec): Run;
  whenIdle(): Promise<void>;
  scenarioRun(scenario: PiWebScenario, owner: string | null, hooks: PiWebHooks, input: UserInput | null, said: string): RunSpec;
  sessionChanged(reason: string, hooks: PiWebHooks): Json;
  visibleHistory(hooks: PiWebHooks): AgentMessage[];
  /** Ends or drops the current run (per hooks), clears the queues, activates `target`. */
  changeSession(target: Session, hooks: PiWebHooks): Promise<void>;
}

type Result = { success: true; data?: Json } | { success: false; error: string };

const ok = (data?: Json): Result => (data === undefined ? { success: true } : { success: true, data });
const failure = (error: string): Result => ({ success: false, error });

/** One command in flight: its socket, message and response plumbing. */
class Exchange {
  constructor(
    readonly host: CommandHost,
    readonly conn: Conn,
    readonly message: Json,
  ) {}

  get hooks(): PiWebHooks {
    return this.conn.hooks;
  }

  get type(): unknown {
    return this.message.type;
  }

  /** The response object for a result (`id` iff the command had one; `command` iff type is a string). */
  build(result: Result): Json {
    const m = this.message;
    return {
      type: "response",
      ...(m.id !== undefined ? { id: m.id } : {}),
      ...(typeof m.type === "string" ? { command: m.type } : {}),
      ...result,
    };
  }

  send(response: Json, toAll = false): void {
    const rpc = this.hooks.rpc;
    const r = this.hooks.transformResponse ? this.hooks.transformResponse(response) : response;
    const targets = toAll || rpc?.responseBroadcast ? this.host.conns() : [this.conn];
    const times = typeof this.type === "string" && rpc?.duplicate?.includes(this.type) ? 2 : 1;
    for (let i = 0; i < times; i++) for (const c of targets) c.response(c.encode(r));
  }

  reply(result: Result, extra?: Json): void {
    if (typeof this.type === "string" && this.hooks.rpc?.drop?.includes(this.type)) return;
    this.send({ ...this.build(result), ...extra });
  }

  /** Broadcasts an event caused by this command (fan-out rules and the command's rewrites apply). */
  emit(event: Json): void {
    const rewrite = this.hooks.events?.();
    for (const e of rewrite ? rewrite(event) : [event]) this.host.broadcast(e, this.conn.id, this.hooks);
  }
}

/** Entry point for every received message (text, or binary decoded as UTF-8). */
export function handleMessage(host: CommandHost, conn: Conn, text: string): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (conn.hooks.rpc?.closeOnMalformed) conn.close(1007, "Invalid JSON");
    return; // Malformed JSON is dropped; the socket stays open.
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return;
  const message = value as Json;
  const x = new Exchange(host, conn, message);
  if (message.type === UI_RESPONSE) return uiResponse(x);
  if (typeof message.type !== "string") {
    if (conn.hooks.rpc?.missingTypeSilent) return;
    return x.reply(failure(`Unknown command: ${String(message.type)}`));
  }
  if (host.holding) return;
  void command(x).catch((err: unknown) => x.reply(failure(`mock error: ${(err as Error).message}`)));
}

function uiResponse(x: Exchange): void {
  const outcome = x.host.dialogs.reply(x.message.id, answerOf(x.message));
  // No reply ever gets a response (r26), unless a fault says otherwise.
  if (outcome === "stray" && x.hooks.rpc?.strayReplyError) {
    x.send(x.build(failure(`No pending extension UI request with id ${JSON.stringify(x.message.id)}`)));
  }
}

async function command(x: Exchange): Promise<void> {
  const type = x.type as string;
  const fork = x.hooks.rpc?.extraCommands === true;
  if (!isCommandType(type) && !(fork && (type === "steer" || type === "follow_up"))) {
    const response = x.build(failure(`Unknown command: ${type}`));
    if (x.hooks.rpc?.unknownCommandNoId) delete response.id;
    if (x.hooks.rpc?.drop?.includes(type)) return;
    return x.send(response);
  }
  if (type === "prompt") return prompt(x);
  const problem = commandProblem(type, x.message);
  if (problem) return x.reply(failure(`Invalid ${type} command: ${problem}`));
  if ((QUERY_COMMANDS as string[]).includes(type) && x.hooks.rpc?.slowQueries) await sleep(x.host.opts.slowQueryDelay);
  switch (type) {
    case "steer":
    case "follow_up":
      return queueCommand(x, type === "steer" ? "steer" : "followUp");
    case "abort":
      return abort(x);
    case "clear_queue":
      return clearQueue(x);
    case "get_state":
      return x.reply(ok(stateOf(x)));
    case "get_messages":
      return x.reply(ok({ messages: x.host.visibleHistory(x.hooks) }));
    case "list_sessions":
      return x.reply(ok(listSessions(x)));
    case "switch_session":
      return switchSession(x);
    case "new_session":
      return newSession(x);
    case "get_context_usage":
      return x.reply(ok(contextUsage(x.host.sessions.active.messages)));
  }
}

function inputOf(m: Json): UserInput {
  return { text: m.message as string, images: Array.isArray(m.images) ? (m.images as ImageContent[]).map((i) => ({ ...i })) : [] };
}

function enqueue(host: CommandHost, kind: "steer" | "followUp", input: UserInput): void {
  (kind === "steer" ? host.queue.steering : host.queue.followUp).push(input);
}

async function prompt(x: Exchange): Promise<void> {
  const { host, hooks, message } = x;
  const problem = commandProblem("prompt", message);
  if (problem) {
    if (hooks.prompt?.acceptInvalid) return x.reply(ok());
    const fail = failure(`Invalid prompt command: ${problem}`);
    if (hooks.prompt?.invalidLateFailure) {
      // Fork: success at once, then the rejection broadcast under the same id.
      x.reply(ok());
      return x.send(x.build(fail), true);
    }
    return x.reply(fail);
  }
  const input = inputOf(message);
  const prefix = scenarioPrefix(input.text);
  const scenarioName = prefix?.name ?? x.conn.scenario;
  const scenario = findScenario(scenarioName);
  if (!scenario) return x.reply(failure(unknownNameMessage("scenario", scenarioName) as string));
  const said = prefix ? prefix.rest : input.text;

  if (host.activeRun) {
    const behaviour = message.streamingBehavior;
    if (behaviour === "steer" || behaviour === "followUp") {
      enqueue(host, behaviour, input);
      return x.reply(ok());
    }
    if (hooks.prompt?.busyQueued) {
      enqueue(host, "followUp", input);
      return x.reply(ok());
    }
    if (hooks.prompt?.busyDoubleResponse) {
      // Fork: the rejection is broadcast (usually first), and the requester also gets a success.
      x.send(x.build(failure(BUSY_ERROR)), true);
      return x.reply(ok());
    }
    return x.reply(failure(BUSY_ERROR));
  }

  const spec = () => host.scenarioRun(scenario, x.conn.id, hooks, input, said);
  if (scenario.prompt) return scenario.prompt(promptContext(x, scenario, input, said));
  if (hooks.prompt?.noRun) return x.reply(ok());
  if (hooks.prompt?.errorAsResponse) {
    const first = spec().reply({ trigger: "prompt", text: said, index: 0 });
    if (first.error !== undefined) return x.reply(failure(first.error));
  }
  x.reply(ok());
  host.startRun(spec());
}

function promptContext(x: Exchange, scenario: PiWebScenario, input: UserInput, said: string): PromptContext {
  const { host, hooks, conn } = x;
  return {
    input,
    said,
    chunkDelay: host.opts.chunkDelay,
    respond: (extra) => x.reply(ok(), extra),
    respondRaw(response, withId = true) {
      const r = { ...response };
      if (withId && x.message.id !== undefined) r.id = x.message.id;
      conn.response(conn.encode(r));
    },
    sendRaw: (data) => host.sendRaw(data),
    emit: (event) => x.emit(event),
    ui: (method, fields) => host.dialogs.request(method, fields, hooks, (e) => x.emit(e)),
    async run(options = {}) {
      await host.whenIdle();
      const spec = host.scenarioRun(scenario, conn.id, hooks, input, said);
      if (options.first) {
        const first = options.first;
        const reply = spec.reply;
        let used = false;
        spec.reply = (turn) => {
          if (!used && turn.index === 0) {
            used = true;
            return first;
          }
          return reply(turn);
        };
      }
      await host.startRun(spec).done;
    },
    holdCommands: () => host.hold(),
  };
}

async function queueCommand(x: Exchange, kind: "steer" | "followUp"): Promise<void> {
  const input = inputOf(x.message);
  if (x.host.activeRun) {
    enqueue(x.host, kind, input);
    return x.reply(ok());
  }
  x.reply(ok());
  x.host.startRun(x.host.scenarioRun(findScenario(x.conn.scenario) as PiWebScenario, x.conn.id, x.hooks, input, input.text));
}

async function abort(x: Exchange): Promise<void> {
  const { host, hooks } = x;
  const run = host.activeRun;
  if (!run) return x.reply(hooks.abort?.idleError ? failure("Agent is not running") : ok());
  if (hooks.abort?.ignored) return x.reply(ok());
  if (hooks.queue?.abortClears) {
    host.queue.steering = [];
    host.queue.followUp = [];
  }
  if (hooks.abort?.earlyResponse) x.reply(ok());
  run.abort();
  await run.done;
  if (!hooks.abort?.earlyResponse) x.reply(ok());
}

function clearQueue(x: Exchange): void {
  const q = x.host.queue;
  const data = { steering: q.steering.map((m) => m.text), followUp: q.followUp.map((m) => m.text) };
  if (!x.hooks.queue?.clearStillInjects) {
    q.steering = [];
    q.followUp = [];
  }
  x.reply(ok(data));
}

function stateOf(x: Exchange): Json {
  const { host } = x;
  const s = host.sessions.active;
  const data: Json = {
    sessionId: s.id,
    thinkingLevel: "medium",
    isStreaming: host.activeRun?.streaming ?? false,
    isCompacting: false,
    autoCompactionEnabled: true,
    steeringMode: "one-at-a-time",
    followUpMode: "one-at-a-time",
    messageCount: host.visibleHistory(x.hooks).length,
    pendingMessageCount: host.queue.steering.length + host.queue.followUp.length,
    model: MOCK_MODEL,
    sessionFile: s.path,
    ...(s.name !== undefined ? { sessionName: s.name } : {}),
  };
  return x.hooks.transformState ? x.hooks.transformState(data) : data;
}

function listSessions(x: Exchange): Json {
  const { host, hooks, message } = x;
  const scope = message.scope ?? (hooks.sessions?.defaultScopeCwd ? "cwd" : "all");
  const cwd = host.sessions.active.cwd;
  const list = host.sessions.all().filter((s) => scope === "all" || s.cwd === cwd);
  const dir = hooks.sessions?.unsorted ? 1 : -1;
  list.sort((a, b) => (a.modified < b.modified ? -dir : a.modified > b.modified ? dir : 0));
  return { sessions: list.map(summaryOf) };
}

/** Usage per §3 rule 25 and §6: zeros before the first reply, then ceil(history chars / 4). */
export function contextUsage(messages: readonly AgentMessage[]): Json {
  const replied = messages.some((m) => m.role === "assistant");
  const tokens = replied ? Math.ceil(historyChars(messages) / 4) : 0;
  return { usage: { tokens, contextWindow: CONTEXT_WINDOW, percent: (tokens / CONTEXT_WINDOW) * 100 } };
}

/** session_changed before the response (or after it, under session-changed-late). */
function announce(x: Exchange, reason: string): void {
  const event = x.host.sessionChanged(reason, x.hooks);
  if (x.hooks.sessions?.changedLate) {
    x.reply(ok({ cancelled: false }));
    x.emit(event);
  } else {
    x.emit(event);
    x.reply(ok({ cancelled: false }));
  }
}

async function switchSession(x: Exchange): Promise<void> {
  const { host, hooks } = x;
  const path = x.message.sessionPath as string;
  let target = host.sessions.find(path);
  if (!target) {
    if (!hooks.sessions?.switchMissingCreates) return x.reply(failure(SESSION_NOT_FOUND));
    target = host.sessions.fresh(undefined, path);
  }
  if (hooks.sessions?.switchIgnored) target = host.sessions.active;
  await host.changeSession(target, hooks);
  announce(x, "switch");
}

async function newSession(x: Exchange): Promise<void> {
  const { host, hooks } = x;
  if (host.opts.confirmNewSession) {
    const answer = await host.dialogs.request("confirm", { title: "New session", message: "Start a new session?" }, hooks, (e) =>
      x.emit(e),
    );
    if (!confirmed(answer)) return x.reply(ok({ cancelled: true }));
  }
  const old = host.sessions.active;
  const parent = typeof x.message.parentSession === "string" ? x.message.parentSession : undefined;
  const next = host.sessions.fresh(parent);
  if (hooks.sessions?.newKeepsHistory) {
    next.messages = [...old.messages];
    next.entryIds = [...old.entryIds];
  }
  await host.changeSession(next, hooks);
  announce(x, "new");
}
