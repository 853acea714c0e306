/**
 * What a mock's reply repeats of the user's text. A reply is streamed in small deltas, so one that
 * echoed the whole prompt would keep the agent busy (and its memory full) for as long as the prompt
 * is big; a capped echo keeps every turn short whatever was sent. Browser-safe.
 */

/** UTF-16 units of the user's text a reply repeats at most. */
export const ECHO_MAX_UNITS = 200;

/** `text` as a reply repeats it: whole when short, else its start and "…" (never cutting a surrogate pair). */
export function echoed(text: string, max = ECHO_MAX_UNITS): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}
