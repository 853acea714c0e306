/** Hand-built pi-web transcripts: a long stream of message_update events for memory and speed tests. */
import type { TranscriptEvent } from "../../src/core/transcript.js";

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
export const partialAssistant = { role: "assistant", content: [], api: "mock", provider: "mock", model: "mock-model", usage, stopReason: "stop", timestamp: 1 };

/**
 * One run on one main connection: agent_start, an assistant message whose text block gets `n`
 * deltas of `delta`, message_end, agent_end. Events are generated lazily (nothing is kept).
 */
export function* longStream(n: number, delta = "ab"): Generator<TranscriptEvent> {
  let seq = 0;
  let t = 0;
  const base = () => ({ seq: seq++, t: (t += 0.01), probe: "long" });
  const frame = (data: string): TranscriptEvent => ({ ...base(), kind: "ws-frame", connection: "w1", direction: "in", binary: false, data });
  yield { ...base(), kind: "ws-open", connection: "w1", url: "ws://127.0.0.1:1/ws", label: "main" };
  yield { ...base(), kind: "ws-frame", connection: "w1", direction: "out", binary: false, data: '{"id":"aw-1","type":"prompt","message":"scenario:long go"}', label: "prompt:long" };
  yield frame('{"type":"response","id":"aw-1","command":"prompt","success":true}');
  yield frame('{"type":"agent_start"}');
  yield frame(JSON.stringify({ type: "message_start", message: partialAssistant }));
  const partial = JSON.stringify(partialAssistant);
  yield frame(`{"type":"message_update","message":${partial},"assistantMessageEvent":{"type":"text_start","contentIndex":0}}`);
  const d = JSON.stringify(delta);
  for (let i = 0; i < n; i++) yield frame(`{"type":"message_update","message":${partial},"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":${d}}}`);
  const text = delta.repeat(n);
  yield frame(`{"type":"message_update","message":${partial},"assistantMessageEvent":{"type":"text_end","contentIndex":0,"content":${JSON.stringify(text)}}}`);
  const final = { ...partialAssistant, content: [{ type: "text", text }] };
  yield frame(JSON.stringify({ type: "message_end", message: final }));
  yield frame(JSON.stringify({ type: "agent_end", messages: [final] }));
  yield { ...base(), kind: "ws-close", connection: "w1", code: 1000, by: "kit" };
}
