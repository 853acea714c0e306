/**
 * Extension UI requests (§3 rules 26–27). Dialogs (select, confirm, input, editor) wait for an
 * `extension_ui_response` with their id from any socket; the first reply wins, and a dialog with
 * a `timeout` gives up silently (the waiting side gets no answer). Fire-and-forget requests and
 * unknown ids are remembered only to tell a stray reply from a real one.
 */
import type { PiWebHooks } from "./hooks.js";
import type { IdSource } from "./ids.js";
import type { DialogAnswer } from "./validate.js";
import type { Json } from "./types.js";

export const DIALOG_METHODS = ["select", "confirm", "input", "editor"] as const;

interface Pending {
  method: string;
  resolve(answer: DialogAnswer | undefined): void;
  timer?: ReturnType<typeof setTimeout>;
  hooks: PiWebHooks;
  /** last-reply-wins: the answer that will win, and the timer that settles it. */
  last?: DialogAnswer;
  settle?: ReturnType<typeof setTimeout>;
}

export type ReplyOutcome = "answered" | "ignored" | "stray";

export class DialogBroker {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly ids: IdSource) {}

  /** Ids of the dialogs still waiting. */
  waiting(): string[] {
    return [...this.pending.keys()];
  }

  /**
   * Sends a dialog through `send` and waits for its answer (undefined: timed out). Fire-and-forget
   * methods resolve at once with undefined.
   */
  request(method: string, fields: Json, hooks: PiWebHooks, send: (event: Json) => void): Promise<DialogAnswer | undefined> {
    const id = this.ids.uuid();
    const event = { type: "extension_ui_request", id, method, ...fields };
    if (!(DIALOG_METHODS as readonly string[]).includes(method)) {
      send(event);
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) => {
      const p: Pending = {
        method,
        hooks,
        resolve: (answer) => {
          this.pending.delete(id);
          if (p.timer) clearTimeout(p.timer);
          if (p.settle) clearTimeout(p.settle);
          resolve(answer);
        },
      };
      const timeout = fields.timeout;
      if (typeof timeout === "number" && timeout > 0) p.timer = setTimeout(() => p.resolve(undefined), timeout);
      this.pending.set(id, p);
      send(event);
    });
  }

  /** Handles one reply: the first for a waiting dialog answers it; anything else is a stray. */
  reply(id: unknown, answer: DialogAnswer): ReplyOutcome {
    const p = typeof id === "string" ? this.pending.get(id) : undefined;
    if (!p) return "stray";
    if (p.hooks.dialogs?.ignoreReplies) return "ignored";
    const wait = p.hooks.dialogs?.lastReplyWinsMs;
    if (wait !== undefined) {
      p.last = answer;
      p.settle ??= setTimeout(() => p.resolve(p.last), wait);
      return "answered";
    }
    p.resolve(answer);
    return "answered";
  }

  /** Drops every waiting dialog without answering it (engine disposal). */
  dispose(): void {
    for (const p of this.pending.values()) {
      if (p.timer) clearTimeout(p.timer);
      if (p.settle) clearTimeout(p.settle);
    }
    this.pending.clear();
  }
}

/** What a dialog answer means per method (§3 rule 26): cancel = no value, confirm `false`. */
export function confirmed(answer: DialogAnswer | undefined): boolean {
  return answer?.confirmed === true;
}

export function valueOf(answer: DialogAnswer | undefined): string | undefined {
  return answer && typeof answer.value === "string" && !answer.cancelled ? answer.value : undefined;
}
