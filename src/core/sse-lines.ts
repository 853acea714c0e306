/**
 * Raw SSE line splitter for framing lint. Unlike a parser it reports every line exactly as sent,
 * with its terminator ("\n", "\r\n", "\r", or "" when the body ended inside the line), and the
 * chunk indexes where the line began and ended. A CR at the end of a chunk is held until the next
 * character shows whether it was half of a CRLF.
 */
export type Eol = "\n" | "\r\n" | "\r" | "";

export interface RawLine {
  line: string;
  eol: Eol;
  chunkStart: number;
  chunkEnd: number;
}

export class LineSplitter {
  private pending = "";
  private pendingStart = -1;
  private held: { line: string; start: number } | null = null; // line ended by a CR, LF unknown
  private chunk = 0;

  constructor(private readonly onLine: (line: RawLine) => void) {}

  push(text: string, chunkIndex: number): void {
    this.chunk = chunkIndex;
    let i = 0;
    if (this.held && text.length > 0) {
      const h = this.held;
      this.held = null;
      if (text[0] === "\n") {
        this.emit(h.line, "\r\n", h.start);
        i = 1;
      } else {
        this.emit(h.line, "\r", h.start);
      }
    }
    while (i < text.length) {
      const lf = text.indexOf("\n", i);
      const cr = text.indexOf("\r", i);
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) {
        this.append(text.slice(i));
        return;
      }
      if (end > i) this.append(text.slice(i, end));
      const line = this.pending;
      const start = this.pendingStart === -1 ? this.chunk : this.pendingStart;
      this.pending = "";
      this.pendingStart = -1;
      if (text[end] === "\n") {
        this.emit(line, "\n", start);
        i = end + 1;
      } else if (end + 1 < text.length) {
        const crlf = text[end + 1] === "\n";
        this.emit(line, crlf ? "\r\n" : "\r", start);
        i = end + (crlf ? 2 : 1);
      } else {
        this.held = { line, start };
        i = end + 1;
      }
    }
  }

  end(): void {
    if (this.held) {
      this.emit(this.held.line, "\r", this.held.start);
      this.held = null;
    }
    if (this.pending !== "" || this.pendingStart !== -1) {
      this.emit(this.pending, "", this.pendingStart === -1 ? this.chunk : this.pendingStart);
      this.pending = "";
      this.pendingStart = -1;
    }
  }

  private append(s: string): void {
    if (this.pendingStart === -1) this.pendingStart = this.chunk;
    this.pending += s;
  }

  private emit(line: string, eol: Eol, start: number): void {
    this.onLine({ line, eol, chunkStart: start, chunkEnd: this.chunk });
  }
}
