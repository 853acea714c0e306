#!/usr/bin/env node
// A minimal OpenAI Chat Completions client for
//   agentwire test-client openai-chat -- node examples/openai-chat-client.mjs
// It runs every robustness case the kit lists through one client-parse adapter (answering the tool
// loop's calls in a follow-up request, as Continue does) and reports each result, so the kit can
// judge both what it sent (client/* checks) and what it assembled (client-parse/* checks).
import { openaiChatAdapters, runOpenaiChatCases } from "agentwire/adapters";

const USAGE = `usage: node examples/openai-chat-client.mjs [--adapter NAME] [--case-timeout MS] [--only ID,...]

Reads the mock's base URL from OPENAI_BASE_URL (or AGENTWIRE_URL; /v1 is added to a bare host)
and the bearer key from OPENAI_API_KEY (default "example-key").
  --adapter NAME       one of: ${Object.keys(openaiChatAdapters).join(", ")} (default: spec)
  --case-timeout MS    give up on a case after MS milliseconds (default: the kit's per-case limit)
  --only ID,...        run only these case ids
  --help               show this help`;

function parseArgs(argv) {
  const opts = { adapter: "spec", caseTimeoutMs: undefined, only: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes("=") ? arg.split(/=(.*)/s) : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "--help" || flag === "-h") return { help: true };
    else if (flag === "--adapter") opts.adapter = value();
    else if (flag === "--case-timeout") opts.caseTimeoutMs = Number(value());
    else if (flag === "--only") opts.only = String(value() ?? "").split(",").filter(Boolean);
    else return { error: `unknown argument: ${arg}` };
  }
  if (!Object.hasOwn(openaiChatAdapters, opts.adapter ?? "")) return { error: `unknown adapter "${opts.adapter}"` };
  if (opts.caseTimeoutMs !== undefined && !(opts.caseTimeoutMs > 0)) return { error: "--case-timeout needs a positive number" };
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
if (opts.error) {
  console.error(`${opts.error}\n\n${USAGE}`);
  process.exit(2);
}
const baseUrl = process.env.OPENAI_BASE_URL || process.env.AGENTWIRE_URL;
if (!baseUrl) {
  console.error(`OPENAI_BASE_URL (or AGENTWIRE_URL) is not set\n\n${USAGE}`);
  process.exit(2);
}

try {
  const runs = await runOpenaiChatCases(baseUrl, openaiChatAdapters[opts.adapter], {
    apiKey: process.env.OPENAI_API_KEY || "example-key",
    caseTimeoutMs: opts.caseTimeoutMs,
    only: opts.only,
    log: (line) => console.error(`[${opts.adapter}] ${line}`),
  });
  console.error(`[${opts.adapter}] reported ${runs.length} case results`);
} catch (e) {
  console.error(`[${opts.adapter}] ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
