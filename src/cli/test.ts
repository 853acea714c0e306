/** agentwire test [protocol] — the server-side suites, against a URL or the built-in mocks. */
import { runSuite } from "../core/runner.js";
import type { RunResult } from "../core/result.js";
import { loadAllProtocols } from "../protocol-loader.js";
import { checkUrl, intOption, parseHeaders, parseSettings, reportTargets, requireProtocol } from "./options.js";
import { combinedExitCode, writeReports } from "./report-output.js";
import { UsageError } from "./errors.js";

export interface TestCliOptions {
  url?: string;
  baseUrl?: string;
  closeTimeout?: number;
  minGap?: number;
  keepConnection?: boolean;
  only?: string[];
  skip?: string[];
  strict?: boolean;
  profile?: string;
  timeout?: number;
  reporter?: string[];
  output?: string[];
  saveTranscript?: string;
  header?: string[];
  token?: string;
  origin?: string;
  prompt?: string;
  model?: string;
  maxRequests?: number;
  set?: string[];
  maxBytes?: number;
  fault?: string[];
  quiet?: boolean;
}

export async function runTest(protocolId: string | undefined, o: TestCliOptions): Promise<number> {
  if (o.baseUrl && o.url && o.baseUrl !== o.url) throw new UsageError("--base-url and --url disagree; give one");
  o = { ...o, ...(o.baseUrl ? { url: o.baseUrl } : {}) };
  if (o.url && !protocolId) throw new UsageError("--url needs a protocol: agentwire test <protocol> --url URL");
  if (o.fault?.length && o.url) throw new UsageError("--fault applies to the built-in mock only; drop --url or --fault");
  const protocols = protocolId ? [await requireProtocol(protocolId)] : await loadAllProtocols();
  if (!protocolId && o.fault?.length) throw new UsageError("--fault needs a protocol");
  const targets = reportTargets(o.reporter, o.output);
  const headers = parseHeaders(o.header);
  const params = {
    ...parseSettings(o.set),
    ...(o.origin ? { origin: o.origin } : {}),
    ...(o.prompt ? { prompt: o.prompt } : {}),
    ...(o.model ? { model: o.model } : {}),
    ...(o.maxRequests !== undefined ? { maxRequests: o.maxRequests } : {}),
    ...(o.closeTimeout !== undefined ? { closeTimeoutMs: o.closeTimeout } : {}),
    ...(o.minGap !== undefined ? { minGapMs: o.minGap } : {}),
    ...(o.keepConnection ? { keepConnection: true } : {}),
  };
  const progress = o.quiet ? undefined : (m: string) => process.stderr.write(`agentwire: ${m}\n`);
  const sigint = new AbortController();
  const onSig = () => sigint.abort();
  process.once("SIGINT", onSig);
  let results: RunResult[];
  try {
    // Each protocol has its own target (a --url names one protocol): the suites run side by side.
    results = await Promise.all(
      protocols.map((p) => {
        progress?.(`${p.id}: testing ${o.url ? checkUrl(o.url) : "the built-in mock"}`);
        return runSuite(p, {
          ...(o.url ? { url: o.url } : {}),
          ...(o.only ? { only: o.only } : {}),
          ...(o.skip ? { skip: o.skip } : {}),
          strict: !!o.strict,
          ...(o.profile ? { profile: o.profile } : {}),
          ...(o.timeout ? { timeout: o.timeout } : {}),
          ...(o.saveTranscript ? { saveTranscript: o.saveTranscript } : {}),
          headers,
          ...(o.token ? { token: o.token } : {}),
          params,
          ...(o.maxBytes ? { maxBytes: o.maxBytes } : {}),
          ...(o.fault?.length ? { mock: { faults: o.fault } } : {}),
          ...(progress ? { progress } : {}),
          signal: sigint.signal,
        });
      }),
    );
  } finally {
    process.off("SIGINT", onSig);
  }
  writeReports(results, targets);
  return combinedExitCode(results);
}

export const testIntOptions = { timeout: intOption("--timeout", 1), maxBytes: intOption("--max-bytes", 1) };
