/** The report formats by name (apart from the formatters, so option parsing loads none of them). */
export type ReporterName = "console" | "json" | "junit";
export const REPORTERS: ReporterName[] = ["console", "json", "junit"];
