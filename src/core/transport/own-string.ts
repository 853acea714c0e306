/**
 * A string to keep past its event: a copy that shares no memory with the text it was cut from.
 *
 * V8 makes a slice of 13 characters or more a view of the whole string it was cut from, and a
 * stream's payloads hold such slices (StreamJson puts an envelope's changed strings in as slices
 * of the event's data, itself a slice of the read it came in). A rule that keeps one string per
 * event, such as a tool call's id, would keep every read of the stream alive with it.
 */
export function ownString(s: string): string {
  // JSON.parse builds its strings afresh; the round trip keeps every code unit, lone surrogates included.
  return JSON.parse(JSON.stringify(s)) as string;
}
