import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { runCli, runCliInProcess, startCli, waitExit, ROOT } from "../helpers/cli.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const tmp = () => mkdtempSync(join(tmpdir(), "agentwire-cli-"));

async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

// Each case runs its own processes, ports and files: they run side by side (vitest's maxConcurrency).
// The bin runs a user's commands end to end; the rest runs the command line in-process, one at a time.
describe.concurrent("agentwire CLI", () => {
  it("prints help with examples and exit codes", async () => {
    const r = await runCli(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Examples:");
    expect(r.stdout).toContain("Exit codes:");
    const t = await runCliInProcess(["test", "--help"]);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain("--only <prefix>");
  });

  it("the example clients --help names are found from where the command runs (the repository or any project)", async () => {
    for (const cwd of [ROOT, tmpdir()]) {
      for (const args of [["--help"], ["test-client", "--help"]]) {
        const r = await runCli(args, { cwd });
        const paths = [...r.stdout.matchAll(/-- node (\S+\.mjs)/g)].map((m) => m[1]!);
        expect(paths.length, `${args.join(" ")} in ${cwd}`).toBeGreaterThan(0);
        for (const p of paths) expect(existsSync(resolve(cwd, p)), `${p} from ${cwd}`).toBe(true);
      }
    }
  });

  it("test-client's --help gives --set as the mock's settings, with examples test-client takes", async () => {
    const help = (await runCliInProcess(["test-client", "--help"])).stdout;
    expect(help.replace(/\s+/g, " ")).toMatch(/--set <key=value> mock setting \(repeatable\), e\.g\. --set notConnected=http-409/);
    expect(help).not.toMatch(/minGapMs/);
    // Every --set the help shows, as a test-client run would take it (a client that does nothing).
    const sets = [...help.replace(/\s+/g, " ").matchAll(/--set (\w+=\S+)/g)].map((m) => m[1]!);
    expect(sets.length).toBeGreaterThanOrEqual(2);
    for (const kv of sets) {
      const r = await runCliInProcess(["test-client", "mcp-chat", "--quiet", "--set", kv, "--", process.execPath, "-e", ""]);
      expect(r.code, `--set ${kv}: ${r.stderr}`).not.toBe(2);
    }
  });

  it("baseline write takes the options of test but those the README leaves out, and refuses --reporter in one line", async () => {
    const { buildProgram } = await import("../../src/cli/program.js");
    const program = buildProgram();
    const flags = (c: import("commander").Command) => c.options.map((o) => o.long!);
    const test = program.commands.find((c) => c.name() === "test")!;
    const write = program.commands.find((c) => c.name() === "baseline")!.commands.find((c) => c.name() === "write")!;
    expect(flags(test).filter((f) => !flags(write).includes(f))).toEqual(["--reporter", "--baseline"]);
    expect(flags(write)).toContain("--output");
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("[the options of test, but --reporter, its --output and --baseline]");
    const r = await runCliInProcess(["baseline", "write", "mcp-chat", "--reporter", "json"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^agentwire: unknown option '--reporter'/);
  });

  it("runs every implemented suite against the built-in mocks with exit 0", async () => {
    const r = await runCli(["test", "--quiet"]);
    expect(r.stderr + r.stdout).toMatch(/\b0 failed\b/);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/PASS\s+mcp-chat\/sse\/lf-only/);
    // One report per protocol, in the catalogue's order, each clean (the suites run side by side).
    const reports = [...r.stdout.matchAll(/^agentwire (\S+) \(server side\) — built-in mock/gm)].map((m) => m[1]);
    expect(reports).toEqual(["mcp-chat", "openai-chat", "pi-web", "continue-remote", "stagewise-chat"]);
    expect(r.stdout.match(/^\d+ passed, 0 failed, 0 warnings, .* 0 incomplete .* exit 0$/gm)).toHaveLength(5);
  });

  it("runs the continue-remote suite on its mock in the cn-session profile with exit 0", async () => {
    const r = await runCli(["test", "continue-remote", "--quiet", "--profile", "cn-session", "--strict", "--poll-interval", "10"]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/PASS\s+continue-remote\/pause\/semantics/);
  });

  it("writes a JSON report that follows schemas/report.schema.json, and JUnit with one testcase per check", async () => {
    const dir = tmp();
    const json = join(dir, "r.json");
    const xml = join(dir, "r.xml");
    const r = await runCliInProcess(["test", "mcp-chat", "--quiet", "--reporter", "json", "--output", json, "--reporter", "junit", "--output", xml]);
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(json, "utf8"));
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const ok = ajv.validate(JSON.parse(readFileSync(join(ROOT, "schemas/report.schema.json"), "utf8")), report);
    expect(ok, JSON.stringify(ajv.errors)).toBe(true);
    expect(report.protocol).toBe("mcp-chat");
    expect(report.summary.fail).toBe(0);
    const junit = readFileSync(xml, "utf8");
    expect((junit.match(/<testcase /g) ?? []).length).toBe(report.checks.length);
  });

  it("shows a failing check, with its rule and evidence, when the mock runs a fault", async () => {
    const r = await runCliInProcess(["test", "mcp-chat", "--quiet", "--fault", "sse-crlf", "--only", "mcp-chat/sse"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL\s+mcp-chat\/sse\/lf-only/);
    expect(r.stdout).toContain("rule:");
    expect(r.stdout).toContain("evidence:");
  });

  it("exits 3 when the target is unreachable", async () => {
    const port = await closedPort();
    const r = await runCliInProcess(["test", "mcp-chat", "--quiet", "--url", `http://127.0.0.1:${port}`, "--timeout", "3000"]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain("unreachable");
    expect(r.stdout).not.toMatch(/^PASS/m);
  });

  it.each([
    [["test", "nope"], /unknown protocol "nope"/],
    [["test", "mcp-chat", "--only", "mcp-chat/nothing-here"], /no server-side check/],
    [["test", "mcp-chat", "--reporter", "xml"], /unknown reporter/],
    [["test", "mcp-chat", "--timeout", "soon"], /whole number/],
    [["test", "mcp-chat", "--url", "not a url"], /not a URL/],
    [["test", "mcp-chat", "--profile", "nope"], /unknown profile/],
    [["test", "mcp-chat", "--fault", "no-such-fault"], /no-such-fault/],
    [["mock", "mcp-chat", "--fault", "no-such-fault", "--port", "0"], /no-such-fault/],
    [["mock", "mcp-chat", "--scenario", "nope", "--port", "0"], /nope/],
    [["validate", "mcp-chat", "no-such-message", "-"], /unknown message/],
    [["test-client", "mcp-chat"], /after "--"/],
    [["frobnicate"], /unknown command/],
  ])("usage error %j exits 2 with a clear message", async (args, message) => {
    // In-process but where the command reads stdin ("-"): the bin is given its input.
    const r = (args as string[]).includes("-") ? await runCli(args as string[], { input: "{}" }) : await runCliInProcess(args as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message as RegExp);
    expect(r.stderr).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/); // no stack trace
  });

  it("validates messages with JSON pointers, from a file or stdin", async () => {
    const dir = tmp();
    const good = join(dir, "good.json");
    writeFileSync(good, JSON.stringify({ message: "hi" }));
    expect((await runCliInProcess(["validate", "mcp-chat", "chat-request", good])).code).toBe(0);
    const bad = await runCli(["validate", "mcp-chat", "chat-request", "-"], { input: '{"message": 42}' });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("/message");
    const notJson = await runCli(["validate", "mcp-chat", "chat-request", "-"], { input: "{oops" });
    expect(notJson.code).toBe(2);
    const missing = await runCliInProcess(["validate", "mcp-chat", "chat-request", join(dir, "missing.json")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("ENOENT");
  });

  it("prints schemas and lists the catalogue as JSON", async () => {
    const s = await runCliInProcess(["schema", "mcp-chat", "chat-request"]);
    expect(s.code).toBe(0);
    expect(JSON.parse(s.stdout).$id).toContain("chat-request");
    const l = await runCliInProcess(["list", "--json"]);
    expect(l.code).toBe(0);
    const list = JSON.parse(l.stdout);
    const mcp = list.protocols.find((p: { id: string }) => p.id === "mcp-chat");
    expect(mcp.checks.length).toBeGreaterThan(40);
    for (const c of mcp.checks) expect(Object.keys(c)).toEqual(expect.arrayContaining(["id", "level", "side", "title", "ref"]));
    for (const f of mcp.faults) expect(f.violates.length).toBeGreaterThan(0);
    expect(mcp.scenarios.map((x: { name: string }) => x.name)).toContain("weather-tool");
    expect(mcp.profiles.map((x: { name: string }) => x.name)).toContain("budget-master");
  });

  it("runs the mock: URL on the first stdout line, serves the contract, stops on SIGTERM", async () => {
    const { child, firstLine } = await startCli(["mock", "mcp-chat", "--port", "0"]);
    try {
      expect(firstLine).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${firstLine}/servers`, { headers: { origin: "http://localhost:3000" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
      expect((await res.json()).length).toBeGreaterThan(0);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await waitExit(child)).toBe(0);
  });

  it("reports a used port as a usage error", async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
    const port = (srv.address() as { port: number }).port;
    try {
      const r = await runCliInProcess(["mock", "mcp-chat", "--port", String(port)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("in use");
    } finally {
      srv.close();
    }
  });

  it("judges clients of the mock and writes the report on exit (--check-client)", async () => {
    const dir = tmp();
    const report = join(dir, "client.json");
    const { child, firstLine, output } = await startCli(["mock", "mcp-chat", "--port", "0", "--check-client", "--report", report]);
    // A client that chats with a bad body before connecting: two client checks must fail.
    await fetch(`${firstLine}/chat/stream`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: "http://localhost:3000" },
      body: '{"msg":"hi"}',
    }).then((r) => r.arrayBuffer());
    child.kill("SIGINT");
    expect(await waitExit(child)).toBe(1);
    const r = JSON.parse(readFileSync(report, "utf8"));
    const byId = Object.fromEntries(r.checks.map((c: { id: string; verdict: string }) => [c.id, c.verdict]));
    expect(byId["mcp-chat/client/chat-request"]).toBe("fail");
    expect(byId["mcp-chat/client/connect-before-chat"]).toBe("warn");
    // The rerun line names what to run, not the report's label for the clients.
    expect(output().stderr).toMatch(/replay: +agentwire test-client mcp-chat --only mcp-chat\/client\/chat-request --save-transcript transcripts -- <the command that starts your client>/);
    expect(output().stderr).not.toContain("-- clients of agentwire mock");
  });

  it("test-client sends what the client prints on stdout to stderr: the report on stdout stays whole", async () => {
    // The line is put together when printed: the report names the command, whose text must not match.
    const r = await runCli(["test-client", "mcp-chat", "--quiet", "--reporter", "json", "--", process.execPath, "-e", "console.log('hello' + ' from the client')"]);
    expect(r.stderr).toContain("hello from the client");
    expect(r.stdout).not.toContain("hello from the client");
    expect(JSON.parse(r.stdout)).toMatchObject({ protocol: "mcp-chat", side: "client" });
  });

  it("test-client hands a token-protected mock's token to the client", async () => {
    const r = await runCli(["test-client", "pi-web", "--token", "s3cret", "--quiet", "--reporter", "json", "--", process.execPath, "examples/pi-web-client.mjs"], { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    const connect = report.checks.find((c: { id: string }) => c.id === "pi-web/client/connect");
    expect(connect.verdict).toBe("pass");
    expect(r.stdout).not.toContain("s3cret");
  });

  it("test-client hands the key an openai-chat mock requires (--token) to the client as OPENAI_API_KEY", async () => {
    const r = await runCli(["test-client", "openai-chat", "--token", "k3y-s3cret", "--quiet", "--reporter", "json", "--", process.execPath, "examples/openai-chat-client.mjs"], { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    const auth = report.checks.find((c: { id: string }) => c.id === "openai-chat/client/auth-header");
    expect(auth.verdict, auth.message).toBe("pass");
    expect(r.stdout).not.toContain("k3y-s3cret");
  });
});

describe("agentwire test --token against the built-in mock", () => {
  it("makes the mock require the token, so the token rules pass against it", async () => {
    for (const [protocol, check] of [["pi-web", "pi-web/conn/token-401"], ["openai-chat", "openai-chat/auth/"]] as const) {
      const r = await runCliInProcess(["test", protocol, "--token", "abcd1234", "--only", check, "--reporter", "json", "--quiet"]);
      expect(r.code, `${protocol}: ${r.stdout}`).toBe(0);
      const report = JSON.parse(r.stdout) as { checks: { id: string; verdict: string }[] };
      for (const c of report.checks) expect(c.verdict, c.id).toBe("pass");
      expect(r.stdout).not.toContain("abcd1234");
    }
  });
});
