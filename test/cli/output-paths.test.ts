/** A report or transcript path whose folder cannot be made is refused at once, wherever it points. */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

describe.runIf(existsSync("/proc/self"))("an output folder under /proc", () => {
  it("is a usage error (exit 2) before the run, not a hang", async () => {
    const r = await runCli(["test", "mcp-chat", "--reporter", "json", "--output", "/proc/agentwire-nope/report.json"], { timeoutMs: 15_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--output \/proc\/agentwire-nope\/report\.json cannot be written/);
    const t = await runCli(["test", "mcp-chat", "--save-transcript", "/proc/agentwire-nope/transcripts"], { timeoutMs: 15_000 });
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(/--save-transcript .* cannot be written/);
  });
});
