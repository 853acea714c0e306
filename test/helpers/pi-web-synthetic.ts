/** pi-web conveniences on the shared transcript builder: a long stream for memory and speed tests, and a scripted conversation. */
import type { TranscriptEvent } from "../../src/core/transcript/transcript.js";
import { Transcript } from "./synthetic-transcript.js";

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
export const partialAssistant = { role: "assistant", content: [], api: "mock", provider: "mock", model: "mock-model", usage, stopReason: "stop", timestamp: 1 };

/**
 * One run on one main connection: agent_start, an assistant message whose text block gets `n`
 * deltas of `delta`, message_end, agent_end. Events are generated lazily (nothing is kept).
 */
export function* longStream(n: number, delta = "ab"): Generator<TranscriptEvent> {
  const s = new Transcript({ probe: "long", step: 0.01 });
  const frame = (data: string) => s.recv("w1", data).take();
  yield* s.open("w1", "main").send("w1", "prompt:long", '{"id":"aw-1","type":"prompt","message":"scenario:long go"}').take();
  yield* frame('{"type":"response","id":"aw-1","command":"prompt","success":true}');
  yield* frame('{"type":"agent_start"}');
  yield* frame(JSON.stringify({ type: "message_start", message: partialAssistant }));
  const partial = JSON.stringify(partialAssistant);
  yield* frame(`{"type":"message_update","message":${partial},"assistantMessageEvent":{"type":"text_start","contentIndex":0}}`);
  const d = JSON.stringify(delta);
  for (let i = 0; i < n; i++) yield* frame(`{"type":"message_update","message":${partial},"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":${d}}}`);
  const text = delta.repeat(n);
  yield* frame(`{"type":"message_update","message":${partial},"assistantMessageEvent":{"type":"text_end","contentIndex":0,"content":${JSON.stringify(text)}}}`);
  const final = { ...partialAssistant, content: [{ type: "text", text }] };
  yield* frame(JSON.stringify({ type: "message_end", message: final }));
  yield* frame(JSON.stringify({ type: "agent_end", messages: [final] }));
  yield* s.close("w1").take();
}

/**
 * A hand-written conversation on the main connection, for checks whose case the mock does not
 * play (a real agent's legal choices): `send` records a labelled command, `recv` a server
 * message, `note` a probe fact. Times advance 1 ms per event.
 */
export class PiWebScript {
  private readonly s = new Transcript();
  private ids = 0;

  constructor(label = "main", private readonly connection = "w1") {
    this.s.open(connection, label);
  }

  /** Sends a command with a fresh id and returns the id. */
  send(label: string, command: Record<string, unknown>): string {
    const id = `aw-${++this.ids}`;
    this.s.send(this.connection, label, { id, ...command });
    return id;
  }

  recv(message: Record<string, unknown>): this {
    this.s.recv(this.connection, message);
    return this;
  }

  /** A success response to the command `id` of type `command`. */
  ok(id: string, command: string, data?: unknown): this {
    return this.recv({ type: "response", id, command, success: true, ...(data !== undefined ? { data } : {}) });
  }

  note(name: string, value: unknown): this {
    this.s.note(name, value);
    return this;
  }

  /** A whole run: agent_start, the messages (each start + end), agent_end with `ended` (default all). */
  run(messages: Record<string, unknown>[], ended: Record<string, unknown>[] = messages): this {
    this.recv({ type: "agent_start" }).recv({ type: "turn_start" });
    for (const m of messages) this.recv({ type: "message_start", message: m }).recv({ type: "message_end", message: m });
    const last = [...messages].reverse().find((m) => m.role === "assistant");
    if (last) this.recv({ type: "turn_end", message: last, toolResults: [] });
    return this.recv({ type: "agent_end", messages: ended });
  }

  close(): TranscriptEvent[] {
    return this.s.close(this.connection).events;
  }
}

export const userMessage = (text: string, timestamp = 1) => ({ role: "user", content: [{ type: "text", text }], timestamp });
export const assistantText = (text: string, timestamp = 2) => ({ ...partialAssistant, content: [{ type: "text", text }], timestamp });
export const assistantError = (errorMessage: string, timestamp = 2) => ({ ...partialAssistant, content: [], stopReason: "error", errorMessage, timestamp });
