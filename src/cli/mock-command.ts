/**
 * The options of `agentwire mock`, as data. The command line declares them to commander, and a
 * plain `agentwire mock <protocol> [options]` is read from the same list without commander or the
 * other commands, so a mock starts quickly. Anything this reading is not sure of (help, --version,
 * an unknown or malformed option, a value that looks like an option, a missing or extra argument)
 * goes to commander, which answers it as it answers every command.
 */
import { BASELINE_HELP, collect, intOption } from "./options.js";
import type { MockCliOptions } from "./mock.js";

export interface OptionSpec {
  /** Commander's flags: `--name` (a switch) or `--name <value>`. */
  flags: string;
  description: string;
  /** Turns the given value (and the previous one, for repeatable options) into the option's value. */
  parse?(value: string, previous: never): unknown;
  default?: string;
}

/** What --set takes where it sets the mock (mock, test-client). */
export const MOCK_SET_HELP = "mock setting (repeatable), e.g. --set notConnected=http-409 (mcp-chat)";

export const MOCK_OPTIONS: readonly OptionSpec[] = [
  { flags: "--host <host>", description: "address to bind (beyond loopback, anyone who can reach it can use the mock)", default: "127.0.0.1" },
  { flags: "--port <n>", description: "port (0 = any free port; default: the protocol's usual port)", parse: intOption("--port", 0, 65535) },
  { flags: "--scenario <name>", description: "what the mock does for a chat (see agentwire list <protocol>)" },
  { flags: "--fault <name>", description: "break one rule on purpose (repeatable)", parse: collect },
  { flags: "--framing <name>", description: "how stream bytes are cut and terminated" },
  { flags: "--first-byte-ms <ms>", description: "delay before a stream's response head", parse: intOption("--first-byte-ms") },
  { flags: "--chunk-delay-ms <ms>", description: "delay between stream events", parse: intOption("--chunk-delay-ms") },
  { flags: "--seed <n>", description: "seed for random framing and jitter", parse: intOption("--seed") },
  { flags: "--set <key=value>", description: MOCK_SET_HELP, parse: collect },
  { flags: "--token <token>", description: "require this token from clients (pi-web: ?token=; openai-chat and continue-remote: Bearer; mcp-chat and stagewise-chat have none)" },
  { flags: "--catalogue <name>", description: "openai-chat: the tool catalogue: seed | continue-2026 | continue-cli-2026 | none" },
  { flags: "--allow-origin <origin>", description: "pi-web: also accept this browser Origin (repeatable)", parse: collect },
  { flags: "--check-client", description: "judge the clients that connect; report on exit" },
  { flags: "--report <path>", description: "with --check-client: write the JSON report to PATH on exit" },
  { flags: "--baseline <file>", description: `with --check-client: ${BASELINE_HELP}` },
  {
    flags: "--profile <name>",
    description:
      "play a known implementation (pi-web pi-fork-0.54: the fork's wire; openai-chat: the profile's tool catalogue); with --check-client, judge clients under it too (the only effect of a profile the mock cannot play)",
  },
];

interface Known {
  spec: OptionSpec;
  /** The key in the options object, as commander names it (`--first-byte-ms` → firstByteMs). */
  key: string;
  takesValue: boolean;
}

const BY_NAME = new Map<string, Known>(
  MOCK_OPTIONS.map((spec) => {
    const [name = "", value] = spec.flags.split(" ");
    const key = name.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    return [name, { spec, key, takesValue: value !== undefined }];
  }),
);

/**
 * `args` after the program name (`mock`, then the rest) read as commander would read them, or
 * undefined when commander should read them (it also says what is wrong with them).
 */
export function readMockArgs(args: readonly string[]): { protocol: string; options: MockCliOptions } | undefined {
  if (args[0] !== "mock") return undefined;
  const options: Record<string, unknown> = {};
  for (const { spec, key } of BY_NAME.values()) if (spec.default !== undefined) options[key] = spec.default;
  const operands: string[] = [];
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith("-")) {
      operands.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const known = BY_NAME.get(eq > 0 ? arg.slice(0, eq) : arg);
    if (!known) return undefined;
    if (!known.takesValue) {
      if (eq > 0) return undefined;
      options[known.key] = true;
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    // A value that looks like an option may be one commander reads otherwise (--help, --version).
    if (value === undefined || value.startsWith("-")) return undefined;
    try {
      options[known.key] = known.spec.parse ? known.spec.parse(value, options[known.key] as never) : value;
    } catch {
      return undefined;
    }
  }
  if (operands.length !== 1) return undefined;
  return { protocol: operands[0]!, options: options as MockCliOptions };
}
