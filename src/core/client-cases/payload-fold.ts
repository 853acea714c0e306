/**
 * The part of a result fold every SSE protocol shares: the `[DONE]` sentinel (ends the reading,
 * or is only noted by a client that reads on to EOF), the point after which nothing counts, and a
 * body that broke before the client had finished. A protocol's fold says what each other payload
 * means and how its result reads.
 */
import type { StreamFold } from "./adapters.js";
import type { CaseOutcome } from "./compare.js";

export const DONE = "[DONE]";

export abstract class PayloadFold<R> implements StreamFold<R> {
  /** No further payload counts: the client has stopped reading. */
  finished = false;
  /** `[DONE]` was seen (a client that reads on still counts later payloads). */
  protected doneSeen = false;
  /** The error the client surfaces; set, the outcome is "error". */
  protected error: string | undefined;

  constructor(private readonly onDone: "finish" | "keep-reading") {}

  /** One SSE `data` payload. */
  push(data: string): void {
    if (this.finished) return;
    if (data === DONE) {
      this.doneSeen = true;
      if (this.onDone === "finish") this.finished = true;
      return;
    }
    this.payload(data);
  }

  /** A payload other than `[DONE]`, while the client still reads. */
  protected abstract payload(data: string): void;

  abstract result(eofMeans?: CaseOutcome): R;

  /**
   * The body broke (read error, abort) before the client had finished: an error that keeps what
   * was assembled so far. A `[DONE]` noted while still reading does not make it a success.
   */
  failed(message: string): R {
    if (!this.finished) {
      this.error = message;
      this.finished = true;
    }
    return this.result();
  }

  /** An error if one was surfaced, else "done" after `[DONE]`, else what EOF means to this client. */
  protected outcomeAt(eofMeans: CaseOutcome): CaseOutcome {
    return this.error !== undefined ? "error" : this.doneSeen ? "done" : eofMeans;
  }
}
