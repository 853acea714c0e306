/**
 * Field checks of the client messages (§2.1), hand-written so the engine stays small and
 * browser-safe. Each returns the first problem as "<json pointer> <message>", or null. Keys the
 * contract does not name are tolerated, as pi does.
 */
import type { Json } from "./types.js";

export const COMMANDS = [
  "prompt",
  "abort",
  "clear_queue",
  "get_state",
  "get_messages",
  "list_sessions",
  "switch_session",
  "new_session",
  "get_context_usage",
] as const;

export type CommandType = (typeof COMMANDS)[number];

export const UI_RESPONSE = "extension_ui_response";

export function isCommandType(t: unknown): t is CommandType {
  return typeof t === "string" && (COMMANDS as readonly string[]).includes(t);
}

const kind = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

function optionalString(m: Json, key: string): string | null {
  return m[key] !== undefined && typeof m[key] !== "string" ? `/${key} must be string` : null;
}

function oneOf(m: Json, key: string, values: readonly string[]): string | null {
  if (m[key] === undefined) return null;
  return values.includes(m[key] as string) ? null : `/${key} must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;
}

function images(v: unknown): string | null {
  if (v === undefined) return null;
  if (!Array.isArray(v)) return "/images must be array";
  for (let i = 0; i < v.length; i++) {
    const img = v[i] as unknown;
    if (kind(img) !== "object") return `/images/${i} must be object`;
    const o = img as Json;
    if (o.type !== "image") return `/images/${i}/type must be "image"`;
    if (typeof o.mimeType !== "string") return `/images/${i}/mimeType must be string`;
    if (typeof o.data !== "string") return `/images/${i}/data must be string`;
  }
  return null;
}

function promptLike(m: Json): string | null {
  if (typeof m.message !== "string") return m.message === undefined ? "must have property 'message'" : "/message must be string";
  return images(m.images) ?? oneOf(m, "streamingBehavior", ["steer", "followUp"]);
}

/** The first problem of a command of a known type, or null. */
export function commandProblem(type: string, m: Json): string | null {
  const id = optionalString(m, "id");
  if (id) return id;
  switch (type) {
    case "prompt":
      return promptLike(m);
    case "steer":
    case "follow_up":
      return typeof m.message !== "string" ? "/message must be string" : images(m.images);
    case "list_sessions":
      return oneOf(m, "scope", ["cwd", "all"]) ?? optionalString(m, "sessionDir");
    case "switch_session":
      if (typeof m.sessionPath !== "string") {
        return m.sessionPath === undefined ? "must have property 'sessionPath'" : "/sessionPath must be string";
      }
      return m.sessionPath === "" ? "/sessionPath must NOT have fewer than 1 characters" : null;
    case "new_session":
      return optionalString(m, "parentSession");
    default:
      return null;
  }
}

/** A dialog answer as the server reads it (§3 rule 26). */
export interface DialogAnswer {
  value?: string;
  confirmed?: boolean;
  cancelled?: boolean;
}

/** Reads an extension_ui_response leniently: cancelled wins, then confirmed, then value. */
export function answerOf(m: Json): DialogAnswer {
  if (m.cancelled === true) return { cancelled: true };
  if (typeof m.confirmed === "boolean") return { confirmed: m.confirmed };
  if (typeof m.value === "string") return { value: m.value };
  return { cancelled: true };
}
