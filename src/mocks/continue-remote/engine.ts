/**
 * The continue-remote reference mock: its answer to a request as a reply (core/mock/exchange.ts),
 * written by the node server (server.ts) and sent by msw as a Response. Browser-safe: no node imports here or below.
 * Every error is JSON `{error}` and leaves the state unchanged (§6 Bad input), unless a fault
 * (faults.ts) says otherwise: the faults given at start and those a request selects through the
 * `x-agentwire-fault` header or `?fault=` are folded into one hook record (hooks.ts).
 */
import { reply as replyOf, toResponse, type MockReply, type MockRequest } from "../../core/mock/exchange.js";
import { HEADER_FAULT, requestedName, Selection } from "../../core/mock/selection.js";
import { MockOptionError } from "../../core/run/protocol.js";
import { sleep, timerMs } from "../../core/mock/timing.js";
import { faultProfileProblem, findFault, unknownFault, type ContinueRemoteFault } from "./faults.js";
import { combineHooks, type Answer, type ContinueRemoteHooks, type FaultContext, type Json } from "./hooks.js";
import { ContinueRemoteMachine } from "./machine.js";
import {
  resolveContinueRemoteOptions,
  type ContinueRemoteMockOptions,
  type ResolvedContinueRemoteOptions,
} from "./options.js";
import { clientRecording, SHUT_DOWN } from "./recording.js";
import { matchRoute, type RouteName } from "./routes.js";
import { encodeAnswer, keepsText } from "./variants.js";
import { findScenario, scenarioDirective, SCENARIOS, type ContinueRemoteScenario } from "./scenarios.js";

export interface TranscriptEntry {
  at: number;
  method: string;
  path: string;
  status: number;
  /** The request body as text, for POSTs. */
  body?: string;
}

/** The control transcript keeps at least this many of the latest client requests (at most twice as many). */
export const TRANSCRIPT_KEPT = 1_000;

export interface ContinueRemoteEngine {
  handle(request: Request): Promise<Response>;
  /** The same answer, as the node server writes it. */
  reply(request: MockRequest): Promise<MockReply>;
  readonly machine: ContinueRemoteMachine;
  readonly options: ResolvedContinueRemoteOptions;
  readonly transcript: TranscriptEntry[];
  /** The hooks of the faults given at start. */
  readonly hooks: ContinueRemoteHooks;
  /** True once `/exit` has answered. */
  readonly exited: boolean;
  reset(): void;
  /** Stops the turn's timers (on close). */
  dispose(): void;
}

const MESSAGE_REQUIRED = "Message field is required";
/** The longest a `waitForIdle` answer waits: under the kit's 10 s request timeout. */
const WAIT_CAP_MS = 8000;

class BadRequest extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function createContinueRemoteEngine(options: ContinueRemoteMockOptions = {}): ContinueRemoteEngine {
  const resolved = resolveContinueRemoteOptions(options);
  for (const name of [...resolved.scenarios, resolved.defaultScenario]) {
    if (!findScenario(name)) throw new MockOptionError(`continue-remote mock: ${unknownScenario(name)}`);
  }
  const baseFaults = resolved.faults.map((n) => findFault(n) as ContinueRemoteFault);
  const baseHooks = combineHooks(baseFaults);
  const opts: ResolvedContinueRemoteOptions = { ...resolved, ...baseHooks.options };
  const machine = new ContinueRemoteMachine(opts, baseHooks.machine);
  const memo = new Map<string, unknown>();
  const faultContext: FaultContext = { machine, opts, memo };
  /** When the last 400 was answered (for `corruptAfterBadInputMs`). */
  let badInputAt = -Infinity;
  /** Permission answers that take effect later (`applyAfterMs`). */
  const later = new Set<ReturnType<typeof setTimeout>>();
  const transcript: TranscriptEntry[] = [];
  let listIndex = 0;
  let exited = false;
  /** Past the exit delay: a real server is gone. A recording mock stays up to see who still calls. */
  let gone = false;
  let exitTimer: ReturnType<typeof setTimeout> | undefined;
  let lastRequest = opts.now();
  let idleTimer: ReturnType<typeof setInterval> | undefined;
  const recording = clientRecording(opts.bus, machine);

  function shutDown(delayMs: number): void {
    if (exited) return;
    exited = true;
    clearInterval(idleTimer);
    machine.exit();
    exitTimer = setTimeout(() => {
      gone = true;
      // Judging clients, the mock outlives `/exit`: the checks must see requests a closed server would refuse.
      if (!opts.bus) opts.onExit?.();
    }, timerMs(delayMs));
  }

  if (opts.idleTimeoutS > 0) {
    const limitMs = opts.idleTimeoutS * 1000;
    // Checked every second as the real server does (more often for sub-second test timeouts); never while busy.
    idleTimer = setInterval(() => {
      if (!machine.isProcessing && opts.now() - lastRequest >= limitMs) shutDown(0);
    }, Math.min(1000, limitMs));
  }

  function pickScenario(text: string): ContinueRemoteScenario {
    const named = scenarioDirective(text);
    if (named !== undefined) {
      const found = findScenario(named);
      if (!found) throw new BadRequest(400, unknownScenario(named));
      return found;
    }
    const fromList = opts.scenarios[listIndex];
    if (fromList !== undefined) {
      listIndex++;
      return findScenario(fromList) as ContinueRemoteScenario;
    }
    return findScenario(opts.defaultScenario) as ContinueRemoteScenario;
  }

  /** §3.1: the initial prompt is queued as if POSTed, before any request (and again after a restart). */
  function queueInitialPrompt(): void {
    if (!opts.initialPrompt) return;
    const named = scenarioDirective(opts.initialPrompt);
    if (named !== undefined && !findScenario(named)) throw new MockOptionError(`continue-remote mock: ${unknownScenario(named)}`);
    machine.accept(opts.initialPrompt, pickScenario(opts.initialPrompt));
  }
  queueInitialPrompt();

  async function route(request: MockRequest, name: RouteName, body: string, hooks: ContinueRemoteHooks): Promise<Answer> {
    switch (name) {
      case "state": {
        const delay = hooks.options?.stateDelayMs ?? opts.stateDelayMs;
        if (delay > 0) await sleep(delay, request.signal);
        const corrupt = hooks.corruptAfterBadInputMs ?? 0;
        // What no hook rewrites is served as the machine's text of the state (written once per
        // state); a hook gets a fresh copy of its own.
        if (!hooks.transformState && !hooks.transformAnswer && corrupt === 0 && keepsText(opts.variant)) {
          const text = machine.snapshotText();
          if (opts.clock === "poll" && machine.isProcessing) machine.step();
          return new TextAnswer(200, text);
        }
        // Under the poll clock the answer shows the state before this GET's step, so a poller sees
        // every state once, the freshly dequeued user entry included.
        let snapshot: Json = machine.snapshot();
        if (opts.clock === "poll" && machine.isProcessing) machine.step();
        if (corrupt > 0 && opts.now() - badInputAt < corrupt) snapshot.isProcessing = true;
        if (hooks.transformState) {
          snapshot = hooks.transformState(snapshot, faultContext);
          // A hook may change the machine through its context (an id that rotates).
          machine.touch();
        }
        return json(200, snapshot);
      }
      case "message": {
        const parsed = jsonBody(request, body, hooks);
        const given = (parsed as { message?: unknown } | null)?.message;
        // A fault may queue what §3.2 refuses; a missing message is refused all the same.
        const queued = typeof given !== "string" && given !== undefined && hooks.message?.acceptNonString ? JSON.stringify(given) : given;
        if (typeof queued !== "string" || (queued === "" && !hooks.message?.acceptEmpty)) throw new BadRequest(400, MESSAGE_REQUIRED);
        let text: string = queued;
        const busy = machine.isProcessing;
        if (busy && hooks.message?.busyStatus) throw new BadRequest(hooks.message.busyStatus, "The agent is busy; try again later");
        if (hooks.transformText) text = hooks.transformText(text);
        let scenario = pickScenario(text);
        if (hooks.transformScenario) scenario = hooks.transformScenario(scenario);
        await sleep(opts.ackDelayMs, request.signal);
        const ack = busy && hooks.message?.dropWhileBusy ? { position: machine.queue.length + 1 } : machine.accept(text, scenario);
        if (hooks.message?.waitForIdle) await idle(request.signal);
        const answer: Json = { queued: true, ...ack };
        return json(200, hooks.transformAck ? hooks.transformAck(answer, busy) : answer);
      }
      case "permission": {
        const faults = hooks.permission ?? {};
        const parsed = jsonBody(request, body, hooks) as { requestId?: unknown; approved?: unknown } | null;
        if (!parsed || typeof parsed.requestId !== "string" || parsed.requestId === "") {
          throw new BadRequest(400, "requestId must be a non-empty string");
        }
        let approved = parsed.approved;
        if (typeof approved !== "boolean") {
          if (!faults.truthy) throw new BadRequest(400, "approved must be a boolean");
          approved = Boolean(approved);
        }
        if (!machine.pending && faults.nonePendingOk) return json(200, { success: true, approved });
        const id = faults.anyId && machine.pending ? machine.pending.requestId : parsed.requestId;
        const decision = faults.denyRuns ? true : (approved as boolean);
        const error = machine.answerProblem(id);
        if (error) throw new BadRequest(400, error);
        if (faults.applyAfterMs) {
          const t = setTimeout(() => {
            later.delete(t);
            machine.answer(id, decision);
          }, faults.applyAfterMs);
          later.add(t);
        } else machine.answer(id, decision);
        return json(200, { success: true, approved });
      }
      case "diff":
        if (opts.diff === null) return json(404, { error: "Not a git repository or no main branch", diff: "" });
        return json(200, { diff: opts.diff });
      case "exit":
        if (!hooks.exit?.ignore) shutDown(opts.exitDelayMs);
        if (hooks.exit?.emptyStatus) return { status: hooks.exit.emptyStatus, value: null, raw: { text: "", contentType: "" } };
        return json(200, { message: "Server shutting down", success: true });
      case "pause": {
        const busy = machine.isProcessing;
        const paused = busy ? hooks.pause?.ignore === true || machine.pause() : hooks.pause?.idleSuccess === true;
        return paused
          ? json(200, { success: true, message: "Agent run paused" })
          : json(200, { success: false, message: "No active processing to pause" });
      }
      case "reset":
        reset();
        return json(200, { reset: true });
      case "step":
        return json(200, { stepped: machine.step(), state: machine.snapshot() });
      case "transcript":
        return json(200, { requests: transcript });
    }
  }

  /** The start-time faults plus those the request selects; unknown or wrong-profile names are a 400. */
  function requestHooks(request: MockRequest, url: URL): ContinueRemoteHooks {
    const names = requestedName(request, url, HEADER_FAULT, "fault");
    if (names === null) return baseHooks;
    const sel = new Selection<"fault">((_kind, name) => unknownFault(name));
    const picked = sel.list("fault", baseFaults, names, findFault);
    const problem = sel.problems[0]?.message ?? picked.map((f) => faultProfileProblem(f, opts.profile)).find((p) => p !== null);
    if (problem) throw new BadRequest(400, problem);
    return combineHooks(picked);
  }

  /** Resolves once no turn runs (or the cap passes, or the request is aborted). */
  async function idle(signal: AbortSignal): Promise<void> {
    const until = Date.now() + WAIT_CAP_MS;
    while (machine.isProcessing && Date.now() < until && !signal.aborted) await sleep(20, signal).catch(() => undefined);
  }

  async function reply(request: MockRequest): Promise<MockReply> {
    const url = request.parsedUrl ?? new URL(request.url);
    // Every request counts as activity, GET /state included.
    lastRequest = opts.now();
    // Not recording, no await: the answers keep their timing.
    const recorded = opts.bus ? await recording.request(request, url, exited) : null;
    if (recorded && gone) return recording.answered(recorded, encodeAnswer(503, { value: SHUT_DOWN }, request, opts.variant), { value: SHUT_DOWN });
    let answer: Answer;
    let body = "";
    let hooks = baseHooks;
    let routeName: RouteName | undefined;
    const origin = request.headers.get("origin");
    const control = url.pathname.toLowerCase().startsWith("/__agentwire/");
    let corsOrigin = origin !== null && opts.cors.includes(origin) ? origin : undefined;
    try {
      // The control routes answer as they always do, whatever faults are active.
      hooks = control ? {} : requestHooks(request, url);
      if (hooks.cors?.wildcard) corsOrigin = "*";
      const found = matchRoute(url.pathname, machine.cn);
      routeName = found?.name;
      const allowed =
        found !== undefined && (request.method === found.method || (found.name === "exit" && request.method === "GET" && hooks.exit?.onGet === true));
      if (!allowed && hooks.routes?.unknownOk && request.method !== "OPTIONS") {
        answer = json(200, {});
      } else {
        if (!found) throw new BadRequest(404, `Cannot ${request.method} ${url.pathname}`);
        if (request.method === "OPTIONS" && corsOrigin) {
          return replyOf(204, {
            "access-control-allow-origin": corsOrigin,
            "access-control-allow-methods": "GET, POST",
            "access-control-allow-headers": "content-type, authorization",
            vary: "Origin",
          });
        }
        if (opts.token && !control && request.headers.get("authorization") !== `Bearer ${opts.token}`) {
          throw new BadRequest(401, "Missing or wrong bearer token");
        }
        if (!allowed) {
          throw new BadRequest(405, `${request.method} is not allowed on ${url.pathname}; use ${found.method}`);
        }
        if (found.method === "POST") {
          const bytes = new Uint8Array(await request.arrayBuffer());
          if (bytes.byteLength > opts.bodyLimit) throw new BadRequest(413, `request body larger than ${opts.bodyLimit} bytes`);
          body = new TextDecoder().decode(bytes);
        }
        answer = await route(request, found.name, body, hooks);
      }
    } catch (e) {
      if (!(e instanceof BadRequest)) throw e;
      answer = json(e.status, { error: e.message });
    }
    if (!control && answer.status === 400) badInputAt = opts.now();
    if (hooks.transformAnswer) answer = hooks.transformAnswer(answer, routeName);
    const response = answer.raw ? rawResponse(answer) : encodeAnswer(answer.status, answer, request, opts.variant);
    if (answer.headers) for (const [k, v] of Object.entries(answer.headers)) response.headers[k.toLowerCase()] = v;
    if (corsOrigin) {
      response.headers["access-control-allow-origin"] = corsOrigin;
      response.headers.vary = "Origin";
    }
    recording.answered(recorded, response, answer);
    if (!control) {
      const entry: TranscriptEntry = { at: opts.now(), method: request.method, path: url.pathname + url.search, status: response.status };
      if (request.method === "POST") entry.body = body;
      transcript.push(entry);
      // A client left polling for hours must not grow the mock: only the latest requests are kept.
      if (transcript.length > 2 * TRANSCRIPT_KEPT) transcript.splice(0, transcript.length - TRANSCRIPT_KEPT);
    }
    return response;
  }

  function reset(): void {
    // A restart: even a server told to exit is a fresh one afterwards.
    clearTimeout(exitTimer);
    exited = false;
    gone = false;
    machine.reset();
    transcript.length = 0;
    listIndex = 0;
    memo.clear();
    badInputAt = -Infinity;
    for (const t of later) clearTimeout(t);
    later.clear();
    queueInitialPrompt();
  }

  return {
    handle: async (request) => toResponse(await reply(request), request.signal),
    reply,
    machine,
    options: opts,
    transcript,
    hooks: baseHooks,
    get exited() {
      return exited;
    },
    reset,
    dispose() {
      machine.dispose();
      for (const t of later) clearTimeout(t);
      clearTimeout(exitTimer);
      clearInterval(idleTimer);
    },
  };
}

/** The parsed JSON body of a POST that must send `application/json` (415 otherwise, 400 when malformed). */
function jsonBody(request: MockRequest, body: string, hooks: ContinueRemoteHooks): unknown {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const faults = hooks.body ?? {};
  if (type !== "application/json") {
    const parsed = faults.anyContentType ? parseOrUndefined(body) : undefined;
    if (parsed !== undefined) return parsed;
    throw new BadRequest(faults.wrongTypeStatus ?? 415, `Content-Type must be application/json (got ${type || "none"})`);
  }
  const parsed = parseOrUndefined(body);
  if (parsed === undefined) throw new BadRequest(faults.malformedStatus ?? 400, "Malformed JSON body");
  return parsed;
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** An answer a fault wrote as text of its own type (no variant applies); 204 and 304 carry no body. */
function rawResponse(answer: Answer): MockReply {
  const raw = answer.raw as { text: string; contentType: string };
  const headers: Record<string, string> = { "x-powered-by": "Express" };
  if (raw.contentType) headers["content-type"] = raw.contentType;
  const empty = answer.status === 204 || answer.status === 304;
  return replyOf(answer.status, headers, empty ? null : raw.text);
}

function json(status: number, value: unknown): Answer {
  return { status, value };
}

/** A JSON answer given as its text; the value is parsed only if something reads it. */
class TextAnswer implements Answer {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {}

  get value(): unknown {
    return JSON.parse(this.text) as unknown;
  }
}

export function unknownScenario(name: string): string {
  return `unknown scenario "${name}" (known: ${SCENARIOS.map((s) => s.name).join(", ")})`;
}
