/** The report formats by name (apart from the formatters, so option parsing loads none of them). */
export type ReporterName = "console" | "json" | "junit" | "ndjson" | "markdown" | "html";
export const REPORTERS: ReporterName[] = ["console", "json", "junit", "ndjson", "markdown", "html"];

/** Formats that show the events around each failure: the run keeps its transcript for them. */
export const NEEDS_CONTEXT: ReadonlySet<ReporterName> = new Set(["html"]);

/**
 * Where a check's contract sentence stands, as a reader finds it: the protocol's contract and the
 * section (the source file's name stays in the JSON report's `ref.seed`).
 */
export function contractPlace(c: { id: string; ref: { section: string } }): string {
  return `${c.id.slice(0, c.id.indexOf("/"))} contract, ${c.ref.section}`;
}
