/**
 * SSE line tokeniser: the one pass over a stream's decoded text. Every line is reported twice from
 * that pass: raw, exactly as sent, with its terminator ("\n", "\r\n", "\r", or "" when the body
 * ended inside the line) and the chunk indexes where it began and ended, for framing lint; and as
 * plain text for the event-stream interpreter, as soon as its end is known.
 *
 * CR, LF and CRLF all end a line. A CR that ends a chunk ends its line at once (a browser
 * dispatches there), but the raw report waits for the next character: an LF there makes the pair
 * one CRLF terminator, not a second, empty line.
 *
 * Linear: each search for CR or LF resumes where the last one stopped. Bounded: a line longer
 * than `maxLine` characters is not buffered; the tokeniser reports it once and stops.
 */
import { TextBuilder } from "./text-builder.js";

export type Eol = "\n" | "\r\n" | "\r" | "";

export interface LineSink {
  /** A line as sent, once its terminator is known (positional: this runs for every line). */
  raw(line: string, eol: Eol, chunkStart: number, chunkEnd: number): void;
  /** A terminated line's text, for the interpreter. An unterminated last line never comes here. */
  line(text: string): void;
  /** A line outgrew the cap; nothing more is reported. */
  overflow(message: string): void;
}

/** Longest line buffered by default (characters): far above any chat event, far below the heap. */
export const DEFAULT_MAX_LINE = 16 * 1024 * 1024;

export class LineSplitter {
  /** The line in progress, read over several chunks (a TextBuilder: a line sent a byte per read stays about its own size). */
  private readonly pending = new TextBuilder();
  private pendingStart = -1;
  /** A line ended by a CR at the end of a chunk: its terminator is "\r" or "\r\n". */
  private held: { line: string; start: number; crChunk: number } | null = null;
  private chunk = 0;
  private stopped = false;

  constructor(
    private readonly sink: LineSink,
    private readonly maxLine = DEFAULT_MAX_LINE,
  ) {}

  push(text: string, chunkIndex: number): void {
    if (this.stopped || text.length === 0) return;
    this.chunk = chunkIndex;
    const n = text.length;
    let i = 0;
    if (this.held) {
      const h = this.held;
      this.held = null;
      const crlf = text.charCodeAt(0) === LF;
      this.sink.raw(h.line, crlf ? "\r\n" : "\r", h.start, crlf ? chunkIndex : h.crChunk);
      if (crlf) i = 1;
    }
    // Next LF / CR at or after i; -1 once none is left in this text.
    let lf = text.indexOf("\n", i);
    let cr = text.indexOf("\r", i);
    while (i < n && !this.stopped) {
      if (lf !== -1 && lf < i) lf = text.indexOf("\n", i);
      if (cr !== -1 && cr < i) cr = text.indexOf("\r", i);
      const end = lf === -1 ? cr : cr === -1 || lf < cr ? lf : cr;
      if (end === -1) {
        this.append(text, i, n);
        return;
      }
      let line: string;
      let start: number;
      if (this.pendingStart === -1) {
        if (end - i > this.maxLine) return this.overflow();
        line = text.slice(i, end);
        start = chunkIndex;
      } else {
        this.append(text, i, end);
        if (this.stopped) return;
        line = this.pending.take();
        start = this.pendingStart;
        this.pendingStart = -1;
      }
      if (lf === end) {
        this.sink.raw(line, "\n", start, chunkIndex);
        i = end + 1;
      } else if (end + 1 < n) {
        const crlf = text.charCodeAt(end + 1) === LF;
        this.sink.raw(line, crlf ? "\r\n" : "\r", start, chunkIndex);
        i = end + (crlf ? 2 : 1);
      } else {
        this.held = { line, start, crChunk: chunkIndex };
        i = n;
      }
      this.sink.line(line);
    }
  }

  /** The body ended: a held CR line gets its terminator, an unterminated line is reported raw. */
  end(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.held) {
      const h = this.held;
      this.held = null;
      this.sink.raw(h.line, "\r", h.start, h.crChunk);
    }
    if (this.pendingStart !== -1) {
      this.sink.raw(this.pending.take(), "", this.pendingStart, this.chunk);
      this.pendingStart = -1;
    }
  }

  /** Stops without reporting anything more (the reader hit another limit). */
  stop(): void {
    this.stopped = true;
    this.held = null;
    this.pending.clear();
    this.pendingStart = -1;
  }

  private append(text: string, from: number, to: number): void {
    if (this.pending.length + (to - from) > this.maxLine) return this.overflow();
    if (this.pendingStart === -1) this.pendingStart = this.chunk;
    this.pending.append(text.slice(from, to));
  }

  private overflow(): void {
    this.stop();
    this.sink.overflow(`an SSE line is longer than ${this.maxLine} characters; reading stopped there`);
  }
}

const LF = 10;
