/** Machine report: the run result as schemas/report.schema.json describes it. */
import type { RunResult } from "../result.js";

export function formatJson(result: RunResult): string {
  return `${JSON.stringify({ $schema: "https://agentwire.dev/schemas/report.schema.json", ...result }, null, 2)}\n`;
}
