/**
 * The toolbar's view of `messaging.getMessage` (published semantics, §3 r16–r18) and its reducer: the agent's
 * current message as a list of text and image parts. Pure and browser-safe; states are never mutated.
 */
import type { AgentMessageTextPart, AgentMessageUpdate } from "../generated/stagewise-chat.js";
import { firstJsonDifference } from "./json-diff.js";
import { isRecord, joined, violation, type Reduced } from "./reduced.js";
import type { StateDifference } from "./snapshot-compare.js";

/** A stored image part; `replacing` only says how an update applies, so it is not kept. */
export interface MessagingImagePart {
  type: "image";
  mimeType: string;
  data: string;
}

export type MessagingPart = AgentMessageTextPart | MessagingImagePart;

export interface MessagingMessage {
  readonly messageId: string;
  readonly createdAt: string;
  readonly parts: readonly MessagingPart[];
}

/** No message yet (before the first update of a subscription). */
export type MessagingState = MessagingMessage | null;

export type MessagingReduced = Reduced<MessagingState>;

const R17 = "r17";

/**
 * Applies one AgentMessageUpdate (r17). With no message, another `messageId` or `resync:true` the update is the whole
 * message, its parts at contentIndex exactly 0..n−1; otherwise each part in order extends the message: at index ==
 * length it is pushed, below length text concatenates and an image is replaced (`replacing:true`) or has `data`
 * appended; a type mismatch or an index beyond the end is a violation. Never throws.
 */
export function applyMessageUpdate(state: MessagingState, update: AgentMessageUpdate): MessagingReduced {
  if (!isRecord(update) || typeof update.messageId !== "string" || !Array.isArray(update.updateParts)) {
    return violation(R17, "update", "", "not an AgentMessageUpdate with messageId and updateParts");
  }
  for (const [i, entry] of update.updateParts.entries()) {
    const bad = partShape(entry);
    if (bad) return violation(R17, "update", `/updateParts/${i}${bad.path}`, bad.message);
  }
  if (state === null || update.messageId !== state.messageId || update.resync === true) return whole(update);
  const parts = state.parts.slice();
  for (const [i, { contentIndex, part }] of update.updateParts.entries()) {
    const path = `/updateParts/${i}`;
    if (contentIndex > parts.length) {
      return violation(R17, "index-beyond-end", `${path}/contentIndex`, `contentIndex ${contentIndex}, but the message has ${parts.length} parts`);
    }
    if (contentIndex === parts.length) {
      parts.push(stored(part));
      continue;
    }
    const existing = parts[contentIndex]!;
    if (existing.type !== part.type) {
      return violation(R17, "type-mismatch", `${path}/part/type`, `${part.type} update onto the ${existing.type} part at ${contentIndex}`);
    }
    if (part.type === "text") parts[contentIndex] = { type: "text", text: joined((existing as AgentMessageTextPart).text, part.text) };
    else if (part.replacing) parts[contentIndex] = stored(part);
    else parts[contentIndex] = { ...(existing as MessagingImagePart), data: joined((existing as MessagingImagePart).data, part.data) };
  }
  return { ok: true, state: { ...state, parts } };
}

function whole(update: AgentMessageUpdate): MessagingReduced {
  const parts: MessagingPart[] = new Array(update.updateParts.length);
  for (const [i, { contentIndex, part }] of update.updateParts.entries()) {
    if (contentIndex >= parts.length || parts[contentIndex] !== undefined) {
      return violation(R17, "resync-indices", `/updateParts/${i}/contentIndex`, `a whole message needs contentIndex exactly 0..${parts.length - 1}, each once; got ${contentIndex}`);
    }
    parts[contentIndex] = stored(part);
  }
  return { ok: true, state: { messageId: update.messageId, createdAt: String(update.createdAt), parts } };
}

function stored(part: AgentMessageUpdate["updateParts"][number]["part"]): MessagingPart {
  return part.type === "text" ? { type: "text", text: part.text } : { type: "image", mimeType: part.mimeType, data: part.data };
}

function partShape(entry: unknown): { path: string; message: string } | undefined {
  if (!isRecord(entry)) return { path: "", message: "not an update part" };
  if (!Number.isSafeInteger(entry.contentIndex) || (entry.contentIndex as number) < 0) return { path: "/contentIndex", message: "contentIndex is not a non-negative integer" };
  const part = entry.part;
  if (!isRecord(part)) return { path: "/part", message: "part is not an object" };
  if (part.type === "text") return typeof part.text === "string" ? undefined : { path: "/part/text", message: "text is not a string" };
  if (part.type === "image") {
    return typeof part.data === "string" && typeof part.mimeType === "string" ? undefined : { path: "/part", message: "image part needs mimeType and data strings" };
  }
  return { path: "/part/type", message: `unknown part type ${JSON.stringify(part.type)}` };
}

/**
 * messaging/reduced-equals-fresh: the first difference between a reduced message and a fresh resync's (messageId and
 * parts; createdAt may be written differently), or null.
 */
export function compareMessagingStates(reduced: MessagingState, fresh: MessagingState): StateDifference | null {
  const view = (s: MessagingState) => (s === null ? null : { messageId: s.messageId, parts: s.parts });
  const diff = firstJsonDifference(view(reduced), view(fresh));
  if (!diff) return null;
  return { ...diff, message: `${diff.path || "/"}: reduced ${JSON.stringify(diff.actual) ?? "nothing"}, resync ${JSON.stringify(diff.expected) ?? "nothing"}` };
}
