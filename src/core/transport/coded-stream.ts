/**
 * A stream body's gzip, deflate or br coding undone as it arrives, as a client's fetch undoes it, so the SSE reader
 * reads the text the client reads. Shared by the kit's recording client and the proxy's relay. The body-chunk events
 * keep the coded bytes as sent; only the reader gets the decoded ones, each piece with the index of the coded chunk it
 * came out of. Bounded: the decoded bytes by `maxBytes` (a small body that unpacks into a huge one ends at the kit's
 * limit), the coded bytes waiting for the decoder by the caller pausing its socket while `push` says so.
 */
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw, type Gunzip } from "node:zlib";
import { undoneCoding, zlibWrapped } from "./content-coding.js";

export interface CodedStreamOptions {
  /** Decoded bytes read at most; past them decoding stops and `onLimit` is told. */
  maxBytes: number;
  /** Decoded bytes, with the index of the coded chunk that brought them. */
  onData(bytes: Uint8Array, chunkIndex: number): void;
  /** The decoded body outgrew `maxBytes` (the kit's limit, not the server's fault). */
  onLimit(message: string): void;
  /** The coding broke: the server sent bytes that do not decode (a client's fetch fails there too). */
  onError(message: string): void;
}

type Decoder = Gunzip;

/** A fetch keeps what decoded when a coded body ends early, rather than failing: so does the kit. */
const LENIENT = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const LENIENT_BR = { flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH };

export class CodedStream {
  private decoder: Decoder | undefined;
  /** Coded chunks written, as [index, body offset past their last byte], oldest first, until fully consumed. */
  private readonly written: [number, number][] = [];
  private codedBytes = 0;
  private decodedBytes = 0;
  private stopped = false;
  private lastIndex = 0;

  constructor(
    private readonly coding: string,
    private readonly o: CodedStreamOptions,
  ) {}

  /** Feeds one coded chunk; false when the decoder is behind and the caller should pause its socket until `drained`. */
  push(coded: Uint8Array, index: number): boolean {
    if (this.stopped || coded.byteLength === 0) return true;
    const d = (this.decoder ??= this.open(coded));
    this.codedBytes += coded.byteLength;
    this.written.push([index, this.codedBytes]);
    return d.write(coded);
  }

  /** Calls `fn` once the decoder has caught up (at once when it is not behind, or has stopped). */
  drained(fn: () => void): void {
    if (this.stopped || !this.decoder?.writableNeedDrain) return fn();
    const d = this.decoder;
    const go = () => {
      d.off("drain", go);
      d.off("close", go);
      fn();
    };
    d.once("drain", go);
    d.once("close", go);
  }

  /** The coded body ended: `done` is called after the last decoded bytes (at once when decoding stopped already). */
  end(done: () => void): void {
    if (this.stopped || !this.decoder) {
      this.stop();
      return done();
    }
    const d = this.decoder;
    let called = false;
    const once = () => {
      if (called) return;
      called = true;
      done();
    };
    d.once("end", once);
    d.once("close", once);
    d.end();
  }

  /** Stops decoding; nothing more is reported. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.decoder?.destroy();
  }

  private open(first: Uint8Array): Decoder {
    const d = (this.coding === "br" ? createBrotliDecompress(LENIENT_BR) : this.coding === "deflate" ? deflateFor(first) : createGunzip(LENIENT)) as Decoder;
    d.on("data", (out: Buffer) => this.decoded(d, out));
    d.on("error", (e: Error) => {
      if (this.stopped) return;
      this.stop();
      this.o.onError(`the body's ${this.coding} coding does not decode after ${d.bytesWritten} coded byte(s): ${e.message}`);
    });
    return d;
  }

  private decoded(d: Decoder, out: Buffer): void {
    if (this.stopped) return;
    this.decodedBytes += out.byteLength;
    if (this.decodedBytes > this.o.maxBytes) {
      this.stop();
      this.o.onLimit(`the ${this.coding}-coded body decodes to more than the ${this.o.maxBytes} bytes the kit reads; reading stopped there`);
      return;
    }
    // The coded chunk being consumed: zlib counts the coded bytes it has taken in before handing out what they gave.
    const consumed = d.bytesWritten;
    while (this.written.length > 1 && this.written[0]![1] < consumed) this.written.shift();
    const index = this.written[0]?.[0] ?? this.lastIndex;
    this.lastIndex = index;
    this.o.onData(new Uint8Array(out.buffer, out.byteOffset, out.byteLength), index);
  }
}

/**
 * "deflate" as a fetch reads it: the zlib format (RFC 1950) the name means, or the raw deflate data (RFC 1951) some
 * servers send under it, told apart by the first byte (a zlib header names compression method 8 in its low bits).
 */
function deflateFor(first: Uint8Array): Decoder {
  return (zlibWrapped(first[0]) ? createInflate(LENIENT) : createInflateRaw(LENIENT)) as unknown as Decoder;
}

/** A decoder for a stream body with this Content-Encoding, or undefined when the kit reads the body as it came. */
export function codedStream(encoding: string | undefined, o: CodedStreamOptions): CodedStream | undefined {
  const coding = undoneCoding(encoding);
  return coding === undefined ? undefined : new CodedStream(coding === "x-gzip" ? "gzip" : coding, o);
}
