/** The mock's own text frames are byte for byte what `ws` writes for `send(text)` from a server without extensions. */
import * as ws from "ws";
import { describe, expect, it } from "vitest";
import { FrameBlock, textFrame } from "../../../src/mocks/stagewise-chat/ws-frames.js";

type Frame = (data: string | Buffer, options: Record<string, unknown>) => Buffer[];

/** ws's own frame builder (not in its typings). */
const { Sender } = ws as unknown as { Sender: { frame: Frame } };

const viaWs = (text: string) =>
  Buffer.concat(Sender.frame(text, { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false }));

describe("stagewise-chat mock: text frames", () => {
  // Each length encoding and its edges (7 bits, 16 bits, 64 bits), and characters of 2, 3 and 4 UTF-8 bytes.
  const texts = ["", "a", "x".repeat(125), "x".repeat(126), "x".repeat(65_535), "x".repeat(65_536), "é".repeat(63), "é".repeat(64), `日本 🎨 ${"\u2028"} "q" \\`, "x".repeat(70_000) + "🎨"];
  for (const text of texts) {
    it(`${Buffer.byteLength(text)} bytes: ${text.slice(0, 12)}`, () => {
      expect(textFrame(text).equals(viaWs(text))).toBe(true);
    });
  }
});

describe("stagewise-chat mock: frames gathered in a block", () => {
  it("holds the frames textFrame writes, back to back, in the order added", () => {
    // The largest a block takes first: 21,844 units may need 65,532 bytes.
    const texts = ["y".repeat(21_844), "", "a", "x".repeat(125), "x".repeat(126), "é".repeat(63), "é".repeat(64), `日本 🎨 ${"\u2028"} "q" \\ \ud800`];
    const block = new FrameBlock();
    for (const text of texts) expect(block.add(text)).toBe(true);
    expect(block.take()!.equals(Buffer.concat(texts.map(textFrame)))).toBe(true);
    expect(block.take()).toBeUndefined();
  });

  it("refuses a frame that may not fit (the caller sends it on its own), and what it took stays as it was", () => {
    const block = new FrameBlock();
    // Up to 3 bytes a unit: 21,845 units may need 65,535 bytes, more than a block holds with the frame's head.
    expect(block.add("z".repeat(21_845))).toBe(false);
    expect(block.take()).toBeUndefined();
    const first = ["one", "two"];
    for (const text of first) block.add(text);
    const taken = block.take()!;
    const copy = Buffer.from(taken);
    // The rest of the block is used for the next frames, never the part handed out.
    const next = Array.from({ length: 300 }, (_, i) => `delta ${i} ${"w".repeat(i % 40)}`);
    let added = 0;
    for (const text of next) if (block.add(text)) added++;
    expect(taken.equals(copy)).toBe(true);
    // A full block refuses the next frame until it is taken; then it starts a new one.
    const gathered: Buffer[] = [];
    const sent: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const text = `frame ${i} ${"v".repeat(100)}`;
      if (block.add(text)) continue;
      gathered.push(block.take()!);
      expect(block.add(text)).toBe(true);
      sent.push(text);
    }
    expect(sent.length).toBeGreaterThan(0);
    gathered.push(block.take()!);
    const all = Buffer.concat(gathered);
    const expected = Buffer.concat([...next.slice(0, added), ...Array.from({ length: 2000 }, (_, i) => `frame ${i} ${"v".repeat(100)}`)].map(textFrame));
    expect(all.equals(expected)).toBe(true);
  });
});
