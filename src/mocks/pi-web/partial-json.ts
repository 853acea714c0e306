/**
 * The compact JSON text of a streamed partial message, built as the message grows instead of
 * stringified whole per update: the stream only ever appends to one open block, so the text is the
 * previous one's prefix, the appended text escaped, and an unchanged suffix. The encoder finds the
 * text by the snapshot object (`knownJson`); snapshots are never changed after they are emitted.
 */

const known = new WeakMap<object, string>();

/** `JSON.stringify(value)` as the stream built it, if it did. */
export function knownJson(value: object): string | undefined {
  return known.get(value);
}

export function rememberJson(value: object, text: string): void {
  known.set(value, text);
}

/** The body (no quotes) of a JSON string: `JSON.stringify(s).slice(1, -1)`. */
const body = (s: string) => JSON.stringify(s).slice(1, -1);

/**
 * Makes V8 store a string built by `+=` as one flat piece (a numeric conversion reads it whole), so
 * each snapshot's text does not walk a chain of every piece appended so far.
 */
const flatten = (s: string) => Number(s);

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * The escaped body of a string that grows by appending: always equals
 * `JSON.stringify(whole).slice(1, -1)`. A trailing high surrogate waits for the next piece, since
 * JSON.stringify escapes it when lone but keeps it as it is before a low surrogate.
 */
export class EscapedText {
  private done = "";
  private held = "";

  append(piece: string): void {
    const s = this.held + piece;
    if (s.length > 0 && isHigh(s.charCodeAt(s.length - 1))) {
      this.held = s.slice(-1);
      this.done += body(s.slice(0, -1));
    } else {
      this.held = "";
      this.done += body(s);
    }
    flatten(this.done);
  }

  get text(): string {
    return this.held ? this.done + body(this.held) : this.done;
  }
}
