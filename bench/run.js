#!/usr/bin/env node
/**
 * npm run bench — throughput and memory of the kit, each as a ratio against a baseline measured in
 * the same run on the same machine (absolute numbers on a shared machine mean little).
 *
 * Per protocol: the mock against a bare server sending the same bytes; the checks against the
 * least any checker does (JSON.parse + ajv), and for the SSE protocols the kit's reading alone
 * (bytes to lines and events, no check) against the same baseline, the checker row's ceiling; RSS
 * after 10^3 vs 10^6 events through recorder and checks (a ratio near 1 means memory does not grow
 * with stream length).
 *
 * The SSE tokeniser on its own: events/s against a bare decode-and-split reader.
 *
 * continue-remote (polled, not streamed): GET /state per second against a bare server; the checks
 * per poll with a 10^4-entry history against JSON.parse + ajv; RSS after 10^3 vs 10^5 polls.
 *
 * pi-web and stagewise-chat (WebSocket): one long turn; the mock streaming it to a plain client against a bare `ws`
 * server sending the same frames; the turn as the kit recorded it, judged by every check after a recorded suite run,
 * against JSON.parse + ajv of the same frames; end to end (informational), the mock through the kit's client and checks
 * against the bare server to a plain client; RSS after 10^3 vs 10^6 streamed updates.
 *
 * Mock start-up: spawn of `agentwire mock <protocol>` to its first answer, against `node -e`
 * serving a bare http server.
 *
 * The live proxy: p99 latency of SSE events and WebSocket frames through `agentwire proxy`
 * (relayed, recorded and judged) against the same streams read directly; its CPU per event
 * against a bare relay; its heap after 10^5 events against 10^3.
 *
 * Options: --quick (smaller sizes), --events N (memory run size), --only <protocol | sse-tokeniser | proxy | startup>.
 */
import { benchContinueRemote } from "./continue-remote.js";
import { benchMcpChat } from "./mcp-chat.js";
import { benchOpenaiChat } from "./openai-chat.js";
import { benchPiWeb } from "./pi-web.js";
import { benchProxy } from "./proxy.js";
import { benchSseTokeniser } from "./sse.js";
import { benchStagewiseChat } from "./stagewise-chat.js";
import { benchStartup } from "./startup.js";

const BENCHES = { "sse-tokeniser": benchSseTokeniser, "mcp-chat": benchMcpChat, "openai-chat": benchOpenaiChat, "pi-web": benchPiWeb, "continue-remote": benchContinueRemote, "stagewise-chat": benchStagewiseChat, proxy: benchProxy, startup: benchStartup };

const onlyArg = process.argv.indexOf("--only");
const only = onlyArg >= 0 ? process.argv[onlyArg + 1] : undefined;
const rows = [];
for (const [id, bench] of Object.entries(BENCHES)) {
  if (only && id !== only) continue;
  process.stderr.write(`bench: ${id}…\n`);
  rows.push(...(await bench()));
}

const widths = [44, 14, 14, 30, 8, 24];
const row = (cols) => cols.map((c, i) => String(c).padEnd(widths[i])).join("  ");
const fmt = (r, v) => (r.unit ? v.toFixed(1) : Math.round(v).toLocaleString("en"));
console.log(row(["measure", "kit", "baseline", "baseline is", "ratio", "work measured"]));
console.log(row(widths.map((w) => "-".repeat(w))));
for (const r of rows) console.log(row([r.name, fmt(r, r.kit), fmt(r, r.base), r.baseName, (r.kit / r.base).toFixed(2), r.work ?? ""]));
console.log("\nratio = kit / baseline: above 1 the kit is faster (or, for RSS and start-up, uses more memory or time).");
