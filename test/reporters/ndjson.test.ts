/**
 * --reporter ndjson: one line per verdict, one per finished run, a closing summary line, every
 * line valid against schemas/report-line.schema.json; verdict lines go out as the run decides them.
 */
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openReports } from "../../src/cli/report-output.js";
import type { CheckResult } from "../../src/core/verdicts/result.js";
import { runCliInProcess } from "../helpers/cli.js";
import { lineValidator } from "../helpers/report-lines.js";

const tmp = () => mkdtempSync(join(tmpdir(), "agentwire-ndjson-"));

describe.concurrent("ndjson reporter", () => {
  it("writes verdict lines, a run line per protocol and a last summary line, all valid against the schema", async () => {
    const r = await runCliInProcess(["test", "--quiet", "--only", "mcp-chat/sse", "--only", "openai-chat/models", "--reporter", "ndjson"]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    const validate = lineValidator();
    for (const l of lines) expect(validate(l), `${JSON.stringify(l).slice(0, 200)}\n${JSON.stringify(validate.errors)}`).toBe(true);
    const verdicts = lines.filter((l) => l.type === "verdict");
    expect(new Set(verdicts.map((l) => l.protocol))).toEqual(new Set(["mcp-chat", "openai-chat"]));
    expect(verdicts.every((l) => typeof l.durationMs === "number")).toBe(true);
    expect(lines.filter((l) => l.type === "run").map((l) => l.protocol).sort()).toEqual(["mcp-chat", "openai-chat"]);
    const last = lines.at(-1);
    expect(last).toMatchObject({ type: "summary", runs: 2, exitCode: 0 });
    expect(last.summary.pass).toBe(verdicts.filter((l) => l.verdict === "pass").length);
  });

  it("a failing run, into a file: the failure's line carries its evidence and its baseline entry; the lines stay valid", async () => {
    const dir = tmp();
    const baseline = join(dir, "b.yaml");
    writeFileSync(baseline, "failures:\n  - id: mcp-chat/sse/lf-only\n    reason: accepted for now\n");
    const out = join(dir, "out", "r.ndjson");
    const r = await runCliInProcess(["test", "mcp-chat", "--quiet", "--fault", "sse-crlf", "--only", "mcp-chat/sse", "--baseline", baseline, "--reporter", "ndjson", "--output", out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    const lines = readFileSync(out, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    const validate = lineValidator();
    for (const l of lines) expect(validate(l), JSON.stringify(validate.errors)).toBe(true);
    const failed = lines.find((l) => l.id === "mcp-chat/sse/lf-only");
    expect(failed).toMatchObject({ type: "verdict", verdict: "fail", baseline: { status: "known", reason: "accepted for now" } });
    expect(failed.evidence.length).toBeGreaterThan(0);
    expect(lines.find((l) => l.type === "run").baseline).toMatchObject({ known: 1, problems: [] });
  });

  it("writes each verdict line when it is handed over, before the run's end", () => {
    const out = join(tmp(), "live.ndjson");
    const session = openReports([{ reporter: "ndjson", output: out }]);
    const check = { id: "mcp-chat/sse/lf-only", level: "MUST", side: "server", title: "t", rule: "r", ref: { seed: "s", section: "§", quote: "q" }, verdict: "pass", outcome: "pass", message: "ok", evidence: [] } as CheckResult;
    session.onVerdict!(check, { protocol: "mcp-chat", side: "server" });
    const now = readFileSync(out, "utf8");
    expect(now.split("\n").filter(Boolean)).toHaveLength(1);
    expect(JSON.parse(now)).toMatchObject({ type: "verdict", id: "mcp-chat/sse/lf-only" });
    session.finish([]);
    expect(JSON.parse(readFileSync(out, "utf8").trimEnd().split("\n").at(-1)!)).toMatchObject({ type: "summary", runs: 0 });
  });
});
