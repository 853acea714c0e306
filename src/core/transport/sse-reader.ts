/**
 * Turns raw body chunks into transcript events: `sse-line` (each line as sent, for framing lint)
 * and `sse-event` (what a browser's EventSource dispatches). Both come from one streaming UTF-8
 * decode and one tokenising pass: the decoder drops one leading BOM, as WHATWG parsing does, and
 * decodes a character split across chunks once, correctly; invalid bytes become U+FFFD (the utf8
 * checks judge the raw bytes). The framing rules read the raw lines and chunks; every other check
 * reads the events. State is bounded by `maxLine`, not by the stream.
 */
import { EventInterpreter } from "./sse-events.js";
import { DEFAULT_MAX_LINE, LineSplitter } from "./sse-lines.js";
import type { NewEvent, TranscriptEvent } from "../transcript/transcript.js";

export interface SseReaderOptions {
  /** Longest line, and longest event data, kept (characters). */
  maxLine?: number;
  /** Called once when a line or an event outgrew `maxLine`; the reader reports nothing more. */
  onLimit?: (message: string) => void;
}

/** One options object for every chunk's decode, not one per chunk. */
const STREAM = { stream: true } as const;
/** Whole-chunk decoders: the first chunk drops a leading BOM, later ones keep it as a character. */
const FIRST = new TextDecoder("utf-8");
const LATER = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * A body's streaming UTF-8 decode, chunk by chunk, giving what one streaming TextDecoder gives. A
 * chunk that starts and ends between characters (nothing carried over, its last byte ASCII: an SSE
 * event ends with a line break) is decoded whole, several times faster than the streaming decode; a
 * chunk that may end inside a character, and the next one, go through the streaming decoder, which
 * carries the partial character over. Invalid bytes become U+FFFD either way.
 */
class ChunkDecoder {
  private stream: TextDecoder | undefined;
  /** The streaming decoder may hold the start of a character. */
  private carry = false;
  /** Bytes were decoded: a BOM from now on is a character, not a mark to drop. */
  private started = false;

  decode(bytes: Uint8Array): string {
    const n = bytes.length;
    if (n === 0) return "";
    const last = bytes[n - 1]!;
    if (!this.carry && last < 0x80) {
      const text = (this.started ? LATER : FIRST).decode(bytes);
      this.started = true;
      return text;
    }
    this.stream ??= new TextDecoder("utf-8", { ignoreBOM: this.started });
    this.started = true;
    this.carry = last >= 0x80;
    return this.stream.decode(bytes, STREAM);
  }

  /** The end of the body: a partial character left is one U+FFFD. */
  end(): string {
    return this.stream && this.carry ? this.stream.decode() : "";
  }
}

export class SseReader {
  private readonly decoder = new ChunkDecoder();
  private readonly splitter: LineSplitter;
  private readonly interpreter: EventInterpreter;
  private lineNo = 0;
  private eventIndex = 0;
  private chunk = 0;
  private stopped = false;

  constructor(
    probe: string,
    exchange: string,
    label: string,
    sink: (event: NewEvent) => void,
    opts: SseReaderOptions = {},
  ) {
    const maxLine = opts.maxLine ?? DEFAULT_MAX_LINE;
    const limit = (message: string) => {
      if (this.stopped) return;
      this.stopped = true;
      this.splitter.stop();
      this.interpreter.discard();
      opts.onLimit?.(message);
    };
    this.interpreter = new EventInterpreter(
      (data, event, id) => {
        if (this.stopped) return;
        if (event === undefined && id === undefined) {
          // seq and t given up front, last as the bus would add them (see TranscriptBus.emit).
          const plain: TranscriptEvent = { kind: "sse-event", probe, exchange, label, index: this.eventIndex++, data, chunk: this.chunk, seq: 0, t: 0 };
          return sink(plain);
        }
        const ev: NewEvent & { kind: "sse-event" } = { kind: "sse-event", probe, exchange, label, index: this.eventIndex++, data, chunk: this.chunk };
        if (event !== undefined) ev.event = event;
        if (id !== undefined) ev.id = id;
        sink(ev);
      },
      maxLine,
      limit,
    );
    this.splitter = new LineSplitter(
      {
        raw: (line, eol, chunkStart, chunkEnd) => {
          const ev: TranscriptEvent = { kind: "sse-line", probe, exchange, label, lineNo: this.lineNo++, line, eol, chunkStart, chunkEnd, seq: 0, t: 0 };
          sink(ev);
        },
        line: (text) => this.interpreter.line(text),
        overflow: limit,
      },
      maxLine,
    );
  }

  /** Feeds one body chunk, with its index as recorded in the transcript. */
  push(bytes: Uint8Array, chunkIndex: number): void {
    if (this.stopped) return;
    this.chunk = chunkIndex;
    this.splitter.push(this.decoder.decode(bytes), chunkIndex);
  }

  /** The body ended. An event without its final blank line is discarded, as WHATWG says. */
  end(): void {
    if (this.stopped) return;
    this.splitter.push(this.decoder.end(), this.chunk);
    this.splitter.end();
    this.interpreter.discard();
    this.stopped = true;
  }

  get events(): number {
    return this.eventIndex;
  }
}
