/**
 * A user's mistake gets one clear line and exit 2 before anything runs — never "internal error",
 * never after a probe started, a mock listened or a client command was spawned. Every command,
 * every protocol. The command line runs inside the test's process (what it prints and its exit
 * code are decided there); a few cases also go through the bin, which must say the same.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runCliInProcess, startCli, waitExit, type CliResult } from "../helpers/cli.js";

const PROTOCOLS = ["mcp-chat", "openai-chat", "pi-web", "continue-remote", "stagewise-chat"];
/** A path that can never be written: its parent is a file. */
const UNWRITABLE = "package.json/report.json";
/** The client command of test-client: it would leave a file behind if it ever ran. */
const marker = () => join(mkdtempSync(join(tmpdir(), "agentwire-usage-")), "client-ran");
const client = (file: string) => ["--", process.execPath, "-e", `require("fs").writeFileSync(${JSON.stringify(file)}, "x")`];

function expectUsageOf(r: CliResult, message: RegExp): string {
  expect(r.stderr).toMatch(message);
  // Every message speaks as the kit, the argument parser's too.
  expect(r.stderr).toMatch(/^agentwire: /);
  expect(r.stderr).not.toMatch(/internal error|Unrecognized key|at .*\.js:\d+/);
  // Nothing ran: no progress line, no mock URL, no report.
  expect(r.stderr).not.toMatch(/testing|listening|transcript saved/);
  expect(r.stdout).toBe("");
  expect(r.code).toBe(2);
  return r.stderr;
}

const expectUsage = async (args: string[], message: RegExp): Promise<string> => expectUsageOf(await runCliInProcess(args), message);

describe.concurrent("through the bin", () => {
  // One case per command: the process a user starts exits 2 with the line the in-process run prints.
  it.each([
    [["mock", "pi-web", "--fault", "no-such-fault", "--port", "0"], /unknown --fault no-such-fault/],
    [["test", "openai-chat", "--profile", "nope"], /unknown profile "nope"/],
    [["test-client", "stagewise-chat", "--set", "noSuchSetting=1", ...client(marker())], /invalid settings: unknown setting "noSuchSetting"/],
    [["test", "mcp-chat", "--save-transcript", "package.json/transcripts"], /--save-transcript .* cannot be written/],
    // A command under a command: commander's own errors are usage errors there too.
    [["baseline", "write", "mcp-chat", "--bogus"], /unknown option '--bogus'/],
  ])("%j", async (args, message) => {
    const stderr = expectUsageOf(await runCli(args, { timeoutMs: 20_000 }), message);
    expect(stderr).toBe((await runCliInProcess(args)).stderr);
  });
});

describe.concurrent.each(PROTOCOLS)("%s: usage errors stop every command before it runs", (id) => {
  it("an unknown --fault", async () => {
    await expectUsage(["mock", id, "--fault", "no-such-fault", "--port", "0"], /unknown --fault no-such-fault/);
    await expectUsage(["test", id, "--fault", "no-such-fault"], /unknown --fault no-such-fault/);
    const file = marker();
    await expectUsage(["test-client", id, "--fault", "no-such-fault", ...client(file)], /unknown --fault no-such-fault/);
  });

  it("a port out of range, a host that is no address", async () => {
    await expectUsage(["mock", id, "--port", "70000"], /--port takes a whole number from 0 to 65535/);
    await expectUsage(["mock", id, "--port", "0", "--host", "no-such-host.invalid"], /--host no-such-host\.invalid is not an address/);
  });

  it("an --output, --save-transcript or --report that cannot be written", async () => {
    await expectUsage(["test", id, "--reporter", "json", "--output", UNWRITABLE], /--output package\.json\/report\.json cannot be written/);
    await expectUsage(["test", id, "--save-transcript", "package.json/transcripts"], /--save-transcript .* cannot be written/);
    await expectUsage(
      ["test-client", id, "--reporter", "json", "--output", UNWRITABLE, ...client(marker())],
      /--output .* cannot be written/,
    );
    await expectUsage(["mock", id, "--port", "0", "--check-client", "--report", UNWRITABLE], /--report .* cannot be written/);
  });

  it("an unknown --profile or an --only that selects nothing", async () => {
    await expectUsage(["test", id, "--profile", "nope"], /unknown profile "nope"/);
    await expectUsage(["test", id, "--only", `${id}/no-such-check`], /no server-side check/);
    await expectUsage(["test-client", id, "--profile", "nope", ...client(marker())], /unknown profile "nope"/);
    await expectUsage(["test-client", id, "--only", `${id}/no-such-check`, ...client(marker())], /no client-side check/);
    await expectUsage(["mock", id, "--port", "0", "--profile", "nope"], /unknown profile "nope"/);
  });

  it("a --skip, or one of several --only prefixes, that selects no check (test, test-client, replay, proxy, baseline write)", async () => {
    const typo = `${id}/no-such-check/`;
    await expectUsage(["test", id, "--skip", typo], new RegExp(`^agentwire: no server-side check of ${id} matches --skip ${typo}`));
    await expectUsage(["test", id, "--only", `${id}/`, "--only", typo], new RegExp(`no server-side check of ${id} matches --only ${typo}`));
    await expectUsage(["baseline", "write", id, "--skip", typo], /no server-side check .* matches --skip/);
    await expectUsage(["test-client", id, "--skip", typo, ...client(marker())], new RegExp(`no client-side check of ${id} matches --skip ${typo}`));
    await expectUsage(["proxy", id, "--target", "http://127.0.0.1:1", "--port", "0", "--skip", typo], new RegExp(`no check of ${id} matches --skip ${typo}`));
    const transcript = join(mkdtempSync(join(tmpdir(), "agentwire-skip-")), "t.jsonl");
    writeFileSync(transcript, `${JSON.stringify({ seq: 1, t: 0, kind: "note", name: "x", value: 1 })}\n`);
    await expectUsage(["replay", transcript, "--protocol", id, "--skip", typo], new RegExp(`no server-side check of ${id} matches --skip ${typo}`));
  });

  it("an unknown --scenario or --framing, said as every mock says it (mock, test-client)", async () => {
    for (const kind of ["scenario", "framing"]) {
      const message = new RegExp(`^agentwire: ${id} mock: Unknown ${kind} "nope"\\. Valid ${kind}s: \\w`);
      await expectUsage(["mock", id, "--port", "0", `--${kind}`, "nope"], message);
      await expectUsage(["test-client", id, `--${kind}`, "nope", ...client(marker())], message);
    }
  });

  it("a setting the mock refuses", async () => {
    await expectUsage(["mock", id, "--port", "0", "--set", "noSuchSetting=1"], /invalid settings: unknown setting "noSuchSetting"/);
    await expectUsage(["test-client", id, "--set", "noSuchSetting=1", ...client(marker())], /invalid settings: unknown setting "noSuchSetting"/);
  });

  it("a --set that names no parameter of the protocol, or a value of the wrong type (test, replay, proxy)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentwire-set-"));
    const transcript = join(dir, "nohdr.jsonl");
    writeFileSync(transcript, `${JSON.stringify({ seq: 1, t: 0, kind: "note", name: "x", value: 1 })}\n`);
    const commands = [["test", id], ["replay", transcript, "--protocol", id], ["proxy", id, "--target", "http://127.0.0.1:1", "--port", "0"]];
    for (const command of commands) {
      await expectUsage([...command, "--set", "noSuchSetting=1"], new RegExp(`--set: unknown setting "noSuchSetting" for ${id} \\(known: .*crossingGraceMs`));
      await expectUsage([...command, "--set", "crossingGraceMs=abc"], new RegExp(`--set crossingGraceMs=abc: crossingGraceMs takes a number \\(${id} default: 250\\)`));
    }
    // Names every object has are no parameters, and a number must be finite.
    await expectUsage(["test", id, "--set", "toString=1"], /--set: unknown setting "toString"/);
    await expectUsage(["test", id, "--set", "__proto__=1"], /--set: unknown setting "__proto__"/);
    await expectUsage(["test", id, "--set", "crossingGraceMs=1e999"], /--set crossingGraceMs=1e999: crossingGraceMs takes a number/);
  });
});

describe("usage errors that depend on the protocol", () => {
  it("--token where the mock takes no credential says so", async () => {
    await expectUsage(["mock", "mcp-chat", "--port", "0", "--token", "s3cret"], /mcp-chat mock takes no credential/);
    await expectUsage(["test-client", "mcp-chat", "--token", "s3cret", ...client(marker())], /mcp-chat mock takes no credential/);
  });

  it("a --header, --token or --origin no request can carry, or an origin without its scheme", async () => {
    const controls = /holds a line break or another control character, which no request can carry/;
    const stderr = await expectUsage(["test", "mcp-chat", "--header", "X-A: a\nb"], /^agentwire: --header X-A: the value holds a line break/);
    expect(stderr).not.toMatch(/a\nb|a\\nb/);
    await expectUsage(["test", "mcp-chat", "--header", "X-A: a\u0000b"], controls);
    await expectUsage(["test", "mcp-chat", "--token", "a\nb"], /^agentwire: --token holds a line break/);
    await expectUsage(["test-client", "pi-web", "--token", "a\rb", ...client(marker())], /^agentwire: --token holds a line break/);
    await expectUsage(["mock", "pi-web", "--port", "0", "--token", "a\nb"], /^agentwire: --token holds a line break/);
    await expectUsage(["test", "mcp-chat", "--origin", "http://a\nb"], /^agentwire: --origin "http:\/\/a\\nb" is not an origin as a browser sends it/);
    await expectUsage(["test", "mcp-chat", "--origin", "localhost:3000"], /^agentwire: --origin "localhost:3000" is not an origin as a browser sends it/);
    await expectUsage(["test", "mcp-chat", "--origin", "http://localhost:3000/"], /\(did you mean http:\/\/localhost:3000\?\)/);
    // A tab is a field value's own character.
    const ok = await runCliInProcess(["test", "mcp-chat", "--quiet", "--only", "mcp-chat/cors", "--origin", "http://localhost:3000", "--header", "X-A: a\tb"]);
    expect(ok.code, ok.stdout).toBe(0);
  });

  it("two reports given one --output path (test, test-client, replay, proxy)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentwire-twice-"));
    const twice = ["--reporter", "json", "--output", join(dir, "r"), "--reporter", "markdown", "--output", `${dir}/./x/../r`];
    const message = /^agentwire: --output .* is given twice \(as .*\/r\): each --reporter needs a file of its own/;
    await expectUsage(["test", "mcp-chat", ...twice], message);
    await expectUsage(["test-client", "mcp-chat", ...twice, ...client(marker())], message);
    await expectUsage(["replay", "fixtures/mcp-chat/transcripts/client/clean.jsonl", "--protocol", "mcp-chat", ...twice], message);
    await expectUsage(["proxy", "mcp-chat", "--target", "http://127.0.0.1:1", "--port", "0", ...twice], message);
    await expectUsage(["test", "mcp-chat", "--reporter", "json", "--output", join(dir, "s"), "--reporter", "junit", "--output", join(dir, "s")], /--output .*\/s is given twice: /);
  });

  it("--catalogue outside openai-chat, or naming no catalogue", async () => {
    await expectUsage(["mock", "pi-web", "--port", "0", "--catalogue", "none"], /--catalogue is an openai-chat option/);
    await expectUsage(["test", "mcp-chat", "--catalogue", "none"], /--catalogue is an openai-chat option/);
    await expectUsage(["test", "openai-chat", "--catalogue", "bogus"], /unknown --catalogue "bogus"; use one of seed, .*none/);
    await expectUsage(["test-client", "openai-chat", "--catalogue", "bogus", ...client(marker())], /unknown --catalogue "bogus"/);
  });

  it("--set in a run over every protocol: a parameter of any of them is known; a valid one runs", async () => {
    await expectUsage(["test", "--set", "noSuchSetting=1"], /unknown setting "noSuchSetting" for mcp-chat, openai-chat, pi-web, continue-remote, stagewise-chat \(known: /);
    await expectUsage(["test", "mcp-chat", "--set", "minGapMs=abc"], /minGapMs takes a number \(mcp-chat default: 100\)/);
    await expectUsage(["test", "mcp-chat", "--set", "keepConnection=maybe"], /keepConnection takes true or false/);
    const ok = await runCliInProcess(["test", "mcp-chat", "--quiet", "--only", "mcp-chat/sse", "--set", "minGapMs=20", "--set", "allowedEventTypes=ping,usage"]);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it("--set holds a parameter that has an option of its own to that option's range (test, replay, proxy)", async () => {
    await expectUsage(["test", "mcp-chat", "--set", "closeTimeoutMs=0"], /^agentwire: --set closeTimeoutMs=0: closeTimeoutMs takes a whole number from 1 to 2147483647, as --close-timeout does/);
    await expectUsage(["test", "mcp-chat", "--set", "closeTimeoutMs=-100"], /closeTimeoutMs takes a whole number from 1 to/);
    await expectUsage(["test", "mcp-chat", "--set", "minGapMs=-5"], /^agentwire: --set minGapMs=-5: minGapMs takes a whole number from 0 to 2147483647, as --min-gap does/);
    await expectUsage(["test", "continue-remote", "--set", "pollIntervalMs=0"], /pollIntervalMs takes a whole number from 1 to 2147483647, as --poll-interval does/);
    await expectUsage(["replay", "fixtures/mcp-chat/transcripts/client/clean.jsonl", "--protocol", "mcp-chat", "--set", "minGapMs=-1"], /minGapMs takes a whole number from 0 to/);
    await expectUsage(["proxy", "mcp-chat", "--target", "http://127.0.0.1:1", "--port", "0", "--set", "closeTimeoutMs=0"], /closeTimeoutMs takes a whole number from 1 to/);
    // Above what a timer can wait, a poll or a wait would never end.
    await expectUsage(["test", "continue-remote", "--poll-interval", "3000000000"], /--poll-interval takes a whole number from 1 to 2147483647/);
    await expectUsage(["test", "continue-remote", "--set", "pollIntervalMs=3000000000"], /pollIntervalMs takes a whole number from 1 to 2147483647/);
    // The options themselves, for comparison: the same bounds.
    await expectUsage(["test", "mcp-chat", "--close-timeout", "0"], /--close-timeout takes a whole number from 1 to 2147483647/);
    await expectUsage(["test", "mcp-chat", "--min-gap", "-5"], /--min-gap takes a whole number from 0 to 2147483647/);
    const { parseParamSettings } = await import("../../src/cli/options.js");
    const { mcpChat } = await import("../../src/suites/mcp-chat/index.js");
    expect(parseParamSettings([mcpChat], ["minGapMs=0", "closeTimeoutMs=1"])).toEqual({ minGapMs: 0, closeTimeoutMs: 1 });
  });

  it("--set reads a value by its parameter's type: a string parameter keeps the text typed", async () => {
    const { parseParamSettings } = await import("../../src/cli/options.js");
    const { openaiChat } = await import("../../src/suites/openai-chat/index.js");
    const { piWeb } = await import("../../src/suites/pi-web/index.js");
    expect(parseParamSettings([openaiChat], ["model=3", "maxTokens=64", "perTool=true"])).toEqual({ model: "3", maxTokens: 64, perTool: true });
    // A profile's parameter, and one only a check reads, are parameters too.
    expect(parseParamSettings([piWeb], ["latePromptFailure=true", "clientRequestTimeoutMs=500"])).toEqual({ latePromptFailure: true, clientRequestTimeoutMs: 500 });
  });

  it("--url without a protocol names the command it was given to", async () => {
    await expectUsage(["test", "--url", "http://127.0.0.1:1"], /--url needs a protocol: agentwire test <protocol> --url URL/);
    await expectUsage(["baseline", "write", "--url", "http://127.0.0.1:1"], /--url needs a protocol: agentwire baseline write <protocol> --url URL/);
  });

  it("a client command that is not found is said once, exit 2", async () => {
    const r = await runCliInProcess(["test-client", "mcp-chat", "--", "/nonexistent/agentwire-client"]);
    expect(r.code).toBe(2);
    expect(r.stderr.match(/command not found: \/nonexistent\/agentwire-client/g)).toHaveLength(1);
  });

  it("--url: an HTTP protocol refuses ws:// and wss:// up front; a WebSocket protocol takes them", async () => {
    for (const id of ["mcp-chat", "openai-chat", "continue-remote"]) {
      await expectUsage(["test", id, "--url", "ws://127.0.0.1:1"], new RegExp(`--url must be http or https for ${id}, not ws`));
      await expectUsage(["baseline", "write", id, "--url", "wss://127.0.0.1:1/x"], new RegExp(`--url must be http or https for ${id}, not wss`));
    }
    // Nothing listens there: the run is incomplete (exit 3), not refused.
    const ws = await runCliInProcess(["test", "pi-web", "--quiet", "--url", "ws://127.0.0.1:1/ws", "--timeout", "1000", "--only", "pi-web/conn"]);
    expect(ws.code, ws.stderr).toBe(3);
    expect(ws.stderr).not.toMatch(/--url must be/);
  });

  it("a run over every protocol checks --profile and --only for all of them before the first starts", async () => {
    // pi-fork-0.54 is a pi-web profile: mcp-chat, which runs first, must not have started.
    await expectUsage(["test", "--profile", "pi-fork-0.54"], /unknown profile "pi-fork-0.54" for mcp-chat/);
    await expectUsage(["test", "--only", "nowhere/"], /no server-side check matches --only nowhere\//);
    await expectUsage(["test", "--skip", "mcp-chat/nowhere/"], /no server-side check matches --skip mcp-chat\/nowhere\//);
    // A prefix of any protocol of the run is one: here the run's only protocol is mcp-chat's.
    const ok = await runCliInProcess(["test", "--quiet", "--only", "mcp-chat/cors", "--skip", "openai-chat/sse"]);
    expect(ok.code, ok.stderr).toBe(0);
  });
});

describe("a run refused for a usage error leaves the report files as they were", () => {
  const kept = () => {
    const file = join(mkdtempSync(join(tmpdir(), "agentwire-kept-")), "verdicts.ndjson");
    writeFileSync(file, "keep\n");
    return file;
  };
  const ndjson = (file: string) => ["--reporter", "ndjson", "--output", file];

  it.each([
    [["test", "mcp-chat", "--save-transcript", "package.json/transcripts"], /--save-transcript .* cannot be written/],
    [["test", "mcp-chat", "--header", "bad"], /--header takes "Name: value"/],
    [["test-client", "mcp-chat", "--scenario", "nope", "--", process.execPath, "-e", ""], /Unknown scenario "nope"/],
    [["test-client", "mcp-chat", "--", "/nonexistent/agentwire-client"], /command not found: \/nonexistent\/agentwire-client/],
    [["test-client", "mcp-chat", "--", "agentwire-no-such-command"], /command not found: agentwire-no-such-command/],
    [["test-client", "mcp-chat", "--", "examples/mcp-chat-client.mjs"], /examples\/mcp-chat-client\.mjs is not executable: chmod \+x it, or name its interpreter/],
  ])("%j", async (args, message) => {
    const file = kept();
    const dashes = args.indexOf("--");
    const withReport = dashes < 0 ? [...args, ...ndjson(file)] : [...args.slice(0, dashes), ...ndjson(file), ...args.slice(dashes)];
    expectUsageOf(await runCliInProcess(withReport), message);
    expect(readFileSync(file, "utf8")).toBe("keep\n");
  });

  it("a report a run began is removed when the run ends in an error", async () => {
    const { openReports, withReports } = await import("../../src/cli/report-output.js");
    const file = join(mkdtempSync(join(tmpdir(), "agentwire-kept-")), "verdicts.ndjson");
    const reports = openReports([{ reporter: "ndjson", output: file }]);
    const check = { id: "mcp-chat/sse/lf-only", level: "MUST", side: "server", verdict: "pass", message: "ok", evidence: [] } as never;
    const run = withReports(reports, async () => {
      reports.onVerdict!(check, { protocol: "mcp-chat", side: "server" });
      expect(existsSync(file)).toBe(true);
      throw new Error("refused late");
    });
    await expect(run).rejects.toThrow("refused late");
    expect(existsSync(file)).toBe(false);
  });
});

describe("a mock bound beyond loopback", () => {
  it("warns on stderr what it exposes; on loopback it does not", async () => {
    for (const [id, guard] of [
      ["mcp-chat", /no credential is required/],
      ["pi-web", /no credential is required \(--token adds one\)/],
    ] as const) {
      const { child, output } = await startCli(["mock", id, "--host", "0.0.0.0", "--port", "0"]);
      // The listening line follows the warning on stderr: wait for it.
      for (let i = 0; i < 50 && !/listening/.test(output().stderr); i++) await new Promise((r) => setTimeout(r, 100));
      child.kill("SIGINT");
      await waitExit(child);
      expect(output().stderr).toMatch(new RegExp(`warning: the ${id} mock listens on every network interface, beyond loopback`));
      expect(output().stderr).toMatch(guard);
    }
    const { child, output } = await startCli(["mock", "mcp-chat", "--port", "0"]);
    for (let i = 0; i < 50 && !/listening/.test(output().stderr); i++) await new Promise((r) => setTimeout(r, 100));
    child.kill("SIGINT");
    await waitExit(child);
    expect(output().stderr).not.toMatch(/warning/);
  });
});

describe("help that stands in for a missing command", () => {
  // The help is printed (on stderr), but the command line was incomplete: exit 2, as any usage error.
  it.each([[[]], [["baseline"]], [["help", "no-such-command"]]])("agentwire %j exits 2", async (args) => {
    const r = await runCliInProcess(args);
    expect(r.stderr).toMatch(/Usage: agentwire/);
    expect(r.code).toBe(2);
  });

  it.each([[["help"]], [["help", "test"]], [["--help"]]])("agentwire %j, asked for, exits 0", async (args) => {
    const r = await runCliInProcess(args);
    expect(r.stdout + r.stderr).toMatch(/Usage: agentwire/);
    expect(r.code).toBe(0);
  });
});

describe("--output -", () => {
  it("is stdout, as validate reads - as stdin: no file named -", async () => {
    const r = await runCliInProcess(["test", "mcp-chat", "--quiet", "--only", "mcp-chat/servers", "--reporter", "json", "--output", "-"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ protocol: "mcp-chat", side: "server" });
    expect(existsSync("-")).toBe(false);
  });

  it("counts as the one report on stdout", async () => {
    await expectUsage(["test", "mcp-chat", "--reporter", "json", "--output", "-", "--reporter", "console"], /only one reporter can write to stdout/);
  });
});
