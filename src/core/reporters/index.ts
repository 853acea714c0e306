import type { RunResult } from "../result.js";
import { formatConsole } from "./console.js";
import { formatJson } from "./json.js";
import { formatJunit } from "./junit.js";
import type { ReporterName } from "./names.js";

export { REPORTERS, type ReporterName } from "./names.js";

/** Several runs (one per protocol) in one report: JSON becomes an array, JUnit one file of suites. */
export function formatReport(name: ReporterName, results: RunResult[], opts: { colour?: boolean } = {}): string {
  switch (name) {
    case "console":
      return `${results.map((r) => formatConsole(r, opts)).join("\n\n")}\n`;
    case "json":
      return results.length === 1 ? formatJson(results[0]!) : `${JSON.stringify(results.map((r) => JSON.parse(formatJson(r))), null, 2)}\n`;
    case "junit":
      return results.length === 1 ? formatJunit(results[0]!) : mergeJunit(results.map(formatJunit));
  }
}

function mergeJunit(docs: string[]): string {
  const suites = docs.map((d) => d.split("\n").filter((l) => l.startsWith("  <testsuite") || l.startsWith("    ") || l.startsWith("  </testsuite")).join("\n"));
  return [`<?xml version="1.0" encoding="UTF-8"?>`, `<testsuites name="agentwire">`, ...suites, `</testsuites>`, ""].join("\n");
}

export { formatConsole, formatJson, formatJunit };
