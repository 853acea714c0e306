/**
 * The commands, their options and help, declared to commander. Each command's module is imported
 * when it runs, and it loads only the protocol it needs.
 */
import { Command, Option } from "commander";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { packagePath } from "../core/package-root.js";
import { BASELINE_HELP, collect, intOption, paramOption } from "./options.js";
import { MOCK_OPTIONS, MOCK_SET_HELP } from "./mock-command.js";

/**
 * Where the shipped example clients are, seen from here: `examples` in the repository,
 * `node_modules/agentwire/examples` in a project that installed the package, so a pasted example runs.
 */
function examples(): string {
  const path = relative(process.cwd(), packagePath("examples"));
  return path === "" || path.startsWith("..") || path.includes(" ") ? packagePath("examples") : path;
}

export { CommanderError } from "commander";

const pkg = JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as { version: string };

const EXIT_HELP = `
Exit codes:
  0  every selected required check passed
  1  a check failed (or a SHOULD under --strict)
  2  usage or configuration error
  3  nothing failed, but something could not be tested (unreachable, timeout, not exercised, interrupted)`;


/** Which checks count and how strictly: every command that judges (`verb`: what it does with the selected checks). */
function selectOptions(cmd: Command, verb: "run" | "judge"): Command {
  return cmd
    .option("--only <prefix>", `${verb} only checks whose id starts with PREFIX (repeatable)`, collect)
    .option("--skip <prefix>", "skip checks whose id starts with PREFIX (repeatable)", collect)
    .option("--strict", "SHOULD failures and not-exercised checks fail the run");
}

/** Where the verdicts go: every command that reports them. */
function outputOptions(cmd: Command): Command {
  return cmd
    .option("--reporter <name>", "console | json | junit | ndjson | markdown | html (repeatable; pairs with --output)", collect)
    .option("--output <path>", "write the matching --reporter to PATH instead of stdout (- is stdout; repeatable)", collect);
}

/** What --set takes where it sets the protocol's parameters (test, baseline write). */
const PARAM_SET_HELP = "protocol parameter (repeatable), e.g. --set minGapMs=50";

/** `set`: what --set takes there (the protocol's parameters, or the mock's settings). */
function reportOptions(cmd: Command, reporters = true, set = PARAM_SET_HELP): Command {
  cmd = selectOptions(cmd, "run")
    .option("--profile <name>", "relaxations for a known implementation (see agentwire list)")
    .option("--timeout <ms>", "cap every wait of the run, in ms", intOption("--timeout", 1));
  if (reporters) cmd = outputOptions(cmd).option("--baseline <file>", BASELINE_HELP);
  return cmd
    .option("--save-transcript <dir>", "write what crossed the wire as JSON Lines into DIR (credentials redacted)")
    .option("--no-redact", "keep credentials in transcripts and reports (by default every --header and --token value is hidden)")
    .option("--set <key=value>", set, collect)
    .option("-q, --quiet", "no progress lines on stderr");
}

/** The options of `agentwire test` that say what to test (shared with `baseline write`). */
function testOptions(cmd: Command): Command {
  return cmd
    .option("--url <url>", "base URL of the server under test (default: the built-in mock on a free port)")
    .addOption(new Option("--base-url <url>", "same as --url").hideHelp())
    .option("--header <header>", '"Name: value" added to every request (repeatable; its value is redacted in reports and transcripts)', collect)
    .option("--token <token>", "sent as Authorization: Bearer TOKEN (redacted in reports and transcripts)")
    .option("--origin <origin>", "browser origin the probes claim (mcp-chat default http://localhost:3000)")
    .option("--prompt <text>", "chat prompt for probes that need the agent to act")
    .option("--tool-prompt <text>", "stagewise-chat: a prompt that makes the agent call a tool needing approval")
    .option("--no-ping-wait", "stagewise-chat: do not wait up to 35 s on a silent connection for the server's PING (trpc/keepalive-ping stays incomplete)")
    .option("--model <name>", "model name for protocols that need one (openai-chat)")
    .option("--catalogue <name>", "openai-chat: the tool catalogue the probes offer and judge by: seed | continue-2026 | continue-cli-2026 | none")
    .option("--max-requests <n>", "cap on requests sent to a paid backend", intOption("--max-requests", 1))
    .option("--max-bytes <n>", "stop reading a response after N bytes", intOption("--max-bytes", 1))
    .option("--close-timeout <ms>", "longest wait from a terminal event to the end of the body (mcp-chat: 2000)", paramOption("closeTimeoutMs"))
    .option("--min-gap <ms>", "least time between the first event and the end of a streamed answer with tools (mcp-chat: 100)", paramOption("minGapMs"))
    .option("--keep-connection", "mcp-chat: leave the backend connected at the end")
    .option("--no-exit", "continue-remote: do not send POST /exit at the end (the server keeps running)")
    .option("--poll-interval <ms>", "continue-remote: gap between the starts of two polls of GET /state (default 500)", paramOption("pollIntervalMs"))
    .option("--fault <name>", "built-in mock only: inject a fault, to see a check fail (repeatable)", collect);
}

export function buildProgram(): Command {
  const program = new Command("agentwire")
    .description("Conformance tests and mock servers for the wire protocols between AI coding agents and their UIs.")
    .version(pkg.version)
    .showHelpAfterError("(run with --help for usage)")
    .addHelpText(
      "after",
      `
Examples:
  agentwire test                                    every suite against its built-in mock
  agentwire test mcp-chat --url http://localhost:8000
  agentwire test mcp-chat --url http://localhost:8000 --reporter junit --output report.xml
  agentwire mock mcp-chat --scenario two-tools --port 0
  agentwire test-client mcp-chat -- node ${examples()}/mcp-chat-client.mjs
  agentwire proxy mcp-chat --target http://localhost:8000
  agentwire validate mcp-chat chat-request body.json
  agentwire replay transcripts/mcp-chat-….jsonl --only mcp-chat/sse
  agentwire list mcp-chat
${EXIT_HELP}`,
    );

  program
    .command("list")
    .description("list protocols, their checks, scenarios, faults and profiles")
    .argument("[protocol]")
    .option("--json", "machine-readable output")
    .addHelpText("after", "\nExamples:\n  agentwire list\n  agentwire list mcp-chat --json")
    .action(async (protocol: string | undefined, o: { json?: boolean }) => {
      const { runList } = await import("./list.js");
      process.exitCode = await runList(protocol, o);
    });

  testOptions(
    reportOptions(
      program
        .command("test")
        .description("judge a server (or, without --url, each built-in mock) against the protocol's server-side checks")
        .argument("[protocol]", "protocol id; all implemented protocols when omitted (built-in mocks only)"),
    ),
  )
    .addHelpText(
      "after",
      `\nExamples:\n  agentwire test\n  agentwire test mcp-chat --url http://localhost:8000 --header "Authorization: Bearer $TOKEN"\n  agentwire test mcp-chat --only mcp-chat/sse --strict\n  agentwire test continue-remote --url http://127.0.0.1:8000 --profile cn-session --no-exit\n  agentwire test mcp-chat --fault sse-crlf\n  agentwire test mcp-chat --url http://localhost:8000 --baseline agentwire-baseline.yaml\n  agentwire test mcp-chat --url http://localhost:8000 --reporter html --output report.html --reporter console\n  agentwire test mcp-chat --url http://localhost:8000 --reporter ndjson --output verdicts.ndjson --reporter markdown >> "$GITHUB_STEP_SUMMARY"\n${EXIT_HELP}`,
    )
    .action(async (protocol: string | undefined, o) => {
      const { runTest } = await import("./test.js");
      process.exitCode = await runTest(protocol, o);
    });

  const baseline = program
    .command("baseline")
    .description("known failures: start a baseline file from a run")
    .addHelpText("after", "\nExamples:\n  agentwire baseline write mcp-chat --url http://localhost:8000\n  agentwire test mcp-chat --url http://localhost:8000 --baseline agentwire-baseline.yaml");
  testOptions(
    reportOptions(
      baseline
        .command("write")
        .description("run the server-side checks as `agentwire test` does and write the failing ones as a baseline file")
        .argument("[protocol]", "protocol id; all implemented protocols when omitted (built-in mocks only)")
        .option("--output <file>", "the baseline file to write", "agentwire-baseline.yaml"),
      false,
    ),
  )
    .addHelpText(
      "after",
      `\nEach entry gets the failure as its reason: replace it with why the failure is accepted, and add\nlink: and expires: YYYY-MM-DD where you can. Then run agentwire test ... --baseline FILE.\n\nExamples:\n  agentwire baseline write mcp-chat --url http://localhost:8000\n  agentwire baseline write openai-chat --url http://localhost:11434/v1 --model qwen3 --output ci/agentwire-baseline.yaml`,
    )
    .action(async (protocol: string | undefined, o) => {
      const { runBaselineWrite } = await import("./test.js");
      process.exitCode = await runBaselineWrite(protocol, o);
    });

  reportOptions(
    program
      .command("test-client")
      .description("play the server for a client command and judge what it sends")
      .argument("<protocol>")
      .argument("[command...]", "the client command, after --")
      .option("--scenario <name>", "mock scenario for the client's requests")
      .option("--framing <name>", "mock framing variant")
      .option("--fault <name>", "mock fault (repeatable)", collect)
      .option("--token <token>", "make the mock require this token; the client gets it (pi-web: PI_WEB_TOKEN; continue-remote: CONTINUE_REMOTE_TOKEN)")
      .option("--catalogue <name>", "openai-chat: the mock's tool catalogue, which the client's tools are judged by: seed | continue-2026 | continue-cli-2026 | none"),
    true,
    MOCK_SET_HELP,
  )
    .addHelpText(
      "after",
      `\nThe command gets AGENTWIRE_URL (and protocol variables such as MCP_CHAT_URL) in its environment.\n\nExamples:\n  agentwire test-client mcp-chat -- node ${examples()}/mcp-chat-client.mjs\n  agentwire test-client mcp-chat --set notConnected=http-409 -- node ${examples()}/mcp-chat-client.mjs\n  agentwire test-client mcp-chat --reporter json --output client.json -- npm run e2e\n  agentwire test-client mcp-chat --baseline agentwire-baseline.yaml --save-transcript transcripts -- npm run e2e\n${EXIT_HELP}`,
    )
    .action(async (protocol: string, command: string[], o) => {
      const { runTestClient } = await import("./test-client.js");
      process.exitCode = await runTestClient(protocol, command, o);
    });

  const replay = program
    .command("replay")
    .description("re-judge a transcript saved with --save-transcript, without the target (same verdicts as the live run)")
    .argument("<transcript>", "a .jsonl file written by --save-transcript");
  outputOptions(selectOptions(replay, "judge").option("--profile <name>", "judge under another profile than the one recorded"))
    .option("--set <key=value>", "protocol parameter over the recorded ones (repeatable)", collect)
    .option("--baseline <file>", BASELINE_HELP)
    .option("--protocol <id>", "the protocol, for a transcript saved without a header by an older agentwire")
    .option("-q, --quiet", "no progress lines on stderr")
    .addHelpText(
      "after",
      `\nThe transcript's first line says which protocol, profile and parameters it was recorded with.\n\nExamples:\n  agentwire test mcp-chat --url http://localhost:8000 --save-transcript transcripts\n  agentwire replay transcripts/mcp-chat-2026-01-01T00-00-00-000Z.jsonl\n  agentwire replay transcripts/mcp-chat-….jsonl --only mcp-chat/sse --reporter junit --output replay.xml\n${EXIT_HELP}`,
    )
    .action(async (file: string, o) => {
      const { runReplay } = await import("./replay.js");
      process.exitCode = await runReplay(file, o);
    });

  const mock = program
    .command("mock")
    .description("run a protocol's reference mock until Ctrl-C (first stdout line: the URL a client uses; others follow)")
    .argument("<protocol>");
  // Declared from the list the quick reading of a plain `agentwire mock` uses too (mock-command.ts).
  for (const o of MOCK_OPTIONS) {
    if (o.parse) mock.option(o.flags, o.description, o.parse as (value: string, previous: unknown) => unknown);
    else if (o.default !== undefined) mock.option(o.flags, o.description, o.default);
    else mock.option(o.flags, o.description);
  }
  mock
    .addHelpText(
      "after",
      `\nExamples:\n  agentwire mock mcp-chat\n  agentwire mock mcp-chat --port 0 --scenario parallel-tools --chunk-delay-ms 100\n  agentwire mock mcp-chat --fault sse-crlf\n  agentwire mock mcp-chat --check-client --report client-report.json
  agentwire mock pi-web --token s3cret --allow-origin http://localhost:5173
  agentwire mock pi-web --profile pi-fork-0.54
  agentwire mock openai-chat --catalogue continue-cli-2026 --check-client
  agentwire mock mcp-chat --check-client --report client-report.json --baseline agentwire-baseline.yaml`,
    )
    .action(async (protocol: string, o) => {
      const { runMock } = await import("./mock.js");
      process.exitCode = await runMock(protocol, o);
    });

  const proxy = program
    .command("proxy")
    .description("relay a client's traffic to a server and judge both sides live (first stdout line: the URL to point the client at)")
    .argument("<protocol>")
    .option("--target <url>", "the server the client would talk to (as `agentwire test --url` takes it)")
    .option("--host <host>", "address to bind", "127.0.0.1")
    .option("--port <n>", "port (default: any free port; stagewise-chat: the first free one of 5746..5776, where toolbars look)", intOption("--port", 0, 65535))
    .option("--profile <name>", "relaxations for a known implementation (see agentwire list)");
  outputOptions(selectOptions(proxy, "judge").option("--set <key=value>", "protocol parameter the checks read (repeatable)", collect))
    .option("--save-transcript <dir>", "write both directions as JSON Lines into DIR (credentials redacted)")
    .option("--max-exchanges <n>", "stop and report after N exchanges (HTTP) or connections (WebSocket)", intOption("--max-exchanges", 1))
    .option("--duration <s>", "stop and report after S seconds", intOption("--duration", 1))
    .option("--timeout <ms>", "longest wait for the target's response head (default: the protocol's)", intOption("--timeout", 1))
    .option("-q, --quiet", "no progress lines on stderr")
    .addHelpText(
      "after",
      `\nEvery byte is forwarded unchanged (credentials too; they are redacted in transcripts and reports).\nRules that need the kit's own probes or mock end skip with the reason.\n\nExamples:\n  agentwire proxy openai-chat --target http://localhost:11434/v1\n  agentwire proxy mcp-chat --target http://localhost:8000 --port 8001 --reporter ndjson\n  agentwire proxy mcp-chat --target http://localhost:8000 --max-exchanges 20 --reporter json --output proxy.json\n${EXIT_HELP}`,
    )
    .action(async (protocol: string, o) => {
      const { runProxy } = await import("./proxy.js");
      process.exitCode = await runProxy(protocol, o);
    });

  program
    .command("validate")
    .description("validate a JSON message against the protocol's schema (errors carry JSON pointers)")
    .argument("<protocol>")
    .argument("<message>", "message name (see agentwire schema <protocol>)")
    .argument("[file]", "JSON file, or - for stdin", "-")
    .option("--profile <name>", "validate with a profile's schema overlays")
    .addHelpText("after", "\nExit 0 valid, 1 invalid, 2 unreadable input.\n\nExamples:\n  agentwire validate mcp-chat chat-request body.json\n  echo '{\"message\":\"hi\"}' | agentwire validate mcp-chat chat-request -")
    .action(async (protocol: string, message: string, file: string, o: { profile?: string }) => {
      const { runValidate } = await import("./validate.js");
      process.exitCode = await runValidate(protocol, message, file, o);
    });

  program
    .command("schema")
    .description("print a protocol's JSON Schemas (all, or one message)")
    .argument("<protocol>")
    .argument("[message]")
    .addHelpText("after", "\nExamples:\n  agentwire schema mcp-chat\n  agentwire schema mcp-chat stream-event")
    .action(async (protocol: string, message: string | undefined) => {
      const { runSchema } = await import("./validate.js");
      process.exitCode = runSchema(protocol, message);
    });

  return program;
}
