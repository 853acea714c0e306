/**
 * Event-level rewrites of a recorded mcp-chat stream, for re-judging: the stream's bytes are cut
 * into SSE events (blocks ended by an empty line), a rewrite changes the list, and the blocks are
 * written back, each at the time of the recorded chunk its first byte came from.
 */
import type { StreamTransform, TimedChunk } from "../../helpers/rejudge.js";

/** One event as written: its lines without the empty line that ends it. */
export interface Block {
  from: number;
  lines: string[];
  /** What follows the last line (default "\n\n": its LF and the empty line). */
  end?: string;
}

const enc = new TextEncoder();

/** Cuts the stream into blocks, rewrites them and writes them back (LF endings, times kept). */
export function byBlocks(rewrite: (blocks: Block[]) => Block[]): StreamTransform {
  return (chunks: TimedChunk[]) => {
    const blocks: Block[] = [];
    let lines: string[] = [];
    let start: number | undefined;
    let rest = "";
    let restFrom = 0;
    for (const c of chunks) {
      const text = rest + new TextDecoder().decode(c.bytes);
      const from = rest ? restFrom : c.from;
      const parts = text.split("\n");
      rest = parts.pop()!;
      restFrom = rest ? (parts.length ? c.from : from) : c.from;
      for (const line of parts) {
        if (line === "") {
          if (lines.length) blocks.push({ from: start!, lines });
          lines = [];
          start = undefined;
        } else {
          start ??= from;
          lines.push(line);
        }
      }
    }
    if (rest) lines.push(rest);
    // An unterminated last block is kept as it came: without its empty line.
    const tail = lines.length ? { from: start ?? restFrom, lines } : undefined;
    const out = rewrite(blocks);
    let last = 0;
    const written: TimedChunk[] = out.map((b) => {
      last = Math.max(last, b.from);
      return { from: last, bytes: enc.encode(`${b.lines.join("\n")}${b.end ?? "\n\n"}`) };
    });
    if (tail) written.push({ from: Math.max(last, tail.from), bytes: enc.encode(tail.lines.join("\n")) });
    return written;
  };
}

/** The JSON payload of a block's single `data: ` line, or undefined. */
export function payload(b: Block): Record<string, unknown> | undefined {
  if (b.lines.length !== 1 || !b.lines[0]!.startsWith("data: ")) return undefined;
  try {
    const v = JSON.parse(b.lines[0]!.slice(6)) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export const isType = (type: string) => (b: Block): boolean => payload(b)?.type === type;
export const isData = (value: string) => (b: Block): boolean => b.lines.length === 1 && b.lines[0] === `data: ${value}`;

/** A block with a new payload, at the same time. */
export const withPayload = (b: Block, value: unknown): Block => ({ from: b.from, lines: [`data: ${JSON.stringify(value)}`] });

/** Rewrites the first block that matches (the others as they came). */
export function mapFirst(match: (b: Block) => boolean, f: (b: Block) => Block[]): (blocks: Block[]) => Block[] {
  return (blocks) => {
    const i = blocks.findIndex(match);
    return i < 0 ? blocks : [...blocks.slice(0, i), ...f(blocks[i]!), ...blocks.slice(i + 1)];
  };
}

/** Swaps the contents of the first blocks matching a and b, each keeping the other's time. */
export function swap(a: (b: Block) => boolean, b: (b: Block) => boolean): (blocks: Block[]) => Block[] {
  return (blocks) => {
    const i = blocks.findIndex(a);
    const j = blocks.findIndex(b);
    if (i < 0 || j < 0) return blocks;
    const out = [...blocks];
    out[i] = { from: blocks[i]!.from, lines: blocks[j]!.lines };
    out[j] = { from: blocks[j]!.from, lines: blocks[i]!.lines };
    return out;
  };
}
