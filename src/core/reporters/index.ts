import type { RunResult } from "../verdicts/result.js";
import { formatConsole, formatRecap } from "./console.js";
import { formatHtml } from "./html.js";
import { formatMarkdown } from "./markdown.js";
import { formatNdjson } from "./ndjson.js";
import { formatJson } from "./json.js";
import { formatJunit, formatJunitRuns } from "./junit.js";
import type { ReporterName } from "./names.js";

export { REPORTERS, type ReporterName } from "./names.js";

/** Several runs (one per protocol) in one report: JSON becomes an array, JUnit one file of suites. */
export function formatReport(name: ReporterName, results: RunResult[], opts: { colour?: boolean } = {}): string {
  switch (name) {
    case "console":
    {
      const recap = formatRecap(results, opts);
      return `${results.map((r) => formatConsole(r, opts)).join("\n\n")}${recap ? `\n${recap}` : ""}\n`;
    }
    case "json":
      return results.length === 1 ? formatJson(results[0]!) : `${JSON.stringify(results.map((r) => JSON.parse(formatJson(r))), null, 2)}\n`;
    case "junit":
      return formatJunitRuns(results);
    case "ndjson":
      return formatNdjson(results);
    case "markdown":
      return formatMarkdown(results);
    case "html":
      return formatHtml(results);
  }
}

export { formatConsole, formatHtml, formatJson, formatJunit, formatMarkdown, formatNdjson };
