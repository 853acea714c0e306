/** Machine report: the run result as schemas/report.schema.json describes it. */
import type { RunResult } from "../verdicts/result.js";

export function formatJson(result: RunResult): string {
  // The failures' exchanges are for the html report, the rerun words for the commands the reports
  // print; the JSON report keeps to its schema.
  const { exchanges: _exchanges, rerun: _rerun, ...report } = result;
  return `${JSON.stringify({ $schema: "https://agentwire.dev/schemas/report.schema.json", ...report }, null, 2)}\n`;
}
