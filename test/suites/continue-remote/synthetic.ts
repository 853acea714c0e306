/** Hand-built continue-remote transcripts: polls of /state and POSTs, judged by the server checks as the runner would. */
import { DEFAULT_PROFILE, type ProfileDef } from "../../../src/core/checks/check.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import type { CheckResult } from "../../../src/core/verdicts/result.js";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import type { TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { CONTINUE_REMOTE_SERVER_CHECKS } from "../../../src/suites/continue-remote/checks/index.js";
import { DEFAULT_PARAMS } from "../../../src/suites/continue-remote/params.js";
import { CN_SESSION } from "../../../src/suites/continue-remote/profiles.js";

type NewEvent = TranscriptEvent extends infer E ? (E extends TranscriptEvent ? Omit<E, "seq" | "t"> : never) : never;

export class CrScript {
  readonly events: TranscriptEvent[] = [];
  private seq = 0;
  private x = 0;
  /** The clock (ms since the run started); each exchange advances it by `step`. */
  t = 0;
  /** How long the next exchanges take from request to answer; default half a step. */
  answerMs: number | undefined;

  constructor(private readonly step = 10) {}

  private emit(e: NewEvent): void {
    this.events.push({ ...e, seq: ++this.seq, t: this.t } as TranscriptEvent);
  }

  exchange(label: string, method: string, path: string, status: number, answer?: unknown, requestBody?: string): this {
    const ref = { probe: "p", exchange: `x${++this.x}`, label };
    this.emit({
      kind: "http-request",
      ...ref,
      method,
      url: `http://127.0.0.1:8000${path}`,
      path,
      headers: {},
      ...(requestBody !== undefined ? { body: requestBody } : {}),
    });
    this.t += this.answerMs ?? this.step / 2;
    this.emit({ kind: "http-response", ...ref, status, headers: { "content-type": "application/json; charset=utf-8" } });
    const text = answer === undefined ? "" : JSON.stringify(answer);
    this.emit({ kind: "body-end", ...ref, reason: "eof", bytes: text.length, text });
    this.t += this.step / 2;
    return this;
  }

  poll(state: unknown, phase = "turn"): this {
    return this.exchange(`state:${phase}`, "GET", "/state", 200, state);
  }

  /** A valid message the probes send (`busy`: the last snapshot was busy). */
  post(name: string, message: string, answer: unknown = { queued: true, position: 1 }, busy = false): this {
    this.note("sending", { label: `message:${name}`, busy });
    return this.exchange(`message:${name}`, "POST", "/message", 200, answer, JSON.stringify({ message }));
  }

  note(name: string, value: unknown): this {
    this.emit({ kind: "note", probe: "p", name, value });
    return this;
  }
}

/** A seed snapshot. */
export const seed = (chatHistory: unknown[], isProcessing: boolean, extra: Record<string, unknown> = {}) => ({
  chatHistory,
  isProcessing,
  messageQueueLength: 0,
  pendingPermission: null,
  ...extra,
});

/** A cn-session snapshot. */
export const cn = (history: unknown[], isProcessing: boolean, extra: Record<string, unknown> = {}) => ({
  session: { sessionId: "s-1", title: "Untitled Session", workspaceDirectory: "/w", history },
  isProcessing,
  messageQueueLength: 0,
  pendingPermission: null,
  ...extra,
});

export const user = (content: string) => ({ role: "user", content });
export const says = (content: string, isStreaming = false) => ({ role: "assistant", content, isStreaming });
export const start = (arg = "README.md") => ({ role: "system", content: `○ Read(${arg})`, messageType: "tool-start", toolName: "read_file" });
export const result = (arg = "README.md") => ({
  role: "system",
  content: `● Read(${arg})`,
  messageType: "tool-result",
  toolName: "read_file",
  toolResult: "# My Project",
});

export const cnUser = (content: string) => ({ message: { role: "user", content }, contextItems: [], editorState: content });
export const cnCall = (id: string, status: string, content = "I'll read it.") => ({
  message: { role: "assistant", content, toolCalls: [{ id, type: "function", function: { name: "Read", arguments: '{"filepath":"README.md"}' } }] },
  contextItems: [],
  toolCallStates: [
    {
      toolCallId: id,
      toolCall: { id, type: "function", function: { name: "Read", arguments: '{"filepath":"README.md"}' } },
      status,
      parsedArgs: { filepath: "README.md" },
      ...(["done", "errored", "canceled"].includes(status) ? { output: [{ content: "x", name: "Tool Result", description: "Tool execution result" }] } : {}),
    },
  ],
});

/** Judges a script with the server checks under `profile` ("seed" or "cn-session"); results by id without the protocol prefix. */
export function judge(s: CrScript, profile: "seed" | "cn-session" = "seed"): Map<string, CheckResult> {
  const p: ProfileDef = profile === "cn-session" ? CN_SESSION : { ...DEFAULT_PROFILE, name: "seed" };
  const ev = new Evaluation(
    CONTINUE_REMOTE_SERVER_CHECKS,
    { protocol: "continue-remote", profile: p, params: { ...DEFAULT_PARAMS }, validate: (m, v) => registry.validate("continue-remote", m, v, p.name) },
    false,
  );
  for (const e of s.events) ev.observe(e);
  return new Map(ev.finish().map((c) => [c.id.replace(/^continue-remote\//, ""), c]));
}
