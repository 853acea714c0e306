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
import type { NewEvent } from "../transcript/transcript.js";

export interface SseReaderOptions {
  /** Longest line, and longest event data, kept (characters). */
  maxLine?: number;
  /** Called once when a line or an event outgrew `maxLine`; the reader reports nothing more. */
  onLimit?: (message: string) => void;
}

/** One options object for every chunk's decode, not one per chunk. */
const STREAM = { stream: true } as const;

export class SseReader {
  private readonly decoder = new TextDecoder("utf-8");
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
      opts.onLimit?.(message);
    };
    this.interpreter = new EventInterpreter(
      (data, event, id) => {
        if (this.stopped) return;
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
        raw: (line, eol, chunkStart, chunkEnd) => sink({ kind: "sse-line", probe, exchange, label, lineNo: this.lineNo++, line, eol, chunkStart, chunkEnd }),
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
    this.splitter.push(this.decoder.decode(bytes, STREAM), chunkIndex);
  }

  /** The body ended. An event without its final blank line is discarded, as WHATWG says. */
  end(): void {
    if (this.stopped) return;
    this.splitter.push(this.decoder.decode(), this.chunk);
    this.splitter.end();
    this.stopped = true;
  }

  get events(): number {
    return this.eventIndex;
  }
}
