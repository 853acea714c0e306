/**
 * A plain `agentwire mock` is read without commander (so the mock starts quickly): whatever that
 * reading accepts, it must read exactly as commander does, and whatever it is not sure of it must
 * leave to commander (help, --version, mistakes, a value that looks like an option).
 */
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { readMockArgs } from "../../src/cli/mock-command.js";
import { buildProgram } from "../../src/cli/program.js";

/** What commander hands the mock command's action for `args`, or the error it throws. */
async function commanderReads(args: string[]): Promise<{ protocol: string; options: Record<string, unknown> } | { error: string }> {
  const program = buildProgram();
  const override = (c: Command): void => {
    c.exitOverride();
    c.configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
    c.commands.forEach(override);
  };
  override(program);
  let read: { protocol: string; options: Record<string, unknown> } | undefined;
  program.commands.find((c) => c.name() === "mock")!.action((protocol: string, options: Record<string, unknown>) => {
    read = { protocol, options: { ...options } };
  });
  try {
    await program.parseAsync(["node", "agentwire", ...args]);
  } catch (e) {
    return { error: (e as Error).message };
  }
  return read ?? { error: "no action" };
}

const READ_QUICKLY: string[][] = [
  ["mock", "mcp-chat"],
  ["mock", "mcp-chat", "--port", "0"],
  ["mock", "--port", "0", "openai-chat"],
  ["mock", "pi-web", "--port=8123", "--host", "0.0.0.0", "--token", "s3cret", "--allow-origin", "http://a", "--allow-origin=http://b"],
  ["mock", "mcp-chat", "--fault", "sse-crlf", "--fault", "no-done", "--scenario", "two-tools", "--framing", "crlf"],
  ["mock", "openai-chat", "--first-byte-ms", "5", "--chunk-delay-ms", "0", "--seed", "42", "--set", "ttftMs=1", "--set", "x={\"a\":1}"],
  ["mock", "mcp-chat", "--check-client", "--report", "r.json", "--baseline", "b.yaml", "--profile", "budget-master"],
  ["mock", "openai-chat", "--catalogue", "none", "--port", "1", "--port", "2"],
  ["mock", "continue-remote", "--scenario="],
];

const LEFT_TO_COMMANDER: string[][] = [
  ["mock"],
  ["mock", "--help"],
  ["mock", "mcp-chat", "-h"],
  ["mock", "mcp-chat", "-V"],
  ["mock", "mcp-chat", "extra"],
  ["mock", "mcp-chat", "--bogus"],
  ["mock", "mcp-chat", "--port"],
  ["mock", "mcp-chat", "--port", "abc"],
  ["mock", "mcp-chat", "--port=70000"],
  ["mock", "mcp-chat", "--check-client=yes"],
  ["mock", "mcp-chat", "--scenario", "--help"],
  ["mock", "mcp-chat", "--scenario", "-x"],
  ["mock", "mcp-chat", "--", "--port", "0"],
  ["mock", "-"],
  ["help", "mock"],
  ["list", "mcp-chat"],
];

describe("agentwire mock without commander", () => {
  it.each(READ_QUICKLY)("reads %j as commander does", async (...args) => {
    const quick = readMockArgs(args);
    expect(quick).toBeDefined();
    expect(quick).toEqual(await commanderReads(args));
  });

  it.each(LEFT_TO_COMMANDER)("leaves %j to commander", (...args) => {
    expect(readMockArgs(args)).toBeUndefined();
  });
});
