/**
 * The command a report suggests for a failure runs what failed again: it carries the options that
 * shaped the run (faults, parameters, the mock's scenario...), and credentials only as placeholders.
 */
import { describe, expect, it } from "vitest";
import { runCliInProcess } from "../helpers/cli.js";
import { rerunWords, TEST_CLIENT_RERUN, TEST_RERUN } from "../../src/cli/rerun.js";

/** The console's rerun lines (the words after "replay:"). */
const rerunLines = (stdout: string) => [...stdout.matchAll(/^\s*replay: +(agentwire .*)$/gm)].map((m) => m[1]!);

describe("a failure's rerun command", () => {
  it("carries --fault and the other options of the run, and pasted it fails again", async () => {
    const r = await runCliInProcess(["test", "mcp-chat", "--quiet", "--fault", "sse-crlf", "--only", "mcp-chat/sse", "--set", "minGapMs=20", "--timeout", "5000", "--strict"]);
    expect(r.code).toBe(1);
    const line = rerunLines(r.stdout).find((l) => l.includes("--only mcp-chat/sse/lf-only"))!;
    expect(line).toBe(
      "agentwire test mcp-chat --only mcp-chat/sse/lf-only --fault sse-crlf --set minGapMs=20 --timeout 5000 --strict --save-transcript transcripts  (then agentwire replay transcripts/<file>.jsonl)",
    );
    // As pasted, without its transcript (the words need no quotes).
    const again = await runCliInProcess([...line.split("  (then")[0]!.split(" ").slice(1, -2), "--quiet"]);
    expect(again.code, again.stdout).toBe(1);
    expect(again.stdout).toMatch(/FAIL\s+mcp-chat\/sse\/lf-only/);
  });

  it("shows --header and --token as placeholders, never their values, --no-redact included", async () => {
    for (const redact of [[], ["--no-redact"]]) {
      const r = await runCliInProcess(["test", "mcp-chat", "--quiet", "--fault", "sse-crlf", "--only", "mcp-chat/sse/lf-only", "--header", "X-Api-Key: s3cret-h", "--token", "s3cret-t", ...redact]);
      const [line] = rerunLines(r.stdout);
      expect(line).toContain("--header 'X-Api-Key: [redacted]' --token '[redacted]'");
      // --no-redact keeps them in the evidence and the curl command, never in the rerun command.
      expect(redact.length ? line : r.stdout).not.toMatch(/s3cret/);
    }
  });

  it("of test-client carries the mock's scenario and settings", async () => {
    const client = `fetch(process.env.MCP_CHAT_URL + "/chat/stream", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).then((r) => r.text())`;
    const r = await runCliInProcess(["test-client", "mcp-chat", "--quiet", "--scenario", "two-tools", "--set", "notConnected=http-409", "--", process.execPath, "-e", client]);
    const line = rerunLines(r.stdout).find((l) => l.includes("--only mcp-chat/client/chat-request"));
    expect(line).toContain("--only mcp-chat/client/chat-request --scenario two-tools --set notConnected=http-409 --save-transcript transcripts -- ");
    // The client command is quoted as a shell reads it, so the line can be pasted.
    expect(line).toContain(` -e '${client.replace(/'/g, "'\\''")}'`);
  });

  it("writes a credential given as a setting (--set apiKey=…, --set token=…) as a placeholder", () => {
    expect(rerunWords({ set: ["apiKey=sk-SECRET999", "token=t0k3n", "notConnected=http-409"] }, TEST_CLIENT_RERUN)).toEqual(["--set", "apiKey=[redacted]", "--set", "token=[redacted]", "--set", "notConnected=http-409"]);
  });

  it("writes a switch when it is on, a --no- option when it is off, and nothing for defaults", () => {
    expect(rerunWords({ keepConnection: true, exit: false, pingWait: false, strict: true, quiet: true }, TEST_RERUN)).toEqual(["--keep-connection", "--no-exit", "--no-ping-wait"]);
    expect(rerunWords({ keepConnection: false, exit: true, pingWait: true, fault: [], prompt: "" }, TEST_RERUN)).toEqual([]);
    expect(rerunWords({ header: ["Authorization: Bearer x", "X-A:b"], token: "t", prompt: "say 'hi'" }, TEST_RERUN)).toEqual([
      "--prompt",
      "say 'hi'",
      "--header",
      "Authorization: [redacted]",
      "--header",
      "X-A: [redacted]",
      "--token",
      "[redacted]",
    ]);
  });
});
