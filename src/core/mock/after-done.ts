/**
 * What a client does once a held stream's `[DONE]` went out: the mock notes when `data: [DONE]`
 * was written and when the body ended, and whether the client went away (closed the connection or
 * cancelled the body) or the mock ended it after its hold. A protocol names the note; client rules
 * read the notes beside the requests. Browser-safe.
 */
import type { TranscriptBus } from "../transcript/transcript.js";

/** Note values: `{exchange, event: "done"}`, then `{exchange, event: "closed", by: "client" | "server"}`. */
export interface AfterDoneNote {
  exchange: string;
  event: "done" | "closed";
  by?: "client" | "server";
}

// `data: [DONE]`, with or without the space, whatever the line ending.
const DONE = /data: ?\[DONE\]/;

/** The body passed through, with the notes emitted on `bus` under `note`. */
export function watchAfterDone(body: ReadableStream<Uint8Array>, bus: TranscriptBus, note: string, exchange: string, signal: AbortSignal): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  // Only a tail is carried over: enough to find `data: [DONE]` cut across writes.
  let tail = "";
  let sawDone = false;
  let ended = false;
  const emit = (value: Omit<AfterDoneNote, "exchange">) => bus.emit({ kind: "note", probe: "client", name: note, value: { exchange, ...value } });
  const closed = (by: "client" | "server") => {
    if (ended) return;
    ended = true;
    if (sawDone) emit({ event: "closed", by });
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let r: ReadableStreamReadResult<Uint8Array>;
        try {
          r = await reader.read();
        } catch (e) {
          closed(signal.aborted ? "client" : "server");
          throw e;
        }
        if (r.done) {
          // A paced body ends early when the connection went away (the request's signal).
          closed(signal.aborted ? "client" : "server");
          return controller.close();
        }
        if (!sawDone) {
          const text = tail + decoder.decode(r.value, { stream: true });
          tail = text.slice(-16);
          if (DONE.test(text)) {
            sawDone = true;
            emit({ event: "done" });
          }
        }
        controller.enqueue(r.value);
      },
      async cancel(reason) {
        closed("client");
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
