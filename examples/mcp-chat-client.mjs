#!/usr/bin/env node
// A minimal mcp-chat client for `agentwire test-client mcp-chat -- node examples/mcp-chat-client.mjs`.
// It connects to the first listed server, then runs every robustness case the kit lists through
// one client-parse adapter and reports each result, so the kit can judge both the traffic it sent
// (client/* checks) and what it made of the streams (client-parse/* checks).
import { mcpChatAdapters, runMcpChatCases } from "agentwire/adapters";

const USAGE = `usage: node examples/mcp-chat-client.mjs [--adapter NAME] [--case-timeout MS]

Reads the mock's base URL from AGENTWIRE_URL (or MCP_CHAT_URL).
  --adapter NAME       one of: ${Object.keys(mcpChatAdapters).join(", ")} (default: spec)
  --case-timeout MS    give up on a case after MS milliseconds (default: the kit's per-case limit)
  --help               show this help`;

function parseArgs(argv) {
  const opts = { adapter: "spec", caseTimeoutMs: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes("=") ? arg.split(/=(.*)/s) : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "--help" || flag === "-h") return { help: true };
    else if (flag === "--adapter") opts.adapter = value();
    else if (flag === "--case-timeout") opts.caseTimeoutMs = Number(value());
    else return { error: `unknown argument: ${arg}` };
  }
  if (!mcpChatAdapters[opts.adapter]) return { error: `unknown adapter "${opts.adapter}"` };
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
const baseUrl = process.env.AGENTWIRE_URL ?? process.env.MCP_CHAT_URL;
if (!baseUrl) {
  console.error(`AGENTWIRE_URL (or MCP_CHAT_URL) is not set\n\n${USAGE}`);
  process.exit(2);
}

try {
  const runs = await runMcpChatCases(baseUrl, mcpChatAdapters[opts.adapter], {
    caseTimeoutMs: opts.caseTimeoutMs,
    log: (line) => console.error(`[${opts.adapter}] ${line}`),
  });
  console.error(`[${opts.adapter}] reported ${runs.length} case results`);
} catch (e) {
  console.error(`[${opts.adapter}] ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
