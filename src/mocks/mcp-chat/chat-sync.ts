/**
 * The optional non-streaming `POST /chat`: the same scenario folded into one ChatResponse. For the
 * default scenario this is exactly the seed's §6 body.
 */
import { isEvent, isSentinel, type Step } from "./events.js";
import type { Json } from "./hooks.js";

export type SyncAnswer = { ok: true; body: Json } | { ok: false; status: number; detail: string };

export function chatSyncAnswer(steps: Iterable<Step>): SyncAnswer {
  let response = "";
  const calls: Json[] = [];
  for (const s of steps) {
    const d = s.data;
    if (isEvent(d, "tool_start")) {
      calls.push({ name: d.name, args: d.args, ...(s.result !== undefined ? { result: s.result } : {}) });
    } else if (isEvent(d, "text")) {
      response += String(d.content);
    } else if (isSentinel(d) && d.startsWith("[ERROR]")) {
      // A failed answer is a server error here: there is no stream to carry [ERROR].
      return { ok: false, status: 502, detail: d.slice("[ERROR] ".length) };
    }
  }
  return { ok: true, body: { response, tool_calls: calls } };
}
