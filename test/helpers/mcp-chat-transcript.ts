/** mcp-chat conveniences on the shared builder: a chat stream as the UI posts it, and an event's SSE text. */
import type { TranscriptEvent } from "../../src/core/transcript/transcript.js";
import { Transcript, type SseSpec } from "./synthetic-transcript.js";

/** One POST /chat/stream from the UI's origin, answered with an event stream. */
export const chatStreamExchange = (spec: Omit<SseSpec, "path">): TranscriptEvent[] =>
  new Transcript().sse({ path: "/chat/stream", requestHeaders: { origin: "http://localhost:3000" }, ...spec }).events;

/** One `data:` event carrying `json`. */
export const dataEvent = (json: object): string => `data: ${JSON.stringify(json)}\n\n`;
