/**
 * A plain answer's body as a client's fetch reads it: a gzip, deflate or br coding undone, bounded so a small body
 * cannot unpack into the heap. Shared by the kit's recording client and the proxy's relay, which both judge the text.
 */
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from "node:zlib";

type Decode = (b: Buffer, o: { maxOutputLength: number }) => Buffer;

/**
 * "deflate" in zlib's wrapping starts with compression method 8 in its first byte's low bits; anything else sent as
 * "deflate" is raw deflate, which a client's fetch reads too.
 */
export const zlibWrapped = (first: number | undefined): boolean => ((first ?? 0) & 0x0f) === 0x08;

/** Content codings a client's fetch undoes by itself (the one list: plain answers here, streams in coded-stream.ts). */
const DECODERS: Record<string, Decode> = {
  gzip: gunzipSync,
  "x-gzip": gunzipSync,
  deflate: (b, o) => (zlibWrapped(b[0]) ? inflateSync : inflateRawSync)(b, o),
  br: brotliDecompressSync,
};

/** The coding the kit undoes for a body with this Content-Encoding, or undefined: the body is read as it came. */
export function undoneCoding(encoding: string | undefined): string | undefined {
  const name = encoding?.trim().toLowerCase();
  return name !== undefined && Object.hasOwn(DECODERS, name) ? name : undefined;
}

/**
 * `body` decoded by its Content-Encoding: the bytes as a client reads them (as they came without a coding a fetch
 * undoes, or when they do not decode: the rules judge them so), or "over" when they decode to more than `maxBytes`.
 */
export function decodeBody(body: Buffer, encoding: string | undefined, maxBytes: number): Buffer | "over" {
  const coding = undoneCoding(encoding);
  if (coding === undefined) return body;
  const decode = DECODERS[coding]!;
  try {
    return decode(body, { maxOutputLength: maxBytes });
  } catch (e) {
    return (e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" ? "over" : body;
  }
}
