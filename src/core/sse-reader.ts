/**
 * Turns raw body chunks into transcript events: `sse-line` (the kit's raw-line view, for framing
 * lint) and `sse-event` (what a WHATWG-conformant parser, eventsource-parser, dispatches). Both
 * views come from one streaming UTF-8 decode, so a character split across chunks is decoded once,
 * correctly. State is O(longest line), not O(stream).
 */
import { createParser, type EventSourceParser } from "eventsource-parser";
import { LineSplitter } from "./sse-lines.js";
import type { NewEvent } from "./transcript.js";

export class SseReader {
  // Non-fatal: invalid bytes become U+FFFD here; the sse/utf8 style checks judge the raw bytes.
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private readonly parser: EventSourceParser;
  private readonly splitter: LineSplitter;
  private lineNo = 0;
  private eventIndex = 0;
  private chunk = 0;

  constructor(
    probe: string,
    exchange: string,
    label: string,
    sink: (event: NewEvent) => void,
  ) {
    const ref = { probe, exchange, label };
    this.splitter = new LineSplitter((l) =>
      sink({ kind: "sse-line", ...ref, lineNo: this.lineNo++, ...l }),
    );
    this.parser = createParser({
      onEvent: (ev) =>
        sink({
          kind: "sse-event",
          ...ref,
          index: this.eventIndex++,
          data: ev.data,
          ...(ev.event !== undefined ? { event: ev.event } : {}),
          ...(ev.id !== undefined ? { id: ev.id } : {}),
          chunk: this.chunk,
        }),
    });
  }

  /** Feeds one body chunk, with its index as recorded in the transcript. */
  push(bytes: Uint8Array, chunkIndex: number): void {
    this.chunk = chunkIndex;
    const text = this.decoder.decode(bytes, { stream: true });
    if (text === "") return;
    this.splitter.push(text, chunkIndex);
    this.parser.feed(text);
  }

  /** The body ended. An event without its final blank line is discarded, as WHATWG says. */
  end(): void {
    const rest = this.decoder.decode();
    if (rest) {
      this.splitter.push(rest, this.chunk);
      this.parser.feed(rest);
    }
    this.splitter.end();
  }

  get events(): number {
    return this.eventIndex;
  }
}
