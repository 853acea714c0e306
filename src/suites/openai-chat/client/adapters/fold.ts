/**
 * Folds Chat Completions payloads into an {@link AdapterResult}: the `data:` payloads of a stream
 * one at a time, or a whole non-streamed `chat.completion`. Transport-free, so the same fold turns
 * a scenario's canonical bytes into the expected result and runs inside every adapter. Each knob
 * is one place where known clients go wrong; the defaults are the contract's reading (§3.5-§3.10).
 */
import { PayloadFold } from "../../../../core/client-cases/payload-fold.js";
import { emptyResult, type AdapterResult, type AdapterUsage, type AssembledCall } from "./types.js";

export interface FoldRules {
  /**
   * How tool-call deltas become calls. "index": by `index`, a new call when the index is new or
   * when a delta brings a name and a different id (contract §4); later deltas append arguments and
   * never repeat identity. "merge-all": every delta of a response goes into one call with `+=` on
   * id, name and arguments (hand-written accumulators).
   */
  toolJoin: "index" | "merge-all";
  /** "by-index": each choice by its `index` (absent = 0), choice 0 kept. "first": `chunk.choices[0].delta`, unguarded. */
  choices: "by-index" | "first";
  /** "finish": `[DONE]` ends the stream; "keep-reading": it is noted, later events still count, EOF ends. */
  onDone: "finish" | "keep-reading";
  /** "failure": an error payload (or HTTP error) ends as an error; "text": its message is shown as answer text. */
  onError: "failure" | "text";
}

export const SPEC_RULES: FoldRules = { toolJoin: "index", choices: "by-index", onDone: "finish", onError: "failure" };

interface OpenCall extends AssembledCall {
  index: number | undefined;
}

export class ChatFold extends PayloadFold<AdapterResult> {
  private text = "";
  private reasoning = "";
  private readonly calls: OpenCall[] = [];
  private finishReason: string | null = null;
  private usage: AdapterUsage | null = null;

  constructor(private readonly rules: FoldRules = SPEC_RULES) {
    super(rules.onDone);
  }

  /** One SSE `data` payload but `[DONE]`. Throws only where the rules say the client would (e.g. "first"). */
  protected payload(data: string): void {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      // Not JSON (a keep-alive sent as data): not part of the answer.
      return;
    }
    if (!isObject(value)) return;
    const error = errorMessage(value);
    if (error !== undefined) {
      this.fail(error);
      return;
    }
    this.chunk(value);
  }

  /** A whole non-streamed body (`chat.completion`). */
  completion(body: unknown): void {
    if (!isObject(body)) return;
    const error = errorMessage(body);
    if (error !== undefined) {
      this.fail(error);
      return;
    }
    const choice = this.choiceOf(body);
    if (choice) {
      const message = isObject(choice.message) ? choice.message : {};
      if (typeof message.content === "string") this.text += message.content;
      this.addReasoning(message);
      if (Array.isArray(message.tool_calls)) {
        for (const tc of message.tool_calls) {
          if (!isObject(tc)) continue;
          const fn = isObject(tc.function) ? tc.function : {};
          this.calls.push({
            index: undefined,
            id: typeof tc.id === "string" ? tc.id : "",
            name: typeof fn.name === "string" ? fn.name : "",
            arguments: argumentText(fn.arguments),
          });
        }
      }
      if (typeof choice.finish_reason === "string") this.finishReason = choice.finish_reason;
    }
    this.takeUsage(body);
    this.doneSeen = true;
    this.finished = true;
  }

  /** An error the client surfaces (in-stream error, HTTP error). */
  fail(message: string): void {
    if (this.rules.onError === "text") {
      this.text += message;
      return;
    }
    this.error = message;
    this.finished = true;
  }

  private chunk(chunk: Record<string, unknown>): void {
    const choice = this.choiceOf(chunk);
    if (choice) {
      const delta = isObject(choice.delta) ? choice.delta : {};
      if (typeof delta.content === "string") this.text += delta.content;
      this.addReasoning(delta);
      if (Array.isArray(delta.tool_calls)) for (const tc of delta.tool_calls) if (isObject(tc)) this.toolDelta(tc);
      if (typeof choice.finish_reason === "string" && this.finishReason === null) this.finishReason = choice.finish_reason;
    }
    this.takeUsage(chunk);
  }

  private choiceOf(payload: Record<string, unknown>): Record<string, unknown> | undefined {
    if (this.rules.choices === "first") {
      // What `chunk.choices[0].delta` does: a missing or empty `choices` throws a TypeError.
      const first = (payload.choices as Record<string, unknown>[])[0]!;
      void (first.delta ?? first.message);
      return first;
    }
    if (!Array.isArray(payload.choices)) return undefined;
    return payload.choices.find((c): c is Record<string, unknown> => isObject(c) && (c.index ?? 0) === 0);
  }

  private addReasoning(part: Record<string, unknown>): void {
    if (typeof part.reasoning_content === "string") this.reasoning += part.reasoning_content;
    else if (typeof part.reasoning === "string") this.reasoning += part.reasoning;
  }

  private takeUsage(payload: Record<string, unknown>): void {
    const u = payload.usage;
    if (isObject(u)) {
      this.usage = {
        prompt_tokens: Number(u.prompt_tokens),
        completion_tokens: Number(u.completion_tokens),
        total_tokens: Number(u.total_tokens),
      };
    }
  }

  private toolDelta(tc: Record<string, unknown>): void {
    const fn = isObject(tc.function) ? tc.function : {};
    const id = typeof tc.id === "string" ? tc.id : undefined;
    const name = typeof fn.name === "string" ? fn.name : undefined;
    const args = fn.arguments === undefined || fn.arguments === null ? "" : argumentText(fn.arguments);
    if (this.rules.toolJoin === "merge-all") {
      const call = this.calls[0] ?? this.open(undefined);
      call.id += id ?? "";
      call.name += name ?? "";
      call.arguments += args;
      return;
    }
    const index = typeof tc.index === "number" && Number.isInteger(tc.index) ? tc.index : undefined;
    let current: OpenCall | undefined;
    if (index === undefined) current = this.calls[this.calls.length - 1];
    else current = findLast(this.calls, (c) => c.index === index);
    const startsNew = !current || (name !== undefined && name !== "" && id !== undefined && id !== "" && id !== current.id);
    const call = startsNew ? this.open(index) : current!;
    if (id && !call.id) call.id = id;
    if (name && !call.name) call.name = name;
    call.arguments += args;
  }

  private open(index: number | undefined): OpenCall {
    const call: OpenCall = { index, id: "", name: "", arguments: "" };
    this.calls.push(call);
    return call;
  }

  /**
   * Ends the fold at the end of the body. Without `[DONE]`, EOF after a finish reason is "done"
   * and EOF before one "truncated", unless `eofMeans` says how this client reads EOF.
   */
  result(eofMeans?: AdapterResult["outcome"]): AdapterResult {
    const base = emptyResult();
    const outcome = this.outcomeAt(eofMeans ?? (this.finishReason !== null ? "done" : "truncated"));
    return {
      ...base,
      text: this.text,
      reasoning: this.reasoning,
      toolCalls: this.calls.map(({ id, name, arguments: a }) => ({ id, name, arguments: a })),
      finishReason: this.finishReason,
      usage: this.usage,
      outcome,
      ...(outcome === "error" ? { error: this.error ?? "" } : {}),
    };
  }
}

/**
 * The message of an error-like payload (contract §3.10): a top-level `error`, or
 * `object: "error"`, or a top-level `message` without `choices`. Undefined for anything else.
 */
export function errorMessage(payload: Record<string, unknown>): string | undefined {
  const e = payload.error;
  if (e !== undefined && e !== null) {
    if (typeof e === "string") return e;
    if (isObject(e) && typeof e.message === "string") return e.message;
    return JSON.stringify(e);
  }
  if (payload.object === "error" || (payload.message !== undefined && payload.choices === undefined)) {
    return typeof payload.message === "string" ? payload.message : JSON.stringify(payload);
  }
  return undefined;
}

function argumentText(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === undefined || v === null) return "";
  return JSON.stringify(v);
}

function findLast<T>(list: T[], pred: (t: T) => boolean): T | undefined {
  for (let i = list.length - 1; i >= 0; i--) if (pred(list[i]!)) return list[i];
  return undefined;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
