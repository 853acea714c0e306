/**
 * What the kit tells its own developers under AGENTWIRE_DEBUG: errors it keeps out of reports (a report is read as the
 * verdict on a target) but that point at a bug in the kit. Read at each call, so a test can turn it on.
 */
export function debugging(): boolean {
  return typeof process !== "undefined" && Boolean(process.env?.AGENTWIRE_DEBUG);
}

/** One line to stderr under AGENTWIRE_DEBUG; nothing otherwise. */
export function debugLine(text: string): void {
  if (debugging()) process.stderr.write(`${text.replace(/\s*\n\s*/g, " ")}\n`);
}

/** The error's name and message and where it was thrown (the first frame of its stack), on one line. */
export function errorLine(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const at = err.stack?.split("\n").find((l) => l.trimStart().startsWith("at "))?.trim();
  return `${err.name}: ${err.message}${at ? ` (${at})` : ""}`;
}
