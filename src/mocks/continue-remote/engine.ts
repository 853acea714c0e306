/**
 * The continue-remote reference mock as a fetch-style handler, `(Request) => Promise<Response>`, run
 * by the node server (server.ts) and usable with msw. Browser-safe: no node imports here or below.
 * Every error is JSON `{error}` and leaves the state unchanged (§6 Bad input).
 */
import { MockOptionError } from "../../core/protocol.js";
import { sleep } from "../../core/timing.js";
import { ContinueRemoteMachine } from "./machine.js";
import {
  resolveContinueRemoteOptions,
  type ContinueRemoteMockOptions,
  type ResolvedContinueRemoteOptions,
} from "./options.js";
import { clientRecording, SHUT_DOWN } from "./recording.js";
import { matchRoute, type RouteName } from "./routes.js";
import { encodeAnswer } from "./variants.js";
import { findScenario, scenarioDirective, SCENARIOS, type ContinueRemoteScenario } from "./scenarios.js";

export interface TranscriptEntry {
  at: number;
  method: string;
  path: string;
  status: number;
  /** The request body as text, for POSTs. */
  body?: string;
}

export interface ContinueRemoteEngine {
  handle(request: Request): Promise<Response>;
  readonly machine: ContinueRemoteMachine;
  readonly options: ResolvedContinueRemoteOptions;
  readonly transcript: TranscriptEntry[];
  /** True once `/exit` has answered. */
  readonly exited: boolean;
  reset(): void;
  /** Stops the turn's timers (on close). */
  dispose(): void;
}

const MESSAGE_REQUIRED = "Message field is required";

class BadRequest extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function createContinueRemoteEngine(options: ContinueRemoteMockOptions = {}): ContinueRemoteEngine {
  const opts = resolveContinueRemoteOptions(options);
  for (const name of [...opts.scenarios, opts.defaultScenario]) {
    if (!findScenario(name)) throw new MockOptionError(`continue-remote mock: ${unknownScenario(name)}`);
  }
  const machine = new ContinueRemoteMachine(opts);
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
    }, delayMs);
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

  async function route(request: Request, name: RouteName, body: string): Promise<Answer> {
    switch (name) {
      case "state": {
        await sleep(opts.stateDelayMs, request.signal);
        // Under the poll clock the answer shows the state before this GET's step, so a poller sees
        // every state once, the freshly dequeued user entry included.
        const snapshot = machine.snapshot();
        if (opts.clock === "poll" && machine.isProcessing) machine.step();
        return json(200, snapshot);
      }
      case "message": {
        const parsed = jsonBody(request, body);
        const text = (parsed as { message?: unknown } | null)?.message;
        if (typeof text !== "string" || text === "") throw new BadRequest(400, MESSAGE_REQUIRED);
        const scenario = pickScenario(text);
        await sleep(opts.ackDelayMs, request.signal);
        return json(200, { queued: true, ...machine.accept(text, scenario) });
      }
      case "permission": {
        const parsed = jsonBody(request, body) as { requestId?: unknown; approved?: unknown } | null;
        if (!parsed || typeof parsed.requestId !== "string" || parsed.requestId === "") {
          throw new BadRequest(400, "requestId must be a non-empty string");
        }
        if (typeof parsed.approved !== "boolean") throw new BadRequest(400, "approved must be a boolean");
        const error = machine.answer(parsed.requestId, parsed.approved);
        if (error) throw new BadRequest(400, error);
        return json(200, { success: true, approved: parsed.approved });
      }
      case "diff":
        if (opts.diff === null) return json(404, { error: "Not a git repository or no main branch", diff: "" });
        return json(200, { diff: opts.diff });
      case "exit":
        shutDown(opts.exitDelayMs);
        return json(200, { message: "Server shutting down", success: true });
      case "pause":
        return machine.pause()
          ? json(200, { success: true, message: "Agent run paused" })
          : json(200, { success: false, message: "No active processing to pause" });
      case "reset":
        reset();
        return json(200, { reset: true });
      case "step":
        return json(200, { stepped: machine.step(), state: machine.snapshot() });
      case "transcript":
        return json(200, { requests: transcript });
    }
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    // Every request counts as activity, GET /state included.
    lastRequest = opts.now();
    // Not recording, no await: the answers keep their timing.
    const recorded = opts.bus ? await recording.request(request, url, exited) : null;
    if (recorded && gone) return recording.answered(recorded, encodeAnswer(503, SHUT_DOWN, request, opts.variant), { value: SHUT_DOWN });
    let answer: Answer;
    let body = "";
    const origin = request.headers.get("origin");
    const corsOrigin = origin !== null && opts.cors.includes(origin) ? origin : undefined;
    const control = url.pathname.toLowerCase().startsWith("/__agentwire/");
    try {
      const found = matchRoute(url.pathname, machine.cn);
      if (!found) throw new BadRequest(404, `Cannot ${request.method} ${url.pathname}`);
      if (request.method === "OPTIONS" && corsOrigin) {
        return new Response(null, {
          status: 204,
          headers: {
            "access-control-allow-origin": corsOrigin,
            "access-control-allow-methods": "GET, POST",
            "access-control-allow-headers": "content-type, authorization",
            vary: "Origin",
          },
        });
      }
      if (opts.token && !control && request.headers.get("authorization") !== `Bearer ${opts.token}`) {
        throw new BadRequest(401, "Missing or wrong bearer token");
      }
      if (request.method !== found.method) {
        throw new BadRequest(405, `${request.method} is not allowed on ${url.pathname}; use ${found.method}`);
      }
      if (found.method === "POST") {
        const bytes = new Uint8Array(await request.arrayBuffer());
        if (bytes.byteLength > opts.bodyLimit) throw new BadRequest(413, `request body larger than ${opts.bodyLimit} bytes`);
        body = new TextDecoder().decode(bytes);
      }
      answer = await route(request, found.name, body);
    } catch (e) {
      if (!(e instanceof BadRequest)) throw e;
      answer = json(e.status, { error: e.message });
    }
    const response = encodeAnswer(answer.status, answer.value, request, opts.variant);
    if (corsOrigin) {
      response.headers.set("access-control-allow-origin", corsOrigin);
      response.headers.set("vary", "Origin");
    }
    recording.answered(recorded, response, answer);
    if (!control) {
      transcript.push({
        at: opts.now(),
        method: request.method,
        path: url.pathname + url.search,
        status: response.status,
        ...(request.method === "POST" ? { body } : {}),
      });
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
    queueInitialPrompt();
  }

  return {
    handle,
    machine,
    options: opts,
    transcript,
    get exited() {
      return exited;
    },
    reset,
    dispose() {
      machine.dispose();
      clearTimeout(exitTimer);
      clearInterval(idleTimer);
    },
  };
}

/** The parsed JSON body of a POST that must send `application/json` (415 otherwise, 400 when malformed). */
function jsonBody(request: Request, body: string): unknown {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type !== "application/json") {
    throw new BadRequest(415, `Content-Type must be application/json (got ${type || "none"})`);
  }
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new BadRequest(400, "Malformed JSON body");
  }
}

interface Answer {
  status: number;
  value: unknown;
}

function json(status: number, value: unknown): Answer {
  return { status, value };
}

export function unknownScenario(name: string): string {
  return `unknown scenario "${name}" (known: ${SCENARIOS.map((s) => s.name).join(", ")})`;
}
