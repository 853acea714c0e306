/**
 * Text put together from many pieces (a line read in many chunks, an event's data lines), held at
 * about the size of the text itself however small the pieces.
 *
 * `text += piece` makes V8 keep one cons string per piece (32 bytes or more, besides the piece):
 * a line sent one byte per read, or one event of a million one-character data lines, would cost 8
 * to 40 times its length until it ends. Here small pieces are joined into one flat block every
 * {@link PIECES} of them, so at most that many small strings are held at once; a large piece is
 * kept as it is (its header is little beside it); the text is joined once, when it is taken.
 */

/** Small pieces held before they are joined into a block: a block of tiny pieces outweighs their headers. */
export const PIECES = 256;
/** A piece this long (characters) is kept whole: copying it into a block would cost time and a second copy for nothing. */
const LARGE = 4096;

export class TextBuilder {
  /** The text while it is one piece, as most are (an event's one data line, a line read in one chunk): no array is touched. */
  private first = "";
  /** Flat strings in order: joined small pieces and large pieces. */
  private readonly blocks: string[] = [];
  /** The small pieces since the last block, once there are two pieces or more. */
  private readonly pieces: string[] = [];
  /** Pieces appended since the text was last taken. */
  private count = 0;
  private chars = 0;

  /** Characters appended since the text was last taken. */
  get length(): number {
    return this.chars;
  }

  /** Strings the builder holds (blocks and pieces): what its memory beyond the text grows with. */
  get held(): number {
    return this.count < 2 ? this.count : this.blocks.length + this.pieces.length;
  }

  append(piece: string): void {
    if (piece.length === 0) return;
    this.chars += piece.length;
    if (++this.count === 1) {
      this.first = piece;
      return;
    }
    if (this.count === 2) {
      this.add(this.first);
      this.first = "";
    }
    this.add(piece);
  }

  /** The text, joined once; the builder is empty again. */
  take(): string {
    let text = this.first;
    if (this.count > 1) {
      if (this.pieces.length > 0) this.join();
      const blocks = this.blocks;
      text = blocks.length === 1 ? blocks[0]! : blocks.join("");
    }
    this.clear();
    return text;
  }

  clear(): void {
    if (this.count > 1) {
      this.blocks.length = 0;
      this.pieces.length = 0;
    }
    this.first = "";
    this.count = 0;
    this.chars = 0;
  }

  private add(piece: string): void {
    const pieces = this.pieces;
    if (piece.length >= LARGE) {
      // After the small pieces before it, in order.
      if (pieces.length > 0) this.join();
      this.blocks.push(piece);
      return;
    }
    pieces.push(piece);
    if (pieces.length === PIECES) this.join();
  }

  private join(): void {
    this.blocks.push(this.pieces.join(""));
    this.pieces.length = 0;
  }
}
