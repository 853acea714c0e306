/**
 * The scenarios of protocol doc §6, as records: each turns a request (through the AnswerContext)
 * into an Answer. `auto` applies the answer rules; the others script one kind of answer. Every
 * catalogue tool has a `tool-<kebab name>` scenario. Follow-up requests (the last message is a
 * tool result) always get the final answer, whatever the scenario, so no client loops forever.
 */
import type { NamedItem } from "../../core/run/protocol.js";
import { callsAnswer, textAnswer, TEXT_ONLY_TEXT, type Answer } from "./answer.js";
import { allCatalogueTools, type CatalogueTool } from "./catalogues.js";
import { httpErrorFor } from "./errors.js";
import { autoAnswer, defaultTool, notOffered, plannedCall, refusal, type AnswerContext } from "./rules.js";

export interface OpenaiChatScenario extends NamedItem {
  answer(ctx: AnswerContext): Answer;
}

export const DEFAULT_SCENARIO = "auto";

export const ERROR_MID_STREAM = {
  message: "Upstream model failed",
  type: "server_error",
  param: null,
  code: "upstream_error",
};

export const REASONING_TEXT = "Let me think about this.";
export const LENGTH_TEXT = "This answer stops in the middle because it reached the token limit and";

/** A call of `name` when the request offers it, else a text answer saying it does not. */
function callOf(ctx: AnswerContext, scenario: string, name: string, args?: Record<string, unknown>): Answer {
  if (!ctx.offered.has(name)) return notOffered(`The scenario ${scenario}`, name, ctx);
  return callsAnswer([plannedCall(ctx, name, args)], "scenario");
}

/** `tool-read-file` for read_file; the CLI's PascalCase tools are `tool-cli-<kebab>` (tool-cli-multi-edit). */
export const toolScenarioName = (t: CatalogueTool): string => `tool-${t.args.replace(/\//g, "-")}`;

const toolScenarios: OpenaiChatScenario[] = allCatalogueTools().map((t) => ({
  name: toolScenarioName(t),
  description: `One call of ${t.name} with its example arguments in argFragment-sized deltas, then "tool_calls"`,
  answer: (ctx) => callOf(ctx, toolScenarioName(t), t.name),
}));

export const SCENARIOS: readonly OpenaiChatScenario[] = [
  {
    name: "auto",
    description:
      "The answer rules: tool results get a final answer; a forced function, `call` directives or \"required\" get calls; otherwise text",
    answer: autoAnswer,
  },
  {
    name: "tool-then-answer",
    description: "Same as auto: the seed's loop of a call, then a final answer once the result comes back",
    answer: autoAnswer,
  },
  {
    name: "text-only",
    description: `The text "${TEXT_ONLY_TEXT}" in textFragment-sized deltas, then "stop"`,
    answer: () => ({ ...textAnswer(TEXT_ONLY_TEXT, "scenario") }),
  },
  ...toolScenarios,
  {
    name: "parallel-tools",
    description: "read_file README.md at index 0, then read_file package.json at index 1, each complete before the next",
    answer(ctx) {
      if (!ctx.offered.has("read_file")) return notOffered("The scenario parallel-tools", "read_file", ctx);
      return callsAnswer(
        [plannedCall(ctx, "read_file", { filepath: "README.md" }), plannedCall(ctx, "read_file", { filepath: "package.json" })],
        "scenario",
      );
    },
  },
  {
    name: "reasoning",
    description: `Reasoning deltas ("${REASONING_TEXT}"), then the text-only text, "stop"`,
    answer: () => ({ ...textAnswer(TEXT_ONLY_TEXT, "scenario"), reasoning: REASONING_TEXT }),
  },
  {
    name: "error-mid-stream",
    description: `"Partial answer " in two deltas, then an in-stream error "${ERROR_MID_STREAM.message}" and EOF (500 when not streaming)`,
    answer: () => ({ ...textAnswer(["Partial ", "answer "], "scenario"), streamError: { ...ERROR_MID_STREAM } }),
  },
  {
    name: "http-error",
    description: "429 with Retry-After: 1 (or the configured httpError 500/503) and an ErrorResponse",
    answer: (ctx) => ({ ...textAnswer("", "scenario"), httpError: httpErrorFor(ctx.httpErrorStatus, ctx.model) }),
  },
  {
    name: "long-stream",
    description: "1,000 text deltas mixing ASCII, é, CJK and 4-byte emoji, 2 ms apart unless chunkDelayMs is set",
    answer: () => ({ ...textAnswer(longStreamPieces(), "scenario"), pacingDefaults: { chunkDelayMs: 2 } }),
  },
  {
    name: "long-tool-args",
    description: "create_new_file with 16 KB of contents (newlines, quotes, backslashes, non-ASCII, emoji) in 3-character fragments",
    answer: (ctx) => ({
      ...callOf(ctx, "long-tool-args", "create_new_file", { filepath: "long.txt", contents: longContents(16 * 1024) }),
      pacingDefaults: { argFragment: 3, chunkDelayMs: 0 },
    }),
  },
  {
    name: "length-truncated",
    description: 'Text that stops mid-sentence, then "length"',
    answer: () => textAnswer(LENGTH_TEXT, "scenario", "length"),
  },
  {
    name: "length-in-tool-call",
    description: 'A call whose arguments stop mid-JSON, then "length" (the truncated call must not run)',
    answer(ctx) {
      const name = defaultTool(ctx);
      if (name === undefined) return refusal("The scenario length-in-tool-call needs a tool, and this request offers none.");
      const call = plannedCall(ctx, name);
      const chars = [...call.arguments];
      const cut = Math.max(1, Math.floor(chars.length / 2));
      return { ...callsAnswer([{ ...call, arguments: chars.slice(0, cut).join("") }], "scenario"), finish: "length" };
    },
  },
  {
    name: "slow",
    description: "The text-only answer after 5 s of silence, with a `: ping` comment every second",
    answer: () => ({ ...textAnswer(TEXT_ONLY_TEXT, "scenario"), pacing: { ttftMs: 5000, keepAliveMs: 1000 } }),
  },
];

export function findScenario(name: string): OpenaiChatScenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

// Code points, so no piece splits an emoji's surrogate pair.
const LONG_SOURCE = Array.from("Streaming café déjà vu: 東京は晴れ 😀, 大阪は雨 🌧, naïve résumé 🚀 北京 ok! ");

let longStream: readonly string[] | undefined;

/** The long-stream text, the same for every request: its pieces are cut once per process. */
function longStreamPieces(): readonly string[] {
  return (longStream ??= Object.freeze([...longPieces(1000)]));
}

/** `count` pieces of 1-8 code points of a looping sentence (one delta each at textFragment 8). */
export function* longPieces(count: number): Generator<string> {
  let at = 0;
  for (let i = 0; i < count; i++) {
    const size = 1 + ((i * 5) % 8);
    let piece = "";
    for (let j = 0; j < size; j++) piece += LONG_SOURCE[(at + j) % LONG_SOURCE.length];
    at += size;
    yield piece;
  }
}

const CONTENT_LINE = 'line "quoted" \\ back\\slash \t tab — naïve 東京 🚀 {"json": [1, 2]}\n';

/** At least `bytes` UTF-8 bytes of file content full of characters that need escaping. */
export function longContents(bytes: number): string {
  const enc = new TextEncoder();
  const lineBytes = enc.encode(CONTENT_LINE).length;
  let out = "";
  for (let i = 0; i * lineBytes < bytes; i++) out += `${i + 1}: ${CONTENT_LINE}`;
  return out;
}
