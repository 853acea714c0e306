/** agentwire validate <protocol> <message> [FILE|-] and agentwire schema <protocol> [message] */
import { readFileSync } from "node:fs";
import { isatty } from "node:tty";
import { registry, UnknownMessageError } from "../core/schemas/schema-registry.js";
import { requireProtocol, requireProtocolId } from "./options.js";
import { UsageError } from "./errors.js";

function readInput(file: string | undefined): string {
  const stdin = !file || file === "-";
  // A terminal gives no sign that the command waits for it: say what it waits for, and how to end.
  // (isatty, not process.stdin.isTTY: making process.stdin turns fd 0 non-blocking, and the read fails.)
  if (stdin && isatty(0)) process.stderr.write("agentwire: reading the message from standard input; end with Ctrl-D\n");
  try {
    return readFileSync(stdin ? 0 : file, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read ${!file || file === "-" ? "standard input" : file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

export async function runValidate(protocolId: string, message: string, file: string | undefined, opts: { profile?: string }): Promise<number> {
  const p = await requireProtocol(protocolId);
  const text = readInput(file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${!file || file === "-" ? "standard input" : file} is not JSON: ${(e as Error).message}`);
  }
  const profile = opts.profile ?? "default";
  if (profile !== "default" && !p.profiles.some((x) => x.name === profile)) {
    throw new UsageError(`unknown profile "${profile}" for ${p.id}`);
  }
  let problems;
  try {
    problems = registry.explain(p.id, message, value, profile);
  } catch (e) {
    if (e instanceof UnknownMessageError) throw new UsageError(e.message);
    throw e;
  }
  if (problems.length === 0) {
    process.stdout.write(`valid ${p.id} ${message}\n`);
    return 0;
  }
  // Each problem once, at its JSON pointer, unions told by the alternative the value meant.
  process.stdout.write(`invalid ${p.id} ${message}:\n`);
  for (const e of problems) process.stdout.write(`  ${e.pointer || "/"}: ${e.message}\n`);
  return 1;
}

export function runSchema(protocolId: string, message: string | undefined): number {
  const id = requireProtocolId(protocolId);
  try {
    const out = message ? registry.schema(id, message) : Object.fromEntries(registry.messages(id).map((m) => [m, registry.schema(id, m)]));
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } catch (e) {
    if (e instanceof UnknownMessageError) throw new UsageError(e.message);
    throw e;
  }
  return 0;
}
