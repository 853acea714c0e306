/** Machine report: the run result as schemas/report.schema.json describes it. */
import type { RunResult } from "../verdicts/result.js";

export function formatJson(result: RunResult): string {
  // The failures' exchanges are for the html report; the JSON report keeps to its schema.
  const { exchanges: _exchanges, ...report } = result;
  return `${JSON.stringify({ $schema: "https://agentwire.dev/schemas/report.schema.json", ...report }, null, 2)}\n`;
}
