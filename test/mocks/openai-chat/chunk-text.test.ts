/** The JSON text a stream's steps carry is the text JSON.stringify gives their chunks. */
import { describe, expect, it } from "vitest";
import { answerSteps, chunkText, makeChunk, type Envelope } from "../../../src/mocks/openai-chat/chunks.js";
import type { Answer } from "../../../src/mocks/openai-chat/answer.js";
import { UsageMeter } from "../../../src/mocks/openai-chat/usage.js";
import { DEFAULT_PACING } from "../../../src/mocks/openai-chat/pacing.js";

const ENVS: Envelope[] = [
  { id: "chatcmpl-1", created: 1_767_225_600, model: "agentwire-mock", includeUsage: false },
  { id: 'chatcmpl-"q"\\', created: 0, model: "gpt-é 漢 🙂\n", includeUsage: true },
];

describe("chunkText", () => {
  it.each(ENVS)("renders makeChunk's JSON exactly (%o)", (env) => {
    const text = chunkText(env);
    for (const [delta, finish] of [
      [{ content: "hello é 漢 🙂 \"quoted\" \\ \u2028" }, null],
      [{ role: "assistant", content: "" }, null],
      [{ reasoning_content: "think" }, null],
      [{}, "stop"],
      [{ tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] }, "tool_calls"],
    ] as const) {
      expect(text(delta, finish)).toBe(JSON.stringify(makeChunk(env, delta, finish)));
    }
  });

  it("steps that carry their text carry their data's JSON", () => {
    const answer: Answer = {
      rule: "text-only" as Answer["rule"],
      reasoning: 'a "thought"\n',
      text: ["hello there, é 漢 🙂", 'quote " back \\ \u2028 \u0001 lone \ud800 end'],
      calls: [],
      finish: "stop",
    };
    for (const env of ENVS) {
      for (const reasoningField of ["reasoning_content", "reasoning"] as const) {
        const steps = [...answerSteps(answer, { env, pacing: { ...DEFAULT_PACING, textFragment: 3 }, meter: new UsageMeter(10), reasoningField, withText: true })];
        const carrying = steps.filter((s) => s.json !== undefined);
        expect(carrying.length).toBeGreaterThan(10);
        expect(carrying.some((s) => s.kind === "reasoning")).toBe(true);
        for (const s of carrying) {
          expect(s.json).toBe(JSON.stringify(s.data));
          // The byte form too: the shared head and tail around the piece's own bytes.
          const { head, body, tail } = s.jsonBytes!;
          expect(Buffer.concat([head, body, tail]).toString("utf8")).toBe(JSON.stringify(s.data));
        }
      }
    }
  });
});
