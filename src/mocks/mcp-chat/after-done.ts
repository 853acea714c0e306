/**
 * Streams the mcp-chat mock holds open after their sentinel (the open-after-done framing, the
 * hold-open-after-done fault, a `closeDelay` of the user's): the mock notes when `[DONE]` went out
 * and who ended the body, the client or the mock after its hold (core/mock/after-done.ts).
 * client-parse/done-terminates reads these notes beside the case's request. Browser-safe.
 */
import { watchAfterDone } from "../../core/mock/after-done.js";
import { isPaced, type MockReply } from "../../core/mock/exchange.js";
import { pacedBody } from "../../core/mock/paced-body.js";
import type { TranscriptBus } from "../../core/transcript/transcript.js";

/** Note name; values as `AfterDoneNote` (core/mock/after-done.ts). */
export const AFTER_DONE_NOTE = "mcp-chat/after-done";

/** The reply, its body watched when it is held open after its end; any other reply as it is. */
export function watchHeldStream(reply: MockReply, bus: TranscriptBus | undefined, exchange: string | null, signal: AbortSignal): MockReply {
  if (!bus || exchange === null || !isPaced(reply.body) || reply.body.closeDelay <= 0) return reply;
  const body = pacedBody(reply.body.paced, reply.body.closeDelay, signal);
  return { ...reply, body: watchAfterDone(body, bus, AFTER_DONE_NOTE, exchange, signal) };
}
