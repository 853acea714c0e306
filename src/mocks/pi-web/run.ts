/**
 * One agent run and its loop (§3 rules 7–12, 18): agent_start, turn_start, the user echo, then
 * turns of assistant message → tools → turn_end, with queued steers injected after the running
 * tool (skipping the rest) or after turn_end, and follow-ups only where the agent would stop. One
 * queued message per injection (both modes are `one-at-a-time`). Then agent_end.
 *
 * Events go through `emit`, which applies the run's event rewrites and hands them to the host for
 * fan-out. A run keeps going when sockets drop; a silenced run (session change under the fork
 * quirk, server shutdown) stops without another event.
 */
import { sleep } from "../../core/mock/timing.js";
import type { EventRewrite, PiWebHooks } from "./hooks.js";
import { assistantSkeleton, finalAssistant, userMessage } from "./messages.js";
import type { ResolvedPiWebOptions } from "./options.js";
import type { ReplyPlan, Trigger, Turn } from "./plan.js";
import type { Session, SessionStore } from "./sessions.js";
import { ABORT_MESSAGE, streamAssistant } from "./stream.js";
import { executeTools } from "./tools.js";
import type { AgentMessage, Json, UserInput } from "./types.js";

export interface MessageQueue {
  steering: UserInput[];
  followUp: UserInput[];
}

/** What a run needs from the engine. */
export interface RunHost {
  readonly opts: ResolvedPiWebOptions;
  readonly sessions: SessionStore;
  readonly queue: MessageQueue;
  /** Fans an event out (to the owner only under events-unicast). */
  broadcast(event: Json, owner: string | null, hooks: PiWebHooks): void;
  /** A scripted interruption mid-stream (switch-mid-run, server-shutdown). */
  interrupt(action: "switch" | "shutdown", run: Run): void;
  /** The run began (`agent_start`) or is over (`agent_end`, or ended without it), before any event says so. */
  runChanged?(running: boolean): void;
}

/** The model: the assistant message the scenario gives for a turn. */
export type ReplyFn = (turn: Turn) => ReplyPlan;

export interface RunSpec {
  /** Connection id of the socket that started the run (null: a run nobody here started). */
  owner: string | null;
  hooks: PiWebHooks;
  reply: ReplyFn;
  /** The prompt; null starts with no user echo. */
  input: UserInput | null;
  /** Text the model sees as the prompt (without the scenario prefix). */
  said: string;
  /** Extra rewrite of this run's events (scenario variants). */
  rewrite?: () => EventRewrite;
}

export class Run {
  private readonly controller = new AbortController();
  /** Set once: no further event, no further history. */
  silenced = false;
  /** True from agent_start to agent_end (or until the run is silenced). */
  private running = false;
  /** Messages of the current agent_start…agent_end, in message_end order. */
  private messages: AgentMessage[] = [];
  readonly session: Session;
  readonly hooks: PiWebHooks;
  readonly owner: string | null;
  private readonly rewrite: EventRewrite;
  /** Settles when the run is over (normally, aborted or silenced). */
  done: Promise<void> = Promise.resolve();

  constructor(
    readonly host: RunHost,
    private readonly spec: RunSpec,
  ) {
    this.session = host.sessions.active;
    this.hooks = spec.hooks;
    this.owner = spec.owner;
    const rewrites = [spec.hooks.events?.(), spec.rewrite?.()].filter((r): r is EventRewrite => r !== undefined);
    this.rewrite = (e) => rewrites.reduce<Json[]>((list, r) => list.flatMap(r), [e]);
  }

  /** True from agent_start to agent_end (or until the run is silenced). */
  get streaming(): boolean {
    return this.running;
  }

  private setStreaming(value: boolean): void {
    if (value === this.running) return;
    this.running = value;
    this.host.runChanged?.(value);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  abort(): void {
    this.controller.abort();
  }

  /** Ends the run without another event (and without touching history). */
  silence(): void {
    this.silenced = true;
    this.controller.abort();
    this.setStreaming(false);
  }

  emit(event: Json): void {
    if (this.silenced) return;
    for (const e of this.rewrite(event)) this.host.broadcast(e, this.owner, this.hooks);
  }

  /** A message reached message_end: into history and this agent run's list. */
  record(message: AgentMessage): void {
    if (this.silenced) return;
    this.host.sessions.append(this.session, message);
    this.messages.push(message);
  }

  steerPending(): boolean {
    return !this.hooks.queue?.steerNewRun && this.host.queue.steering.length > 0;
  }

  start(): Promise<void> {
    this.done = this.execute().catch((err: unknown) => {
      // A bug in a script must not take the server down; it ends the run quietly.
      console.error("pi-web mock: run failed", err);
    });
    return this.done;
  }

  private async execute(): Promise<void> {
    await sleep(this.host.opts.firstDelay, this.signal);
    if (this.silenced) return;
    this.session.lastRunStart = this.session.messages.length;
    const result = await this.loop(this.spec.input, "prompt", this.spec.said);
    if (result.retry && !this.aborted && !this.silenced) await this.retry(result.retry, result.error ?? "");
    // steer-new-run: steers wait for the end of the run, then each starts a run of its own.
    while (this.hooks.queue?.steerNewRun && !this.aborted && !this.silenced && this.host.queue.steering.length > 0) {
      const steer = this.host.queue.steering.shift() as UserInput;
      this.session.lastRunStart = this.session.messages.length;
      await this.loop(steer, "steer", steer.text);
    }
  }

  private async retry(retry: NonNullable<ReplyPlan["retry"]>, errorMessage: string): Promise<void> {
    this.emit({ type: "auto_retry_start", attempt: 1, maxAttempts: retry.maxAttempts, delayMs: retry.delayMs, errorMessage });
    // As pi does, the failed reply leaves the agent's state (what get_messages returns) before the retry.
    const last = this.session.messages.at(-1);
    if (last?.role === "assistant" && last.stopReason === "error") {
      this.session.messages.pop();
      this.session.entryIds.pop();
    }
    await sleep(retry.delayMs, this.signal);
    if (this.silenced) return;
    if (this.aborted) {
      this.emit({ type: "auto_retry_end", success: false, attempt: 1, finalError: ABORT_MESSAGE });
      return;
    }
    this.session.lastRunStart = this.session.messages.length;
    await this.loop(null, "retry", this.spec.said, () => this.emit({ type: "auto_retry_end", success: true, attempt: 1 }));
  }

  private echo(input: UserInput): void {
    const message = userMessage(this.hooks.prompt?.dropImages ? { text: input.text, images: [] } : input);
    this.emit({ type: "message_start", message });
    this.record(message);
    this.emit({ type: "message_end", message });
  }

  private takeFollowUp(): UserInput | undefined {
    return this.host.queue.followUp.shift();
  }

  /** One agent_start … agent_end. */
  private async loop(
    input: UserInput | null,
    trigger: Trigger,
    said: string,
    afterFirstMessage?: () => void,
  ): Promise<{ retry?: ReplyPlan["retry"]; error?: string }> {
    this.messages = [];
    this.setStreaming(true);
    this.emit({ type: "agent_start" });
    this.emit({ type: "turn_start" });
    if (input) this.echo(input);
    let turn: Turn = { trigger, text: said, index: 0 };
    let outcome: { retry?: ReplyPlan["retry"]; error?: string } = {};
    let aborted = false;
    for (;;) {
      const plan = this.spec.reply(turn);
      const message = await streamAssistant(this, plan);
      if (!message) return outcome;
      if (turn.index === 0) afterFirstMessage?.();
      if (message.stopReason === "error" || message.stopReason === "aborted") {
        this.emit({ type: "turn_end", message, toolResults: [] });
        aborted = message.stopReason === "aborted";
        if (message.stopReason === "error" && plan.retry) outcome = { retry: plan.retry, error: message.errorMessage ?? "" };
        break;
      }
      const hasCalls = message.content.some((c) => c.type === "toolCall");
      let toolResults: AgentMessage[] = [];
      if (hasCalls) {
        const tools = await executeTools(this, message, plan);
        if (this.silenced) return outcome;
        toolResults = tools.results;
        if (tools.aborted) {
          this.emit({ type: "turn_end", message, toolResults });
          this.emit({ type: "turn_start" });
          const skeleton = assistantSkeleton();
          const empty = finalAssistant(skeleton, [], "aborted", 0, ABORT_MESSAGE);
          this.emit({ type: "message_start", message: skeleton });
          this.emit({ type: "message_end", message: empty });
          this.record(empty);
          this.emit({ type: "turn_end", message: empty, toolResults: [] });
          aborted = true;
          break;
        }
      }
      this.emit({ type: "turn_end", message, toolResults });
      const next = this.nextInjection(hasCalls);
      if (next) {
        this.emit({ type: "turn_start" });
        this.echo(next.input);
        turn = { trigger: next.trigger, text: next.input.text, index: turn.index + 1 };
        continue;
      }
      if (hasCalls) {
        this.emit({ type: "turn_start" });
        turn = { trigger: "tools", text: said, index: turn.index + 1 };
        continue;
      }
      break;
    }
    if (this.silenced) return outcome;
    this.setStreaming(false);
    if (!(aborted && this.hooks.abort?.noAgentEnd)) {
      const messages = this.hooks.agentEndMessages ? this.hooks.agentEndMessages([...this.messages]) : this.messages;
      this.emit({ type: "agent_end", messages });
    }
    return outcome;
  }

  /** The queued message injected after turn_end, if any (steer first; follow-up only at a stop). */
  private nextInjection(hasCalls: boolean): { input: UserInput; trigger: Trigger } | undefined {
    if (this.steerPending()) return { input: this.host.queue.steering.shift() as UserInput, trigger: "steer" };
    if (hasCalls && !this.hooks.queue?.followUpAsSteer) return undefined;
    const follow = this.takeFollowUp();
    return follow ? { input: follow, trigger: "followUp" } : undefined;
  }
}
