/**
 * r8's invariant: the state reduced from a snapshot plus deltas equals a fresh snapshot's state at the same seq,
 * compared by exactly the fields r8 lists. Browser-safe.
 */
import type { ChatState, ChatSummary } from "./chat-state.js";
import { firstJsonDifference, pointerToken, type JsonDifference } from "./json-diff.js";

export interface StateDifference extends JsonDifference {
  /** One line for a check's detail, e.g. `/chats/c1/title: reduced "A", snapshot "B"`. */
  message: string;
}

/**
 * The first difference between `reduced` (actual) and `fresh` (expected), or null when r8 holds. Chats are matched by
 * id, whatever their order (`/chats/<id>/title`, `createdAt` compared in milliseconds, `isActive`, `messageCount`),
 * then `/activeChatId`, the active chat's `/messages` deep-equal in order, and `/isWorking`.
 */
export function compareChatStates(reduced: ChatState, fresh: ChatState): StateDifference | null {
  const reducedById = new Map(reduced.chats.map((chat) => [chat.id, chat]));
  const freshIds = new Set<string>();
  for (const expected of fresh.chats) {
    freshIds.add(expected.id);
    const base = `/chats/${pointerToken(expected.id)}`;
    const actual = reducedById.get(expected.id);
    if (!actual) return difference(base, undefined, expected, "chat missing from the reduced state");
    const diff = chatDifference(base, actual, expected);
    if (diff) return diff;
  }
  for (const actual of reduced.chats) {
    if (!freshIds.has(actual.id)) return difference(`/chats/${pointerToken(actual.id)}`, actual, undefined, "chat absent from the snapshot");
  }
  if (reduced.activeChatId !== fresh.activeChatId) return difference("/activeChatId", reduced.activeChatId, fresh.activeChatId);
  const messages = firstJsonDifference(reduced.messages, fresh.messages, "/messages");
  if (messages) return difference(messages.path, messages.actual, messages.expected);
  if (reduced.isWorking !== fresh.isWorking) return difference("/isWorking", reduced.isWorking, fresh.isWorking);
  return null;
}

function chatDifference(base: string, actual: ChatSummary, expected: ChatSummary): StateDifference | undefined {
  if (actual.title !== expected.title) return difference(`${base}/title`, actual.title, expected.title);
  if (!sameInstant(actual.createdAt, expected.createdAt)) return difference(`${base}/createdAt`, actual.createdAt, expected.createdAt);
  if (actual.isActive !== expected.isActive) return difference(`${base}/isActive`, actual.isActive, expected.isActive);
  if (actual.messageCount !== expected.messageCount) return difference(`${base}/messageCount`, actual.messageCount, expected.messageCount);
  return undefined;
}

/** Dates compare in milliseconds, so `…00Z` and `…00.000Z` agree; unparsable ones must match as text. */
function sameInstant(a: string, b: string): boolean {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  return Number.isNaN(ta) || Number.isNaN(tb) ? a === b : ta === tb;
}

function difference(path: string, actual: unknown, expected: unknown, note?: string): StateDifference {
  return { path, actual, expected, message: `${path}: ${note ?? `reduced ${show(actual)}, snapshot ${show(expected)}`}` };
}

function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
