/**
 * What the mock answers to a chat message, as lazily generated steps. Each scenario ends with
 * exactly one sentinel; faults and framings are applied on top by the engine.
 */
import type { NamedItem } from "../../core/run/protocol.js";
import { done, failure, text, toolEnd, toolStart, type Step } from "./events.js";

export interface McpChatScenario extends NamedItem {
  steps(): Iterable<Step>;
  /** A refusal rather than an answer: semantic faults leave it alone. */
  rejection?: boolean;
}

export const NOT_CONNECTED_MESSAGE = "Not connected to any MCP server. Please connect to a server first.";
export const STREAM_ERROR_MESSAGE = "Tool execution failed: upstream timeout";

/** The seed's "Complete SSE Stream Example", event for event. */
function* weather(toolWait: "tool" | number): Iterable<Step> {
  yield toolStart("tc-1", "get_weather", { city: "San Francisco" }, "65°F, sunny, humidity 45%");
  yield toolEnd("tc-1", "get_weather", toolWait);
  yield text("The current ");
  yield text("weather in ");
  yield text("San Francisco ");
  yield text("is 65°F and sunny.");
  yield done();
}

export const SCENARIOS: readonly McpChatScenario[] = [
  {
    name: "weather-tool",
    description: "The seed's seven-event example: tc-1 get_weather, four text chunks, [DONE]",
    steps: () => weather("tool"),
  },
  {
    name: "text-only",
    description: 'No tools: text "Hello! ", "How can I help?", [DONE]',
    *steps() {
      yield text("Hello! ");
      yield text("How can I help?");
      yield done();
    },
  },
  {
    name: "two-tools",
    description: "tc-1 get_weather, then tc-2 get_forecast, then the answer and [DONE]",
    *steps() {
      yield toolStart("tc-1", "get_weather", { city: "San Francisco" }, "65°F, sunny");
      yield toolEnd("tc-1", "get_weather");
      yield toolStart("tc-2", "get_forecast", { city: "San Francisco", days: 5 }, "Sunny all week");
      yield toolEnd("tc-2", "get_forecast");
      yield text("It is 65°F and sunny in San Francisco, ");
      yield text("and the next five days stay sunny.");
      yield done();
    },
  },
  {
    name: "parallel-tools",
    description: "Two overlapping get_weather calls ended out of order (start tc-1, start tc-2, end tc-2, end tc-1)",
    *steps() {
      yield toolStart("tc-1", "get_weather", { city: "Paris" }, "18°C, cloudy");
      yield toolStart("tc-2", "get_weather", { city: "Rome" }, "24°C, sunny");
      yield toolEnd("tc-2", "get_weather");
      yield toolEnd("tc-1", "get_weather", "event");
      yield text("Paris is 18°C and cloudy; Rome is 24°C and sunny.");
      yield done();
    },
  },
  {
    name: "stream-error",
    description: `tc-1 start/end, text "Partial ", then [ERROR] ${STREAM_ERROR_MESSAGE}`,
    *steps() {
      yield toolStart("tc-1", "get_weather", { city: "San Francisco" });
      yield toolEnd("tc-1", "get_weather");
      yield text("Partial ");
      yield failure(STREAM_ERROR_MESSAGE);
    },
  },
  {
    name: "not-connected",
    description: "Chat while disconnected (automatic): only [ERROR] Not connected…, or 409 with notConnected http-409",
    rejection: true,
    *steps() {
      yield failure(NOT_CONNECTED_MESSAGE);
    },
  },
  {
    name: "long-answer",
    description: "200 text chunks of 5-10 characters mixing ASCII, é, CJK and 4-byte emoji, then [DONE]",
    *steps() {
      yield* longAnswer();
      yield done();
    },
  },
  {
    name: "slow-tool",
    description: "weather-tool with 5 s of silence between tool_start and tool_end",
    steps: () => weather(5000),
  },
];

export const DEFAULT_SCENARIO = "weather-tool";

export function findScenario(name: string): McpChatScenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

// Code points, not UTF-16 units, so no chunk splits an emoji's surrogate pair.
const LONG_SOURCE = Array.from("Voilà, the café forecast: 東京は晴れ 😀, 大阪は雨 🌧, résumé 🚀 naïve 北京 ok! ");

/**
 * Deterministic: chunk i takes the next 5 + (i * 7 mod 6) code points of a looping sentence. The texts are cut once per
 * process (and their events' JSON written once per style, see payloadOf); each stream gets steps of its own, which a
 * hook may change.
 */
function* longAnswer(): Iterable<Step> {
  for (const chunk of LONG_ANSWER) yield text(chunk);
}

function cutLongAnswer(): string[] {
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < 200; i++) {
    const size = 5 + ((i * 7) % 6);
    let chunk = "";
    for (let j = 0; j < size; j++) chunk += LONG_SOURCE[(at + j) % LONG_SOURCE.length];
    at += size;
    out.push(chunk);
  }
  return out;
}

const LONG_ANSWER: readonly string[] = cutLongAnswer();

/** The long answer's texts (payloadOf asks whether a text is one of them). */
export const LONG_ANSWER_TEXTS: ReadonlySet<string> = new Set(LONG_ANSWER);
