/**
 * Credentials the user gives (--header of any name, --token) never reach transcripts or reports
 * in clear, unless they ask for it with --no-redact.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { redact } from "../../src/core/transcript/transcript-file.js";
import { scrubDeep, scrubText, secretsOf } from "../../src/core/transcript/redaction.js";
import type { TranscriptEvent } from "../../src/core/transcript/transcript.js";
import { runCliInProcess } from "../helpers/cli.js";

const HEADER_SECRET = "hdr-s3cret-7f3a";
const TOKEN_SECRET = "tok-s3cret-91bc";

function transcriptOf(dir: string): string {
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("");
}

async function run(extra: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "agentwire-redact-"));
  const report = join(dir, "report.json");
  const transcripts = join(dir, "transcripts");
  const r = await runCliInProcess(
    [
      "test", "openai-chat", "--quiet", "--only", "openai-chat/auth",
      "--header", `X-Auth-Token: ${HEADER_SECRET}`, "--token", TOKEN_SECRET,
      "--save-transcript", transcripts, "--reporter", "json", "--output", report, ...extra,
    ],
  );
  expect(r.stderr).not.toMatch(/internal error/);
  return { transcript: transcriptOf(transcripts), report: readFileSync(report, "utf8") };
}

describe("redaction of user credentials", () => {
  it("hides a custom header's value in the transcript, whatever its name", async () => {
    const { transcript, report } = await run([]);
    expect(transcript).toContain('"x-auth-token":"[redacted]"');
    expect(transcript).not.toContain(HEADER_SECRET);
    expect(transcript).not.toContain(TOKEN_SECRET);
    expect(report).not.toContain(HEADER_SECRET);
    expect(report).not.toContain(TOKEN_SECRET);
  });

  it("hides a token carried in the target URL's query from the report", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentwire-redact-"));
    const report = join(dir, "report.json");
    // Nothing listens there: the report is written all the same, and names the target.
    await runCliInProcess(["test", "pi-web", "--quiet", "--url", `ws://127.0.0.1:9/ws?token=${TOKEN_SECRET}`, "--reporter", "json", "--output", report]);
    const text = readFileSync(report, "utf8");
    expect(text).toContain("token=[redacted]");
    expect(text).not.toContain(TOKEN_SECRET);
  });

  it("keeps them with --no-redact", async () => {
    const { transcript } = await run(["--no-redact"]);
    expect(transcript).toContain(HEADER_SECRET);
  });

  it("keeps a WebSocket upgrade's credentials with --no-redact, and only then", async () => {
    const wsRun = async (extra: string[]) => {
      const dir = mkdtempSync(join(tmpdir(), "agentwire-redact-"));
      await runCliInProcess(["test", "pi-web", "--quiet", "--only", "pi-web/conn/", "--header", `Authorization: Bearer ${HEADER_SECRET}`, "--save-transcript", dir, "--reporter", "json", "--output", join(dir, "r.json"), ...extra]);
      return readdirSync(dir).filter((f) => f.endsWith(".jsonl")).map((f) => readFileSync(join(dir, f), "utf8")).join("");
    };
    const hidden = await wsRun([]);
    expect(hidden).toContain('"kind":"ws-open"');
    expect(hidden).not.toContain(HEADER_SECRET);
    const kept = await wsRun(["--no-redact"]);
    expect(kept).toMatch(new RegExp(`"kind":"ws-open".*"authorization":"Bearer ${HEADER_SECRET}"`));
  });

  it("lists --no-redact in the help of test and test-client", async () => {
    for (const cmd of ["test", "test-client"]) {
      const r = await runCliInProcess([cmd, "--help"]);
      expect(r.stdout.replace(/\s+/g, " ")).toMatch(/--no-redact keep credentials in transcripts and reports/);
    }
  });

  it("replaces a secret wherever it occurs: URLs, bodies, messages, JSON-escaped text", () => {
    const secrets = secretsOf({ "X-Auth-Token": 'a"quoted-secret' }, [TOKEN_SECRET, "ab"]);
    const event = {
      kind: "http-request", seq: 0, t: 0, probe: "p", exchange: "x1", label: "l", method: "POST",
      url: `http://h/x?sig=${TOKEN_SECRET}`, path: `/x?sig=${TOKEN_SECRET}`,
      headers: { "x-auth-token": 'a"quoted-secret', accept: "ab" },
      body: `{"echo":"${TOKEN_SECRET}"}`,
    } as TranscriptEvent;
    const out = JSON.stringify(redact(event, secrets));
    expect(out).not.toContain(TOKEN_SECRET);
    expect(out).not.toContain("quoted-secret");
    // Too short to scrub everywhere: only its header field would be hidden, were it a user header.
    expect(out).toContain('"accept":"ab"');
    expect(scrubText(JSON.stringify({ m: 'a"quoted-secret' }), secrets)).toBe('{"m":"[redacted]"}');
    expect(scrubDeep({ checks: [{ message: `saw ${TOKEN_SECRET}` }] }, secrets)).toEqual({ checks: [{ message: "saw [redacted]" }] });
  });
});
