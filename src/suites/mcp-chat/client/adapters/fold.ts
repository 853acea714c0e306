/**
 * Folds SSE payloads (the `data` of each event) into an AdapterResult. Synchronous and
 * transport-free, so the same fold turns a scenario's canonical payloads into the expected result
 * and runs inside the adapters. Each knob is one place where known clients go wrong; the defaults
 * are the contract's reading.
 */
import { PayloadFold } from "../../../../core/client-cases/payload-fold.js";
import type { AdapterResult, AdapterTool } from "./types.js";

export interface FoldRules {
  /** How a `tool_end` finds its card: by `id` (the contract) or by the first card with its `name`. */
  matchEnd: "id" | "name";
  /** "finish": `[DONE]` ends the stream; "keep-reading": it is noted but later events still count. */
  onDone: "finish" | "keep-reading";
  /** "failure": `[ERROR] msg` ends the stream as an error; "text": it is shown as answer text. */
  onError: "failure" | "text";
  /** Whether the `[ERROR]` message is trimmed (the naive frontend keeps the leading space). */
  trimError: boolean;
  /** Payloads that are not JSON objects: ignored (the contract), or shown as text (the naive frontend). */
  nonJson: "ignore" | "text";
}

export const SPEC_RULES: FoldRules = {
  matchEnd: "id",
  onDone: "finish",
  onError: "failure",
  trimError: true,
  nonJson: "ignore",
};

const ERROR = "[ERROR]";

export class ResultFold extends PayloadFold<AdapterResult> {
  private text = "";
  private readonly tools: AdapterTool[] = [];

  constructor(private readonly rules: FoldRules = SPEC_RULES) {
    super(rules.onDone);
  }

  protected payload(data: string): void {
    if (data.startsWith(ERROR)) {
      const message = data.slice(ERROR.length);
      if (this.rules.onError === "text") {
        this.text += data;
        return;
      }
      this.error = this.rules.trimError ? message.trim() : message;
      this.finished = true;
      return;
    }
    const event = parseObject(data);
    if (!event) {
      if (this.rules.nonJson === "text") this.text += data;
      return;
    }
    this.apply(event);
  }

  private apply(event: Record<string, unknown>): void {
    switch (event.type) {
      case "tool_start":
        this.tools.push({ id: String(event.id), name: String(event.name), args: event.args, ended: false });
        return;
      case "tool_end": {
        const card =
          this.rules.matchEnd === "id"
            ? this.tools.find((t) => !t.ended && t.id === event.id)
            : this.tools.find((t) => t.name === event.name);
        if (card) card.ended = true;
        return;
      }
      case "text":
        if (typeof event.content === "string") this.text += event.content;
        return;
      default:
        // Unknown types (keep-alives, extensions) are not part of the answer.
        return;
    }
  }

  /** Ends the fold. `eof` without a sentinel counts as `truncated` unless `eofMeans` says otherwise. */
  result(eofMeans: AdapterResult["outcome"] = "truncated"): AdapterResult {
    const outcome = this.outcomeAt(eofMeans);
    return {
      text: this.text,
      tools: this.tools.map((t) => ({ ...t })),
      outcome,
      ...(outcome === "error" ? { error: this.error ?? "" } : {}),
    };
  }
}

function parseObject(data: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(data);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
