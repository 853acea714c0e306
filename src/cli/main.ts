/**
 * The agentwire command line. Usage problems exit 2 with one clear line, never a stack trace.
 * A plain `agentwire mock <protocol> [options]` starts without commander or the other commands
 * (mock-command.ts); everything else goes through the commands declared in program.ts.
 */
import type { Command } from "commander";
import { EXIT, UsageError } from "./errors.js";
import { readMockArgs } from "./mock-command.js";

export { exitWhenFlushed } from "./exit-flushed.js";

export async function main(argv: string[]): Promise<number> {
  let isCommanderError: (e: unknown) => e is { code: string; exitCode: number } = (e): e is { code: string; exitCode: number } => false;
  try {
    const mock = readMockArgs(argv.slice(2));
    if (mock) {
      const { runMock } = await import("./mock.js");
      process.exitCode = await runMock(mock.protocol, mock.options);
    } else {
      const { buildProgram, CommanderError } = await import("./program.js");
      isCommanderError = (e): e is { code: string; exitCode: number } => e instanceof CommanderError;
      const program = buildProgram();
      // Every command at every depth (`baseline write`) throws instead of ending the process, and its
      // messages speak as the kit's own do: "agentwire: unknown option …", not "error: …".
      const override = (c: Command): void => {
        c.exitOverride();
        c.configureOutput({ outputError: (s, write) => write(s.replace(/^error: /, "agentwire: ")) });
        c.commands.forEach(override);
      };
      override(program);
      await program.parseAsync(argv);
    }
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (e) {
    if (isCommanderError(e)) {
      // Help and version are "errors" to commander; they are successes to the user, unless the help
      // stands in for something missing (no command, `baseline` without write, help for an unknown command).
      if (e.code === "commander.helpDisplayed" || e.code === "commander.version") return 0;
      if (e.code === "commander.help") return e.exitCode === 0 ? 0 : EXIT.usage;
      return EXIT.usage;
    }
    if (e instanceof UsageError) {
      process.stderr.write(`agentwire: ${e.message}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`agentwire: internal error: ${(e as Error).message}\n`);
    if (process.env.AGENTWIRE_DEBUG) process.stderr.write(`${(e as Error).stack}\n`);
    return EXIT.usage;
  }
}

/** Where an in-process run's output goes. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

let running: Promise<unknown> = Promise.resolve();

/**
 * The command line inside this process (`argv` without node and the script): what it prints goes
 * to `io`, and the exit code is returned instead of ending the process. The commands write to
 * process.stdout and process.stderr, which are redirected while a run lasts, so runs take turns.
 * For a command that finishes by itself (a mock that waits for a signal is for the bin).
 */
export function run(argv: string[], io: CliIo): Promise<number> {
  const turn = running.then(async () => {
    const streams = [process.stdout, process.stderr] as const;
    const writes = streams.map((s) => s.write);
    const exitCode = process.exitCode;
    const redirect = (to: (text: string) => void) =>
      ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        to(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
        const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
        if (done) queueMicrotask(done);
        return true;
      }) as typeof process.stdout.write;
    process.stdout.write = redirect(io.stdout);
    process.stderr.write = redirect(io.stderr);
    try {
      process.exitCode = undefined;
      return await main(["node", "agentwire", ...argv]);
    } finally {
      streams.forEach((s, i) => (s.write = writes[i]!));
      process.exitCode = exitCode;
    }
  });
  running = turn.catch(() => undefined);
  return turn;
}
