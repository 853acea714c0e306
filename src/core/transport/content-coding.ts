/**
 * A plain answer's body as a client's fetch reads it: a gzip, deflate or br coding undone, bounded so a small body
 * cannot unpack into the heap. Shared by the kit's recording client and the proxy's relay, which both judge the text.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

/** Content codings a client's fetch undoes by itself. */
const DECODERS: Record<string, (b: Buffer, o: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  "x-gzip": gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * `body` decoded by its Content-Encoding: the bytes as a client reads them (as they came without a coding a fetch
 * undoes, or when they do not decode: the rules judge them so), or "over" when they decode to more than `maxBytes`.
 */
export function decodeBody(body: Buffer, encoding: string | undefined, maxBytes: number): Buffer | "over" {
  const decode = encoding === undefined ? undefined : DECODERS[encoding.trim().toLowerCase()];
  if (!decode) return body;
  try {
    return decode(body, { maxOutputLength: maxBytes });
  } catch (e) {
    return (e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" ? "over" : body;
  }
}
