/**
 * The proxy's bus: a relayed body chunk is recorded and judged after the relay's turn, not on it.
 * Node sends a response's writes when the turn that made them ends, so whatever the relay does
 * after `write` still delays the chunk; and on a busy machine a longer turn is likelier to be
 * preempted or to meet a collection. Chunks (and the requests and answer heads before them)
 * therefore wait in a queue, each with the time it arrived (a chunk's lines and events carry that
 * time, as the recording client stamps them), and are judged a little later in one batch. Every
 * other event waits behind them while the queue is not empty, so the transcript keeps the order
 * the traffic had.
 *
 * The batch runs some milliseconds after the first chunk queued, not on the next turn: a paced
 * stream (one event a millisecond) leaves the process asleep between events, other processes take
 * the core, and judging one event on a cold core (caches and branch history gone) cost several
 * times what it costs among others. Judged a dozen at a time, the first pays for the rest.
 */
import type { SseReader } from "../core/transport/sse-reader.js";
import { TranscriptBus, type NewEvent, type TranscriptEvent } from "../core/transcript/transcript.js";

/** Longest a batch runs before it lets the sockets have a turn (ms). */
const BATCH_MS = 2;
/**
 * How long the first chunk queued waits for others to be judged with it (ms). At one event a
 * millisecond, 2 ms batches judged an event in 12 µs of CPU, 20 ms ones in 6-10, 50 ms ones in 4
 * (1.6-2.5 µs back to back). Only verdicts and live violations wait: the bytes went on already.
 */
export const JUDGE_AFTER_MS = 50;
/** Queued this many, the batch runs on the next turn: a fast stream fills one without waiting. */
export const BATCH_AT = 64;
/** Bytes, or events, queued past which the queue is judged at once (a flood cannot grow it without bound). */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;
const MAX_QUEUED = 4096;

/** A body chunk; it may carry `seq` and `t` already (see TranscriptBus.emit). */
type Chunk = (NewEvent & { kind: "body-chunk" }) | (TranscriptEvent & { kind: "body-chunk" });
/** Decoded bytes of a coded stream, for its reader only (the transcript keeps the coded chunk). */
interface Feed {
  kind: "feed";
  bytes: Uint8Array;
  index: number;
}
type Entry = NewEvent | Feed;

export class RelayBus extends TranscriptBus {
  // Parallel arrays from `head` on: no object per queued chunk beyond its event.
  private readonly events: Entry[] = [];
  private readonly readers: (SseReader | undefined)[] = [];
  private readonly times: number[] = [];
  private head = 0;
  private queuedBytes = 0;
  private draining = false;
  /** A batch is due on the next turn. */
  private scheduled = false;
  /** The timer that runs the batch JUDGE_AFTER_MS after its first chunk (kept, re-armed: no timer made per batch). */
  private timer: NodeJS.Timeout | undefined;
  private timerArmed = false;

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

  /** Decoded bytes of a coded stream's chunk `index`, read by `reader` in turn with the events queued. */
  feed(reader: SseReader, bytes: Uint8Array, index: number): void {
    this.queuedBytes += bytes.byteLength;
    this.later({ kind: "feed", bytes, index }, reader);
  }

  /** An event to record after the relay's turn (a request or an answer's head, on the way through). */
  later(event: Entry, reader?: SseReader): void {
    this.enqueue(event, reader, performance.now());
    const queued = this.events.length - this.head;
    if (this.queuedBytes > MAX_QUEUED_BYTES || queued > MAX_QUEUED) this.drain();
    else if (queued >= BATCH_AT) this.soon();
    else if (!this.timerArmed && !this.scheduled) {
      this.timerArmed = true;
      if (this.timer) this.timer.refresh();
      else {
        this.timer = setTimeout(this.due, JUDGE_AFTER_MS);
        // Verdicts drain the queue; the wait never keeps a process alive.
        this.timer.unref();
      }
    }
  }

  /** Records and judges everything queued, now (before an exchange's end, and before verdicts). */
  drain(): void {
    this.run(Infinity);
  }

  private enqueue(event: Entry, reader: SseReader | undefined, at: number): void {
    this.events.push(event);
    this.readers.push(reader);
    this.times.push(at);
  }

  /** Runs the batch on the next turn. */
  private soon(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.batch);
  }

  private readonly due = (): void => {
    this.timerArmed = false;
    if (!this.scheduled) this.batch();
  };

  private readonly batch = (): void => {
    this.scheduled = false;
    this.run(performance.now() + BATCH_MS);
    // Cut short: the rest goes on after the sockets' turn.
    if (this.head < this.events.length) this.soon();
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
          if (event.kind === "feed") {
            this.queuedBytes -= event.bytes.byteLength;
            reader?.push(event.bytes, event.index);
          } else super.emit(event);
          if (event.kind === "body-chunk") {
            this.queuedBytes -= event.bytes.byteLength;
            reader?.push(event.bytes, event.index);
          }
        } finally {
          this.release();
        }
        // Released for the collector at once; the clock is read every few events only.
        events[i] = undefined as unknown as Entry;
        readers[i] = undefined;
        if ((i & 15) === 15 && performance.now() > until) break;
      }
    } finally {
      this.draining = false;
      // Emptied (kept allocation-free: this runs after every batch and drain), or cut short far in: the spent entries go.
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
