/**
 * agentwire proxy <protocol> --target URL — relays a real client's traffic to a real server and
 * judges both sides live. The first stdout line is the URL to point the client at; the report is
 * written on Ctrl-C, SIGTERM, --max-exchanges or --duration.
 */
import { checkWritableDir, parseParamSettings, reportTargets } from "./options.js";
import { combinedExitCode, openReports } from "./report-output.js";
import { UsageError } from "./errors.js";
import { onStopSignal } from "./stop-signals.js";

export interface ProxyCliOptions {
  target?: string;
  port?: number;
  host?: string;
  profile?: string;
  strict?: boolean;
  only?: string[];
  skip?: string[];
  set?: string[];
  reporter?: string[];
  output?: string[];
  saveTranscript?: string;
  maxExchanges?: number;
  duration?: number;
  timeout?: number;
  quiet?: boolean;
}

export async function runProxy(protocolId: string, o: ProxyCliOptions): Promise<number> {
  if (!o.target) throw new UsageError(`--target is required: the server the client would talk to, e.g. agentwire proxy ${protocolId} --target http://127.0.0.1:8000`);
  const { resolveProxied, startProxy } = await import("../proxy/index.js");
  const { protocol } = await resolveProxied(protocolId);
  // The proxy judges both sides.
  const { checkPrefixes } = await import("../core/run/runner.js");
  checkPrefixes([protocol], o, ["server", "client"]);
  const params = parseParamSettings([protocol], o.set);
  const targets = reportTargets(o.reporter, o.output);
  if (o.saveTranscript) checkWritableDir(o.saveTranscript, "--save-transcript");
  const reports = openReports(targets);
  const host = o.host ?? "127.0.0.1";
  // No --port: the proxy picks (stagewise-chat: the first free port of the range toolbars scan; others: any free port).
  const port = o.port;
  let proxy;
  try {
    proxy = await startProxy({
      protocol: protocolId,
      target: o.target,
      host,
      ...(port !== undefined ? { port } : {}),
      ...(o.profile ? { profile: o.profile } : {}),
      strict: !!o.strict,
      ...(o.only ? { only: o.only } : {}),
      ...(o.skip ? { skip: o.skip } : {}),
      ...(Object.keys(params).length ? { params } : {}),
      ...(o.saveTranscript ? { saveTranscript: o.saveTranscript } : {}),
      ...(reports.onVerdict ? { onVerdict: reports.onVerdict } : {}),
      ...(reports.onViolation ? { onViolation: reports.onViolation } : {}),
      ...(o.maxExchanges !== undefined ? { maxExchanges: o.maxExchanges } : {}),
      ...(o.timeout !== undefined ? { headTimeout: o.timeout } : {}),
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === "EADDRINUSE") throw new UsageError(`port ${port} on ${host} is in use; pick another with --port (0 = any free port)`);
    if (err.code === "EACCES" || err.code === "EADDRNOTAVAIL") throw new UsageError(`cannot listen on ${host}:${port}: ${err.code}`);
    if (err.code === "ENOTFOUND" || err.code === "EAI_AGAIN") throw new UsageError(`--host ${host} is not an address of this machine (${err.code})`);
    throw e;
  }
  const running = proxy;

  // Handlers before the URL: a script that stops the proxy as soon as it reads the URL must find them set.
  const why = await new Promise<string>((resolve) => {
    const done = (reason: string) => {
      if (timer) clearTimeout(timer);
      off();
      resolve(reason);
    };
    const timer = o.duration !== undefined ? setTimeout(() => done(`--duration ${o.duration} s`), o.duration * 1000) : undefined;
    const off = onStopSignal(done);
    void running.limitReached.then(() => done(`--max-exchanges ${o.maxExchanges}`));
    if (!isLoopback(host)) {
      process.stderr.write(`agentwire: warning: the proxy listens on ${host}, beyond loopback: any machine that can reach it can send requests to ${redactTarget(o.target!)} through it\n`);
    }
    process.stdout.write(`${running.url}\n`);
    if (!o.quiet) process.stderr.write(`agentwire: ${protocolId} proxy on ${running.url} → ${redactTarget(o.target!)}; Ctrl-C stops and reports\n`);
  });
  if (!o.quiet) process.stderr.write(`agentwire: proxy stopping (${why})\n`);
  const { results } = await running.close(why);
  // Both sides share one transcript: said once.
  const saved = new Set(results.flatMap((r) => (r.transcript ? [r.transcript] : [])));
  for (const file of saved) if (!o.quiet) process.stderr.write(`agentwire: transcript saved to ${file}\n`);
  reports.finish(results);
  return combinedExitCode(results);
}

function redactTarget(url: string): string {
  return url.replace(/([?&](?:token|access_token|api_key|apikey|key)=)[^&#]*/gi, "$1[redacted]");
}

/** Loopback names and addresses: only this machine can reach a proxy bound to one. */
function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}
