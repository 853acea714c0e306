/**
 * `agentwire replay` gives the live run's verdicts: every implemented protocol (new ones join
 * through IMPLEMENTED_IDS) is run against its built-in mock with --save-transcript, clean and with
 * one of its faults, then its transcript is re-judged, and the two reports agree check by check.
 * The live runs go through the bin, side by side; the replays run the command line in-process.
 */
import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IMPLEMENTED_IDS, loadProtocol } from "../../src/protocol-loader.js";
import { replayTranscript } from "../../src/core/run/runner.js";
import { runCli, runCliInProcess, ROOT } from "../helpers/cli.js";
import { QUICK_MOCK_SETTINGS } from "../helpers/quick-pacing.js";

const tmp = () => mkdtempSync(join(tmpdir(), "agentwire-replay-"));

interface Report {
  protocol: string;
  side: string;
  exitCode: number;
  checks: { id: string; verdict: string; outcome: string; message: string; durationMs?: number }[];
}

const byId = (r: Report) => Object.fromEntries(r.checks.map((c) => [c.id, `${c.verdict}/${c.outcome}: ${c.message}`]));

/** Runs `args` saving the transcript, then replays it; returns both reports and the file. */
async function liveThenReplay(args: string[], replayArgs: string[] = []) {
  const dir = tmp();
  // Options go before a client command's "--".
  const cut = args.includes("--") ? args.indexOf("--") : args.length;
  const options = ["--quiet", "--save-transcript", join(dir, "t"), "--reporter", "json", "--output", join(dir, "live.json")];
  const live = await runCli([...args.slice(0, cut), ...options, ...args.slice(cut)], { timeoutMs: 120_000 });
  expect(live.code, live.stderr).not.toBe(2);
  const file = join(dir, "t", readdirSync(join(dir, "t")).find((f) => f.endsWith(".jsonl"))!);
  const replay = await runCliInProcess(["replay", file, "--quiet", "--reporter", "json", "--output", join(dir, "replay.json"), ...replayArgs]);
  expect(replay.code, replay.stderr).toBe(live.code);
  const read = (f: string) => JSON.parse(readFileSync(join(dir, f), "utf8")) as Report;
  return { live: read("live.json"), replay: read("replay.json"), file, dir };
}

describe.concurrent("agentwire replay", () => {
  it.each(IMPLEMENTED_IDS)("%s: a clean run and a fault run replay to the same verdicts, check by check", async (id) => {
    const protocol = await loadProtocol(id);
    const fault = protocol.faults[0]!;
    // The clean and the fault run side by side.
    const runs = [[], ["--fault", fault.name]].map(async (extra) => ({ extra, ...(await liveThenReplay(["test", id, ...extra])) }));
    for (const { extra, live, replay } of await Promise.all(runs)) {
      expect(replay.checks.length).toBe(live.checks.length);
      expect(byId(replay)).toEqual(byId(live));
      // Times come from the transcript's clock: the replay reports the live run's.
      expect(replay.checks.map((c) => c.durationMs)).toEqual(live.checks.map((c) => c.durationMs));
      if (extra.length) expect(live.checks.filter((c) => c.outcome === "fail").map((c) => c.id)).toEqual(expect.arrayContaining(fault.violates));
    }
  });

  it("replays a client-side transcript (test-client) to the same verdicts", async () => {
    // The mock at the quick pace (the verdicts at the CLI's default timing are client-example's).
    const quick = Object.entries(QUICK_MOCK_SETTINGS["mcp-chat"]).flatMap(([k, v]) => ["--set", `${k}=${v}`]);
    const { live, replay } = await liveThenReplay(["test-client", "mcp-chat", ...quick, "--", process.execPath, "examples/mcp-chat-client.mjs"]);
    expect(live.side).toBe("client");
    expect(byId(replay)).toEqual(byId(live));
  });

  it("an unreachable target replays as unreachable: every check incomplete, exit 3", async () => {
    const { createServer } = await import("node:net");
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
    const port = (srv.address() as { port: number }).port;
    await new Promise<void>((r) => srv.close(() => r()));
    const { live, replay } = await liveThenReplay(["test", "mcp-chat", "--url", `http://127.0.0.1:${port}`, "--timeout", "3000"]);
    expect(live.exitCode).toBe(3);
    expect(replay.checks.every((c) => c.verdict === "incomplete" && c.message.startsWith("target unreachable"))).toBe(true);
    expect(byId(replay)).toEqual(byId(live));
  });

  it("takes --only, --strict and another reporter, and ends a failure's console text with its replay and curl commands", async () => {
    const { file } = await liveThenReplay(["test", "mcp-chat", "--fault", "sse-crlf", "--only", "mcp-chat/sse"]);
    const r = await runCliInProcess(["replay", file, "--only", "mcp-chat/sse/lf-only"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL\s+mcp-chat\/sse\/lf-only/);
    expect(r.stdout).not.toContain("mcp-chat/sse/utf8");
    const failure = r.stdout.slice(r.stdout.indexOf("FAIL"), r.stdout.indexOf("\n\n", r.stdout.indexOf("FAIL")));
    expect(failure.trimEnd().split("\n").at(-1)).toContain(`replay:   agentwire replay ${file} --only mcp-chat/sse/lf-only`);
    expect(failure).toMatch(/resend: +curl -sS -i -N -X POST .*--data-binary .*http:\/\/127\.0\.0\.1:\d+\/chat\/stream/);
  });

  it("redacts credentials in the curl command it prints", async () => {
    // The openai-chat mock requires a key when the suite runs against it; a fault makes a check fail.
    const { file } = await liveThenReplay(["test", "openai-chat", "--fault", "sse-crlf"]);
    const r = await runCliInProcess(["replay", file]);
    expect(r.stdout).toMatch(/resend: +curl /);
    const curls = r.stdout.split("\n").filter((l) => l.includes("curl "));
    expect(curls.some((c) => c.includes("-H 'authorization: Bearer [redacted]'")), curls.join("\n")).toBe(true);
    for (const c of curls) expect(c).not.toMatch(/Bearer (?!\[redacted\])/i);
  });

  it("reads a transcript saved before headers existed when told its protocol, and says why it needs it otherwise", async () => {
    const { file, dir } = await liveThenReplay(["test", "mcp-chat", "--only", "mcp-chat/sse"]);
    const old = join(dir, "old.jsonl");
    writeFileSync(old, readFileSync(file, "utf8").split("\n").slice(1).join("\n"));
    const without = await runCliInProcess(["replay", old]);
    expect(without.code).toBe(2);
    expect(without.stderr).toMatch(/no header .* give --protocol/);
    const withId = await runCliInProcess(["replay", old, "--protocol", "mcp-chat", "--only", "mcp-chat/sse/lf-only", "--quiet"]);
    expect(withId.code, withId.stdout).toBe(0);
    expect(withId.stdout).toMatch(/PASS\s+mcp-chat\/sse\/lf-only/);
  });

  it("the rerun line of a transcript without a header carries --protocol, and pasted it runs", async () => {
    const { file, dir } = await liveThenReplay(["test", "mcp-chat", "--fault", "sse-crlf", "--only", "mcp-chat/sse"]);
    const old = join(dir, "nohdr.jsonl");
    writeFileSync(old, readFileSync(file, "utf8").split("\n").slice(1).join("\n"));
    const r = await runCliInProcess(["replay", old, "--protocol", "mcp-chat", "--quiet"]);
    expect(r.code).toBe(1);
    const line = r.stdout.split("\n").find((l) => /^\s*replay: +agentwire replay /.test(l));
    expect(line).toBeDefined();
    const command = line!.replace(/^\s*replay: +agentwire /, "");
    expect(command).toBe(`replay ${old} --protocol mcp-chat --only mcp-chat/sse/lf-only`);
    const again = await runCliInProcess(command.split(" "));
    expect(again.code, again.stderr).toBe(1);
    expect(again.stdout).toMatch(/FAIL\s+mcp-chat\/sse\/lf-only/);
  });

  it.each([
    [["replay", "/nonexistent/x.jsonl"], /cannot read transcript .*no such file/],
    [["replay", "README.md"], /README\.md line 1 is not an agentwire transcript event: /],
    [["replay", "fixtures/mcp-chat/transcripts/client/clean.jsonl", "--protocol", "nope"], /unknown protocol "nope"/],
    [["replay", "fixtures/mcp-chat/transcripts/client/clean.jsonl", "--protocol", "mcp-chat", "--only", "mcp-chat/nothing"], /no client-side check/],
  ])("%j is a usage error (exit 2)", async (args, message) => {
    const r = await runCliInProcess(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it("a failing exchange's request with headers null is refused with its line, not a crash of the reporter", async () => {
    const { file, dir } = await liveThenReplay(["test", "mcp-chat", "--fault", "sse-crlf", "--only", "mcp-chat/sse"]);
    const lines = readFileSync(file, "utf8").split("\n");
    const n = lines.findIndex((l) => l.includes('"kind":"http-request"') && l.includes('"label":"chat-stream"'));
    lines[n] = JSON.stringify({ ...JSON.parse(lines[n]!), headers: null });
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, lines.join("\n"));
    const r = await runCliInProcess(["replay", bad, "--quiet"]);
    expect(r.stderr).toBe(`agentwire: ${bad} line ${n + 1} is not an agentwire transcript event: "headers" must be an object of header strings, got null\n`);
    expect(r.code).toBe(2);
  });

  it("a header whose recorded parameters or proxy flag have the wrong type is refused with its line", async () => {
    const { file, dir } = await liveThenReplay(["test", "mcp-chat", "--only", "mcp-chat/sse"]);
    const [head, ...rest] = readFileSync(file, "utf8").split("\n");
    const header = JSON.parse(head!);
    for (const [name, changed, message] of [
      ["params.jsonl", { ...header, params: { ...header.params, closeTimeoutMs: "x" } }, /line 1 is not an agentwire transcript header: "params\.closeTimeoutMs" must be of the type of mcp-chat's closeTimeoutMs .*got "x"/],
      ["proxy.jsonl", { ...header, proxy: "yes" }, /line 1 is not an agentwire transcript header: "proxy" must be true or false/],
    ] as const) {
      const bad = join(dir, name);
      writeFileSync(bad, [JSON.stringify(changed), ...rest].join("\n"));
      const r = await runCliInProcess(["replay", bad, "--quiet"]);
      expect(r.stderr).toMatch(message);
      expect(r.code).toBe(2);
    }
  });

  const MCP = ["fixtures/mcp-chat/transcripts/client/clean.jsonl", "--protocol", "mcp-chat"];
  const CN = ["fixtures/continue-remote/transcripts/cn-1.5.47/bash-then-exit.jsonl"];
  const STAGEWISE = ["fixtures/stagewise-chat/transcripts/client/clean.jsonl", "--protocol", "stagewise-chat"];
  type Corrupt = (e: Record<string, unknown>) => unknown;
  it.each<[string, string[], Corrupt, RegExp]>([
    ["an http-request without headers", MCP, (e) => e.kind === "http-request" && { ...e, headers: undefined }, /"headers" must be an object of header strings, got nothing/],
    ["a header that is not a string", MCP, (e) => e.kind === "http-response" && { ...e, headers: { a: 1 } }, /"headers" must be an object of header strings/],
    ["a status that is not a number", MCP, (e) => e.kind === "http-response" && { ...e, status: "200" }, /"status" must be a number, got "200"/],
    ["a kind no event has", MCP, (e) => e.kind === "http-response" && { ...e, kind: "http-reply" }, /"kind": "http-reply" is no kind of event/],
    ["a line that is not an object", MCP, (e) => e.kind === "http-response" && [e], /not a JSON object/],
    ["a body chunk without its bytes", CN, (e) => e.kind === "body-chunk" && { ...e, base64: undefined }, /"base64" must be a string/],
    ["a frame whose data is no string", STAGEWISE, (e) => e.kind === "ws-frame" && { ...e, data: null }, /"data" must be a string, got null/],
  ])("%s: exit 2 naming the file, the line and the field", async (_, [source, ...options], corrupt, message) => {
    const lines = readFileSync(join(ROOT, source!), "utf8").trimEnd().split("\n");
    const n = lines.findIndex((l) => corrupt(JSON.parse(l)) !== false);
    expect(n).toBeGreaterThanOrEqual(0);
    lines[n] = JSON.stringify(corrupt(JSON.parse(lines[n]!)));
    const file = join(tmp(), "bad.jsonl");
    writeFileSync(file, lines.join("\n"));
    const r = await runCliInProcess(["replay", file, ...options, "--quiet"]);
    expect(r.stderr).toMatch(new RegExp(`^agentwire: ${file} line ${n + 1} is not an agentwire transcript event: `));
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(2);
  });

  it("a header without its parameters is refused with its line", async () => {
    const file = join(tmp(), "bad-header.jsonl");
    const header = { agentwire: "transcript", version: 1, protocol: "mcp-chat", side: "client", profile: "default", params: null, target: "x", startedAt: "" };
    writeFileSync(file, `${JSON.stringify(header)}\n${readFileSync(join(ROOT, "fixtures/mcp-chat/transcripts/client/clean.jsonl"), "utf8")}`);
    const r = await runCliInProcess(["replay", file, "--quiet"]);
    expect(r.stderr).toBe(`agentwire: ${file} line 1 is not an agentwire transcript header: "params" must be a JSON object, got null\n`);
    expect(r.code).toBe(2);
  });

  it("has help with examples", async () => {
    const r = await runCliInProcess(["replay", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Examples:");
    expect(r.stdout).toContain("--protocol <id>");
  });
});

describe("replay of the recorded client fixtures", () => {
  const withFixtures = IMPLEMENTED_IDS.filter((id) => existsSync(join(ROOT, "fixtures", id, "transcripts", "client", "expected.json")));
  // Fixture transcripts predate headers: the protocol is given, the side read from the traffic.
  it.each(withFixtures)("%s: each fixture replays to its expected outcomes", async (id) => {
    const dir = join(ROOT, "fixtures", id, "transcripts", "client");
    const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as Record<string, Record<string, string>>;
    const protocol = await loadProtocol(id);
    expect(Object.keys(expected).length).toBeGreaterThan(0);
    for (const [file, outcomes] of Object.entries(expected)) {
      const r = await replayTranscript(protocol, readFileSync(join(dir, file), "utf8"), { file });
      expect(r.side, file).toBe("client");
      expect(Object.fromEntries(r.checks.map((c) => [c.id, c.outcome])), file).toEqual(outcomes);
    }
  });
});

describe("replayTranscript (library)", () => {
  it("re-judges a transcript given as text; a headerless one needs its protocol", async () => {
    const lib = await import("../../src/index.js");
    const text = readFileSync(join(ROOT, "fixtures/mcp-chat/transcripts/client/connect-unknown-id.jsonl"), "utf8");
    await expect(lib.replayTranscript(text, { file: "x.jsonl" })).rejects.toThrow(/no header/);
    const r = await lib.replayTranscript(text, { file: "x.jsonl", protocol: "mcp-chat" });
    expect(r.checks.find((c) => c.id === "mcp-chat/client/connect-known-id")!.outcome).toBe("fail");
    expect(r.replay).toBe(true);
  });
});
