/** Fragments cut text by code points, whatever the text holds. */
import { describe, expect, it } from "vitest";
import { fragments } from "../../../src/mocks/openai-chat/answer.js";

/** The reference cut: code points gathered `size` at a time. */
function byCodePoints(text: string, size: number): string[] {
  if (text === "") return [];
  if (size <= 0) return [text];
  const points = [...text];
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(""));
  return out;
}

describe("fragments", () => {
  const texts = ["", "a", "plain ascii text that runs on", "é 漢 mixed bmp ü", "emoji 🙂 and 漢 and é 🙂🙂", "lone \ud800 high", "\udc00 lone low"];
  it.each([1, 3, 8, 0])("size %i gives the code-point cut", (size) => {
    for (const text of texts) expect([...fragments(text, size)]).toEqual(byCodePoints(text, size));
  });
});
