/** The mock's own text frames are byte for byte what `ws` writes for `send(text)` from a server without extensions. */
import * as ws from "ws";
import { describe, expect, it } from "vitest";
import { textFrame } from "../../../src/mocks/stagewise-chat/ws-frames.js";

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
