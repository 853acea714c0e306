/**
 * The proxy's bus: a relayed body chunk is recorded and judged after the relay's turn, not on it.
 * Node sends a response's writes when the turn that made them ends, so whatever the relay does
 * after `write` still delays the chunk; and on a busy machine a longer turn is likelier to be
 * preempted or to meet a collection. Chunks (and the requests and answer heads before them)
 * therefore wait in a queue, each with the time it arrived (a chunk's lines and events carry that
 * time, as the recording client stamps them), and are judged a little later in one batch. Every
 * other event waits behind them while the queue is not empty, so the transcript keeps the order
 * the traffic had.
 */
import type { SseReader } from "../core/transport/sse-reader.js";
import { TranscriptBus, type NewEvent, type TranscriptEvent } from "../core/transcript/transcript.js";

/** Longest a batch runs before it lets the sockets have a turn (ms). */
const BATCH_MS = 2;
/** Bytes, or events, queued past which the queue is judged at once (a flood cannot grow it without bound). */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;
const MAX_QUEUED = 4096;

/** A body chunk; it may carry `seq` and `t` already (see TranscriptBus.emit). */
type Chunk = (NewEvent & { kind: "body-chunk" }) | (TranscriptEvent & { kind: "body-chunk" });

export class RelayBus extends TranscriptBus {
  // Parallel arrays from `head` on: no object per queued chunk beyond its event.
  private readonly events: NewEvent[] = [];
  private readonly readers: (SseReader | undefined)[] = [];
  private readonly times: number[] = [];
  private head = 0;
  private queuedBytes = 0;
  private draining = false;
  private scheduled = false;

  /**
   * Emits now when nothing waits, else queues the event behind what does (stamped with the time
   * it was handed over). The event returned is stamped only once emitted.
   */
  override emit(event: NewEvent): TranscriptEvent {
    if (this.draining || this.head === this.events.length) return super.emit(event);
    this.enqueue(event, undefined, performance.now());
    if (this.events.length - this.head > MAX_QUEUED) this.drain();
    return event as TranscriptEvent;
  }

  /** A relayed body chunk, to be recorded and read as SSE (`reader`) after the relay's turn. */
  chunk(event: Chunk, reader: SseReader | undefined): void {
    this.queuedBytes += event.bytes.byteLength;
    this.later(event, reader);
  }

  /** An event to record after the relay's turn (a request or an answer's head, on the way through). */
  later(event: NewEvent, reader?: SseReader): void {
    this.enqueue(event, reader, performance.now());
    if (this.queuedBytes > MAX_QUEUED_BYTES || this.events.length - this.head > MAX_QUEUED) this.drain();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.batch);
    }
  }

  /** Records and judges everything queued, now (before an exchange's end, and before verdicts). */
  drain(): void {
    this.run(Infinity);
  }

  private enqueue(event: NewEvent, reader: SseReader | undefined, at: number): void {
    this.events.push(event);
    this.readers.push(reader);
    this.times.push(at);
  }

  private readonly batch = (): void => {
    this.scheduled = false;
    this.run(performance.now() + BATCH_MS);
    if (this.head < this.events.length && !this.scheduled) {
      this.scheduled = true;
      setImmediate(this.batch);
    }
  };

  /** Runs queued events in order until the queue is empty or `until` (a performance.now() time) has passed. */
  private run(until: number): void {
    if (this.draining) return;
    this.draining = true;
    const { events, readers, times } = this;
    try {
      while (this.head < events.length) {
        const i = this.head++;
        const event = events[i]!;
        const reader = readers[i];
        this.hold(times[i]);
        try {
          super.emit(event);
          if (event.kind === "body-chunk") {
            this.queuedBytes -= event.bytes.byteLength;
            reader?.push(event.bytes, event.index);
          }
        } finally {
          this.release();
        }
        // Released for the collector at once; the clock is read every few events only.
        events[i] = undefined as unknown as NewEvent;
        readers[i] = undefined;
        if ((i & 15) === 15 && performance.now() > until) break;
      }
    } finally {
      this.draining = false;
      // Emptied (kept allocation-free: this runs after every chunk), or cut short far in: the spent entries go.
      if (this.head === events.length) {
        events.length = readers.length = times.length = this.head = 0;
      } else if (this.head > MAX_QUEUED) {
        events.splice(0, this.head);
        readers.splice(0, this.head);
        times.splice(0, this.head);
        this.head = 0;
      }
    }
  }
}
