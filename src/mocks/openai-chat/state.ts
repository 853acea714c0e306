/**
 * The little the mock remembers (protocol doc §6 "State"): id counters, so completion and call ids
 * are deterministic and unique over the mock's lifetime, and the log of emitted calls that
 * `client/history-matches-sent` compares with what clients echo. No conversation state: every
 * answer is decided from its request.
 */

export interface EmittedCall {
  id: string;
  name: string;
  arguments: string;
  /** Number of the request whose response carried the call (1-based). */
  request: number;
}

/** Older entries are dropped past this many, so a long session costs constant memory. */
const LOG_LIMIT = 500;

const six = (n: number) => String(n % 1_000_000).padStart(6, "0");

export class MockState {
  private completions = 0;
  private calls = 0;
  requests = 0;
  private log: EmittedCall[] = [];

  nextCompletionId(): string {
    return `chatcmpl-aw${six(++this.completions)}`;
  }

  nextCallId(): string {
    return `call_aw${six(++this.calls)}`;
  }

  logCalls(calls: readonly { id: string; name: string; arguments: string }[], request: number): void {
    for (const c of calls) this.log.push({ id: c.id, name: c.name, arguments: c.arguments, request });
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }

  emittedCalls(): EmittedCall[] {
    return this.log.map((c) => ({ ...c }));
  }

  reset(): void {
    this.completions = 0;
    this.calls = 0;
    this.requests = 0;
    this.log = [];
  }
}
