/**
 * The §3 state machine: history, the FIFO queue, `isProcessing`, the pending permission and the
 * running turn. Steps run when the clock says so (§6): timers (`time`), each busy GET /state
 * (`poll`) or POST /__agentwire/step (`manual`). Nothing here touches HTTP.
 */
import type {
  ChatHistoryItem,
  DisplayMessage,
  PendingPermission,
  SessionUsage,
} from "../../generated/continue-remote.js";
import type { MachineFaults } from "./hooks.js";
import { timerMs } from "../../core/mock/timing.js";
import type { ResolvedContinueRemoteOptions } from "./options.js";
import type { ContinueRemoteScenario } from "./scenarios.js";
import { cnTurn } from "./turn-cn.js";
import { seedTurn } from "./turn-seed.js";
import type { TurnSteps } from "./turn.js";

export const SESSION_ID = "00000000-0000-4000-8000-000000000001";

/** The session id after `restarts` resets: a restart is a new session (§8.10). */
export function sessionId(restarts: number): string {
  return `00000000-0000-4000-8000-${(restarts + 1).toString(16).padStart(12, "0")}`;
}

interface Queued {
  text: string;
  scenario: ContinueRemoteScenario;
}

export class ContinueRemoteMachine {
  history: (DisplayMessage | ChatHistoryItem)[] = [];
  queue: Queued[] = [];
  isProcessing = false;
  pending: PendingPermission | null = null;
  usage: SessionUsage = { totalCost: 0, promptTokens: 0, completionTokens: 0 };
  private restarts = 0;
  private permCount = 0;
  private callCount = 0;
  private turn: TurnSteps | null = null;
  /** The decision the blocked turn resumes with. */
  private decision: boolean | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private permissionTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the running turn was dequeued (`now()`). */
  turnStartedAt = 0;
  /**
   * Counts the changes to what GET /state shows, so its JSON text is written once per state
   * (`snapshotText`). Every method that changes the state bumps it; code outside that changes the
   * fields (a fault hook through its context) calls `touch()`.
   */
  private version = 0;
  private text: string | undefined;
  private textVersion = -1;

  constructor(
    private readonly opts: ResolvedContinueRemoteOptions,
    private readonly faults: MachineFaults = {},
  ) {}

  get cn(): boolean {
    return this.opts.profile === "cn-session";
  }

  /** Back to the start state (§3.1), as a restarted server: counters restart and the session is new. */
  reset(): void {
    this.touch();
    this.dispose();
    this.restarts++;
    this.history = [];
    this.queue = [];
    this.isProcessing = false;
    this.pending = null;
    this.usage = { totalCost: 0, promptTokens: 0, completionTokens: 0 };
    this.permCount = 0;
    this.callCount = 0;
    this.turn = null;
    this.decision = undefined;
  }

  /** Stops the timers, so a closed server leaves nothing scheduled. */
  dispose(): void {
    clearTimeout(this.timer);
    clearTimeout(this.permissionTimer);
    this.timer = undefined;
    this.permissionTimer = undefined;
  }

  /** §3.2: enqueue and, when idle, start at once. Returns the position (queue length after enqueueing). */
  accept(text: string, scenario: ContinueRemoteScenario): { position: number; willInterrupt?: boolean } {
    this.touch();
    this.queue.push({ text, scenario });
    const position = this.queue.length;
    if (!this.isProcessing) {
      this.startNext();
      return { position };
    }
    if (this.opts.interruptOnMessage && !this.cn) {
      // §3.9 (legacy): the running turn is dropped and the queue moves on.
      this.abortTurn();
      this.startNext();
      return { position, willInterrupt: true };
    }
    return { position };
  }

  /** Applies one step of the running turn; false when there is none to apply (idle, or waiting on a permission). */
  step(): boolean {
    if (!this.turn || this.pending) return false;
    // The turn's steps change the history (and usage) in place.
    this.touch();
    clearTimeout(this.timer);
    this.timer = undefined;
    const decision = this.decision;
    this.decision = undefined;
    const r = this.turn.next(decision);
    if (r.done) {
      this.turn = null;
      this.startNext();
      return true;
    }
    const y = r.value;
    if ("ask" in y) {
      this.pending = {
        requestId: `perm-${++this.permCount}`,
        toolName: y.ask.toolName,
        toolArgs: y.ask.toolArgs,
        timestamp: this.opts.now(),
        ...(y.ask.cn ? { toolCallPreview: [] } : {}),
      };
      const limit = this.opts.permissionTimeoutMs;
      if (limit > 0 && this.opts.clock === "time") {
        this.permissionTimer = setTimeout(() => {
          if (this.pending) this.answer(this.pending.requestId, false);
        }, timerMs(limit));
      }
      return true;
    }
    this.schedule(y.wait);
    return true;
  }

  /** §3.11: null when accepted, else the error to answer with 400 (and nothing changes). */
  answer(requestId: string, approved: boolean): string | null {
    const problem = this.answerProblem(requestId);
    if (problem || !this.pending) return problem;
    this.touch();
    clearTimeout(this.permissionTimer);
    this.pending = null;
    this.decision = approved;
    this.schedule(0);
    return null;
  }

  /** Why an answer for `requestId` would be refused (§3.11); null when it would be taken. */
  answerProblem(requestId: string): string | null {
    if (!this.pending) return "No pending permission request";
    if (requestId !== this.pending.requestId) return "Invalid request ID";
    return null;
  }

  /** §3.14 (cn): false when idle. Otherwise the turn stops, the user entry stays unanswered, queued messages start. */
  pause(): boolean {
    if (!this.isProcessing) return false;
    this.touch();
    this.abortTurn();
    this.isProcessing = false;
    this.startNext();
    return true;
  }

  /** §3.13: the turn is aborted and the queue cleared. */
  exit(): void {
    this.touch();
    this.abortTurn();
    this.queue = [];
    this.isProcessing = false;
  }

  /** Marks what GET /state shows as changed (for changes made to the fields from outside). */
  touch(): void {
    this.version++;
  }

  /** A deep copy of what GET /state answers. */
  snapshot(): Record<string, unknown> {
    return this.stateOf(copyJson);
  }

  /**
   * The JSON text of `snapshot()`, written once per state: polls of an unchanged state reuse it,
   * and none copies the history.
   */
  snapshotText(): string {
    if (this.textVersion !== this.version || this.text === undefined) {
      // The live objects, not a copy: serialised at once, they give the copy's text.
      this.text = JSON.stringify(this.stateOf(same));
      this.textVersion = this.version;
    }
    return this.text;
  }

  /** What GET /state answers, with the history and pending request passed through `copy`. */
  private stateOf(copy: <T>(value: T) => T): Record<string, unknown> {
    const pending = this.pending ? copy(this.pending) : null;
    if (this.cn) {
      return {
        session: {
          sessionId: sessionId(this.restarts),
          title: "Untitled Session",
          workspaceDirectory: "/workspace",
          history: copy(this.history),
          mode: "agent",
          chatModelTitle: "mock-model",
          usage: { ...this.usage },
        },
        isProcessing: this.isProcessing,
        messageQueueLength: this.queue.length,
        pendingPermission: pending,
      };
    }
    return {
      chatHistory: copy(this.history),
      isProcessing: this.isProcessing,
      ...(this.opts.reportQueue ? { messageQueueLength: this.queue.length } : {}),
      ...(this.opts.reportPending ? { pendingPermission: pending } : {}),
    };
  }

  /** §3.3: the next message (if any) becomes the running turn; `isProcessing` never drops between turns. */
  private startNext(): void {
    this.touch();
    const next = this.faults.lifo ? this.queue.pop() : this.queue.shift();
    if (!next) {
      this.isProcessing = false;
      return;
    }
    this.isProcessing = true;
    this.turnStartedAt = this.opts.now();
    const pacing = this.opts;
    if (this.cn) {
      const history = this.history as ChatHistoryItem[];
      history.push({ message: { role: "user", content: next.text }, contextItems: [], editorState: next.text });
      this.turn = cnTurn({
        scenario: next.scenario,
        pacing,
        history,
        usage: this.usage,
        nextCallId: () => `call_${++this.callCount}`,
      });
    } else {
      const history = this.history as DisplayMessage[];
      history.push({ role: "user", content: next.text });
      this.turn = seedTurn({
        scenario: next.scenario,
        pacing,
        history,
        resultMode: this.opts.resultMode,
        chatMessageType: this.opts.chatMessageType,
      });
    }
    // Runs the turn up to its first wait; the user entry is its only change.
    this.step();
  }

  private schedule(ms: number): void {
    if (this.opts.clock !== "time") return;
    const speed = this.opts.speed;
    // Speed 0 applies the turn at once, between two requests.
    if (speed === 0) {
      this.step();
      return;
    }
    // A knob times the speed may pass what a timer can wait.
    this.timer = setTimeout(() => this.step(), timerMs(ms * speed));
  }

  /** Stops the running turn and removes what only a running turn may show (§3.8, §3.17 exceptions). */
  private abortTurn(): void {
    this.touch();
    this.dispose();
    this.turn?.return(undefined);
    this.turn = null;
    this.pending = null;
    this.decision = undefined;
    if (this.cn) {
      const items = this.history as ChatHistoryItem[];
      const last = items.at(-1);
      if (last && last.message.role === "assistant" && last.message.content === "") items.pop();
      for (const item of items) {
        for (const s of item.toolCallStates ?? []) {
          if (s.status === "generating" || s.status === "generated" || s.status === "calling") s.status = "canceled";
        }
      }
      return;
    }
    const entries = this.history as DisplayMessage[];
    if (entries.at(-1)?.isStreaming) entries.pop();
    // A start left without its result would stay unresolved for good; an appended error resolves it (§3.5 b).
    const last = entries.at(-1);
    if (last?.messageType === "tool-start") {
      entries.push({ role: "system", content: "✗ Tool error: Interrupted", messageType: "tool-error", toolName: last.toolName });
    }
  }
}

function same<T>(value: T): T {
  return value;
}

/**
 * A deep copy of plain JSON data (the history and the pending request are what the mock serves as
 * JSON): what structuredClone gives them, several times faster, and a poll copies the whole history.
 */
function copyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyJson) as T;
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) out[k] = copyJson((value as Record<string, unknown>)[k]);
  return out as T;
}
