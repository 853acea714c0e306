/** The report formats by name (apart from the formatters, so option parsing loads none of them). */
export type ReporterName = "console" | "json" | "junit" | "ndjson" | "markdown" | "html";
export const REPORTERS: ReporterName[] = ["console", "json", "junit", "ndjson", "markdown", "html"];

/** Formats that show the events around each failure: the run keeps its transcript for them. */
export const NEEDS_CONTEXT: ReadonlySet<ReporterName> = new Set(["html"]);
