/**
 * Reading a ChatCompletionRequest body as the client-side checks need it: the messages, the tool
 * calls they carry and the tool results that answer them. Pure functions over parsed JSON.
 */

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export interface HistoryCall {
  /** Index of the assistant message in `messages`. */
  message: number;
  /** Index of the call in its `tool_calls`. */
  position: number;
  id: unknown;
  name: unknown;
  arguments: unknown;
}

export function messagesOf(body: unknown): Json[] {
  if (!isObject(body) || !Array.isArray(body.messages)) return [];
  return body.messages.filter(isObject);
}

/** Every call of every assistant message, in order. */
export function historyCalls(body: unknown): HistoryCall[] {
  const out: HistoryCall[] = [];
  if (!isObject(body) || !Array.isArray(body.messages)) return out;
  body.messages.forEach((m, i) => {
    if (!isObject(m) || m.role !== "assistant" || !Array.isArray(m.tool_calls)) return;
    m.tool_calls.forEach((tc, j) => {
      const fn = isObject(tc) && isObject(tc.function) ? tc.function : {};
      out.push({ message: i, position: j, id: isObject(tc) ? tc.id : undefined, name: fn.name, arguments: fn.arguments });
    });
  });
  return out;
}

/** The calls of assistant message `i`, or [] when it has none. */
export function callsOf(message: unknown): { id: unknown; name: unknown; arguments: unknown }[] {
  if (!isObject(message) || !Array.isArray(message.tool_calls)) return [];
  return message.tool_calls.map((tc) => {
    const fn = isObject(tc) && isObject(tc.function) ? tc.function : {};
    return { id: isObject(tc) ? tc.id : undefined, name: fn.name, arguments: fn.arguments };
  });
}

/** Parses a string as JSON; undefined when it does not parse. */
export function tryJson(s: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(s) as unknown };
  } catch {
    return undefined;
  }
}

/** Names of the request's `tools[]` entries (strings only). */
export function toolNames(body: unknown): string[] {
  if (!isObject(body) || !Array.isArray(body.tools)) return [];
  return body.tools.flatMap((t) => (isObject(t) && isObject(t.function) && typeof t.function.name === "string" ? [t.function.name] : []));
}
