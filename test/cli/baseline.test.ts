/**
 * --baseline: listed failures do not fail the run; a listed check that passes again, or an entry
 * past its date, fails it with a message to remove the entry; a bad file is exit 2 naming its line.
 * `baseline write` records the current failures as a start. The command line runs in the test's
 * process (test/cli/usage-errors.test.ts has the bin print what it prints).
 */
import { describe, expect, it, vi } from "vitest";
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { runCliInProcess } from "../helpers/cli.js";

const tmp = () => mkdtempSync(join(tmpdir(), "agentwire-baseline-"));
const file = (text: string) => {
  const path = join(tmp(), "agentwire-baseline.yaml");
  writeFileSync(path, text);
  return path;
};
// The mock with sse-crlf breaks exactly mcp-chat/sse/lf-only among the SSE checks.
const FAILING = ["test", "mcp-chat", "--quiet", "--fault", "sse-crlf", "--only", "mcp-chat/sse"];

describe.concurrent("--baseline", () => {
  it("accepts a listed failure (exit 0) and says so in console, JSON and JUnit", async () => {
    const b = file(`failures:\n  - id: mcp-chat/sse/lf-only\n    reason: our proxy rewrites line endings\n    link: https://example.com/issue/1\n    expires: 2999-01-01\n`);
    const dir = tmp();
    const r = await runCliInProcess([...FAILING, "--baseline", b, "--reporter", "json", "--output", join(dir, "r.json"), "--reporter", "junit", "--output", join(dir, "r.xml"), "--reporter", "console"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/FAIL\s+mcp-chat\/sse\/lf-only \[MUST\]\s+\(known failure: our proxy rewrites line endings https:\/\/example.com\/issue\/1\)/);
    expect(r.stdout).toContain("1 known failure(s) accepted");
    expect(r.stdout).toMatch(/, 1 failed \(1 known, accepted by the baseline\), .* — exit 0/);
    const json = JSON.parse(readFileSync(join(dir, "r.json"), "utf8"));
    expect(json.exitCode).toBe(0);
    expect(json.baseline).toEqual({ file: b, known: 1, problems: [] });
    expect(json.checks.find((c: { id: string }) => c.id === "mcp-chat/sse/lf-only").baseline).toMatchObject({ status: "known", entry: "mcp-chat/sse/lf-only" });
    const xml = readFileSync(join(dir, "r.xml"), "utf8");
    expect(xml).toMatch(/failures="0"/);
    expect(xml).toContain("known failure (baseline mcp-chat/sse/lf-only)");
  });

  it("accepts failures by id prefix", async () => {
    const r = await runCliInProcess([...FAILING, "--baseline", file(`failures:\n  - id: mcp-chat/sse/\n    reason: framing is fixed next quarter\n`)]);
    expect(r.code, r.stdout).toBe(0);
  });

  it("without the entry the same run fails (the baseline is what made it pass)", async () => {
    const r = await runCliInProcess([...FAILING, "--baseline", file(`failures:\n  - id: mcp-chat/sse/utf8\n    reason: unrelated\n`)]);
    expect(r.code).toBe(1);
    // ... and the unrelated entry passes now: it must go too.
    expect(r.stdout).toMatch(/baseline problem: baseline entry "mcp-chat\/sse\/utf8" now passes \(.*:2\): remove the entry/);
  });

  it("fails the run when a listed check passes now, saying to remove the entry", async () => {
    const r = await runCliInProcess(["test", "mcp-chat", "--quiet", "--only", "mcp-chat/sse", "--baseline", file(`# fixed since\nfailures:\n  - id: mcp-chat/sse/lf-only\n    reason: was broken\n`)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/PASS\s+mcp-chat\/sse\/lf-only \[MUST\]\s+\(listed in the baseline, passes now: remove the entry/);
    expect(r.stdout).toMatch(/baseline problem: baseline entry "mcp-chat\/sse\/lf-only" now passes \(.*agentwire-baseline.yaml:3\): remove the entry/);
    expect(r.stdout).toMatch(/exit 1$/m);
  });

  it("fails the run when an entry has expired, even though the failure is listed", async () => {
    const r = await runCliInProcess([...FAILING, "--baseline", file(`failures:\n  - id: mcp-chat/sse/lf-only\n    reason: until the proxy upgrade\n    expires: 2020-01-31\n`)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/baseline entry "mcp-chat\/sse\/lf-only" expired on 2020-01-31 .*remove the entry/);
  });

  it("applies to replay and test-client as to test", async () => {
    const dir = tmp();
    await runCliInProcess([...FAILING, "--save-transcript", dir]);
    const transcript = join(dir, readdirSync(dir)[0]!);
    const b = file(`failures:\n  - id: mcp-chat/sse/lf-only\n    reason: known\n`);
    expect((await runCliInProcess(["replay", transcript, "--quiet", "--baseline", b])).code).toBe(0);
    expect((await runCliInProcess(["replay", transcript, "--quiet"])).code).toBe(1);
    const client = await runCliInProcess(["test-client", "mcp-chat", "--quiet", "--baseline", file(`failures:\n  - id: mcp-chat/client/\n    reason: x\n`), "--", process.execPath, "-e", "0"]);
    // A client that sends nothing: nothing fails, nothing passes, so the entry is neither known nor stale.
    expect(client.code, client.stdout).toBe(3);
  });

  it.each([
    ["failures:\n  - id: mcp-chat/sse/lf-only\n    reason: [unclosed\n", /agentwire-baseline.yaml:\d: not valid YAML: Flow sequence/],
    ["failures:\n  - id: mcp-chat/sse/lf-only\n", /agentwire-baseline.yaml:2: failures.0.reason: /],
    ["failures:\n  - id: mcp-chat/sse/lf-only\n    reason: ok\n    expires: next week\n", /:4: failures.0.expires: must be a date written YYYY-MM-DD/],
    // Days that do not exist (Date.parse would roll them over into the next month).
    ["failures:\n  - id: mcp-chat/sse/lf-only\n    reason: ok\n    expires: 2027-02-31\n", /:4: failures.0.expires: is not a calendar date/],
    ["failures:\n  - id: mcp-chat/sse/lf-only\n    reason: ok\n    expires: 2026-02-30\n", /:4: failures.0.expires: is not a calendar date/],
    ["failures:\n  - id: mcp-chat/sse/lf-only\n    reason: ok\n    expires: 2027-04-31\n", /:4: failures.0.expires: is not a calendar date/],
    ["failures:\n  - id: mcp-chat/sse/lf-only\n    reason: ok\n    expires: 2027-13-01\n", /:4: failures.0.expires: is not a calendar date/],
    ["failures:\n  - id: mcp-chat/sse/lf-only\n    reason: ok\n    owner: me\n", /:2: failures.0: unknown key "owner"/],
    ["failures:\n  - id: mcp-chat/sse/no-such-rule\n    reason: typo\n", /:2: no check of mcp-chat matches "mcp-chat\/sse\/no-such-rule"/],
    ["failures:\n  - id: mcp-chat/sse/lf-only\n    reason: a\n  - id: mcp-chat/sse/lf-only\n    reason: b\n", /:4: "mcp-chat\/sse\/lf-only" is listed twice \(first at line 2\)/],
    ["- mcp-chat/sse/lf-only\n", /:1: the file: must be a mapping with a "failures" list/],
  ])("a bad file is exit 2 naming the line: %j", async (text, message) => {
    const r = await runCliInProcess(["test", "mcp-chat", "--quiet", "--baseline", file(text)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it("a real leap day is a date", async () => {
    const r = await runCliInProcess([...FAILING, "--baseline", file("failures:\n  - id: mcp-chat/sse/lf-only\n    reason: ok\n    expires: 2996-02-29\n")]);
    expect(r.code, r.stderr).toBe(0);
  });

  it("a missing file is exit 2", async () => {
    const r = await runCliInProcess(["test", "mcp-chat", "--baseline", "/nonexistent/b.yaml"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--baseline \/nonexistent\/b.yaml cannot be read: no such file/);
  });

  it("baseline write records the current failures, and the file it writes makes the same run pass", async () => {
    const out = join(tmp(), "ci", "agentwire-baseline.yaml");
    const w = await runCliInProcess(["baseline", "write", "mcp-chat", "--quiet", "--fault", "sse-crlf", "--only", "mcp-chat/sse", "--output", out]);
    expect(w.code, w.stderr).toBe(0);
    expect(w.stdout.trim()).toBe("mcp-chat/sse/lf-only");
    const written = parse(readFileSync(out, "utf8"));
    expect(written.failures).toHaveLength(1);
    expect(written.failures[0]).toMatchObject({ id: "mcp-chat/sse/lf-only", reason: expect.stringContaining("CRLF") });
    expect((await runCliInProcess([...FAILING, "--baseline", out])).code).toBe(0);
  });

  it("baseline write against a target that judged nothing: exit 3, says why, and leaves the file alone", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const out = file("failures:\n  - id: mcp-chat/sse/lf-only\n    reason: kept\n");
    const before = readFileSync(out, "utf8");
    const w = await runCliInProcess(["baseline", "write", "mcp-chat", "--quiet", "--url", `http://127.0.0.1:${port}`, "--only", "mcp-chat/sse", "--timeout", "2000", "--output", out]);
    expect(w.code, w.stderr).toBe(3);
    expect(w.stderr).toMatch(/mcp-chat: no check could be judged \(\d+ incomplete\)/);
    expect(w.stderr).toContain(`${out} not written`);
    expect(w.stderr).not.toContain("the baseline is empty");
    expect(readFileSync(out, "utf8")).toBe(before);
    const fresh = join(tmp(), "new.yaml");
    expect((await runCliInProcess(["baseline", "write", "mcp-chat", "--quiet", "--url", `http://127.0.0.1:${port}`, "--only", "mcp-chat/sse", "--timeout", "2000", "--output", fresh])).code).toBe(3);
    expect(existsSync(fresh)).toBe(false);
  });

  it("mock --check-client takes --baseline only with --check-client", async () => {
    const r = await runCliInProcess(["mock", "mcp-chat", "--baseline", "b.yaml"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--baseline goes with --check-client");
  });

  it("has help with examples", async () => {
    const r = await runCliInProcess(["baseline", "write", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Examples:");
    const help = (await runCliInProcess(["test", "--help"])).stdout;
    expect(help).toContain("--baseline <file>");
    expect(help).toContain("--reporter html --output report.html");
    expect(help).toContain("--reporter ndjson");
  });
});

// Alone: it watches process.stderr, which the concurrent in-process runs above redirect.
describe("baseline write's account", () => {
  it("baseline write from a run partly judged lists its failures and says how many checks it could not judge", async () => {
    const { writeBaseline } = await import("../../src/cli/baseline.js");
    const check = (id: string, verdict: "fail" | "pass" | "incomplete") => ({ id, verdict, message: `${id} ${verdict}`, level: "MUST", side: "server", title: id, rule: "", ref: {}, outcome: verdict, evidence: [] });
    const checks = [check("mcp-chat/a", "fail"), check("mcp-chat/b", "pass"), check("mcp-chat/c", "incomplete")];
    const run = { protocol: "mcp-chat", target: "x", side: "server", profile: "default", strict: false, startedAt: "", durationMs: 0, summary: { pass: 1, fail: 1, warn: 0, info: 0, skip: 0, incomplete: 1 }, checks, exitCode: 1 };
    const out = join(tmp(), "b.yaml");
    const said: string[] = [];
    const err = vi.spyOn(process.stderr, "write").mockImplementation((s) => (said.push(String(s)), true));
    const std = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      expect(await writeBaseline([run as never], out)).toBe(0);
    } finally {
      err.mockRestore();
      std.mockRestore();
    }
    expect(parse(readFileSync(out, "utf8")).failures.map((f: { id: string }) => f.id)).toEqual(["mcp-chat/a"]);
    expect(said.join("")).toContain("1 failing check(s) listed; give each a reason (1 incomplete check(s) could not be judged and are not listed)");
  });
});
