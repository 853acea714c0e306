/**
 * Scaffolding for response adapters, shared by every SSE protocol: a fold turns `data` payloads
 * into a protocol's result; these readers feed it the way a careful client does (WHATWG SSE over
 * one streaming decoder) or the way a hand-written line splitter does (each read alone, LF only,
 * "data: " only). A protocol supplies the fold and what it does with non-2xx answers. Browser-safe.
 */
import { createParser } from "eventsource-parser";
import type { CaseOutcome } from "./compare.js";

/** What the readers need from a protocol's fold. */
export interface StreamFold<R> {
  /** No further payload counts: the client has stopped reading. */
  readonly finished: boolean;
  push(data: string): void;
  /** The body broke before the client had finished: an error keeping what was assembled. */
  failed(message: string): R;
  /** The result at the end of the body; `eofMeans` is how this client reads EOF without a sentinel. */
  result(eofMeans?: CaseOutcome): R;
}

/**
 * Reads an event stream as the WHATWG rules say (eventsource-parser over one streaming UTF-8
 * decoder: a character split across reads is decoded once; a leading BOM is dropped), until the
 * fold has finished or the body ends; then stops the body, whatever the server still sends or
 * holds open.
 */
export async function readEventStream<R>(body: ReadableStream<Uint8Array>, fold: StreamFold<R>): Promise<R> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = createParser({ onEvent: (event) => fold.push(event.data) });
  let last = "";
  const feed = (text: string) => {
    if (text === "") return;
    last = text;
    parser.feed(text);
  };
  try {
    while (!fold.finished) {
      const { done, value } = await reader.read();
      if (done) break;
      feed(decoder.decode(value, { stream: true }));
    }
    if (!fold.finished) {
      feed(decoder.decode());
      // A CR at the very end is a complete line ending (WHATWG), but the parser holds it back
      // waiting for a possible LF; an LF now ends that same line, nothing more.
      if (last.endsWith("\r")) parser.feed("\n");
    }
  } catch (e) {
    return fold.failed(`stream failed: ${(e as Error).message}`);
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return fold.result();
}

const DATA_PREFIX = "data: ";

/**
 * Reads a body the way hand-written stream readers do: each read decoded on its own (no
 * `{stream: true}`, so a split character becomes U+FFFD) and split on LF with no carry-over
 * buffer; only lines starting exactly with "data: " count, and of those only the ones `accept`
 * takes. The end of the body counts as completion, sentinel or not.
 */
export async function readDataLines<R>(body: ReadableStream<Uint8Array>, fold: StreamFold<R>, accept: (data: string) => boolean = () => true): Promise<R> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    while (!fold.finished) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const line of decoder.decode(value).split("\n")) {
        if (!line.startsWith(DATA_PREFIX)) continue;
        const data = line.slice(DATA_PREFIX.length);
        if (!accept(data)) continue;
        fold.push(data);
        if (fold.finished) break;
      }
    }
  } catch (e) {
    return fold.failed(`stream failed: ${(e as Error).message}`);
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return fold.result("done");
}

/** The error a client that reads only the status line shows. */
export function statusLine(response: Response): string {
  return `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
}
