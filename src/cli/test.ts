/** agentwire test [protocol] — the server-side suites, against a URL or the built-in mocks. */
import { checkPrefixes, checkRunOptions, runSuite } from "../core/run/runner.js";
import { selectChecks } from "../core/verdicts/evaluation.js";
import type { ProtocolDef } from "../core/run/protocol.js";
import type { RunResult } from "../core/verdicts/result.js";
import { loadAllProtocols } from "../protocol-loader.js";
import { checkCatalogueOption, checkFaults, checkOrigin, checkToken, credentialSetting, checkUrl, checkUrlFor, checkWritableDir, checkWritableFile, intOption, judgingOptions, parseHeaders, parseParamSettings, reportTargets, requireProtocol, takesToken } from "./options.js";
import { baselineMarker, loadBaselineOption, withBaseline, writeBaseline } from "./baseline.js";
import { combinedExitCode, openReports, withReports, type ReportSession } from "./report-output.js";
import { UsageError } from "./errors.js";
import { knownParams } from "../core/run/params.js";
import { TEST_RERUN, withRerun } from "./rerun.js";
import { interruptible, markInterrupted } from "./stop-signals.js";

export interface TestCliOptions {
  url?: string;
  baseUrl?: string;
  closeTimeout?: number;
  minGap?: number;
  keepConnection?: boolean;
  /** false with --no-exit (commander's negated option). */
  exit?: boolean;
  pollInterval?: number;
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
  toolPrompt?: string;
  pingWait?: boolean;
  model?: string;
  maxRequests?: number;
  set?: string[];
  maxBytes?: number;
  fault?: string[];
  quiet?: boolean;
  redact?: boolean;
  catalogue?: string;
  baseline?: string;
}

export async function runTest(protocolId: string | undefined, o: TestCliOptions): Promise<number> {
  const { results, reports } = await runTestSuites(protocolId, o);
  reports.finish(results);
  return combinedExitCode(results);
}

/** `agentwire baseline write`: the same run, its failures written as a baseline file. */
export async function runBaselineWrite(protocolId: string | undefined, o: TestCliOptions & { output?: string }): Promise<number> {
  const output = o.output ?? "agentwire-baseline.yaml";
  checkWritableFile(output, "--output");
  const { results, interrupted } = await runTestSuites(protocolId, { ...o, output: [], reporter: [], baseline: undefined }, "baseline write");
  if (interrupted) {
    process.stderr.write(`agentwire: ${output} not written: the run did not finish\n`);
    return 3;
  }
  return writeBaseline(results, output);
}

async function runTestSuites(protocolId: string | undefined, o: TestCliOptions, command = "test"): Promise<{ results: RunResult[]; reports: ReportSession; interrupted: boolean }> {
  if (o.baseUrl && o.url && o.baseUrl !== o.url) throw new UsageError("--base-url and --url disagree; give one");
  o = { ...o, ...(o.baseUrl ? { url: o.baseUrl } : {}) };
  if (o.url && !protocolId) throw new UsageError(`--url needs a protocol: agentwire ${command} <protocol> --url URL`);
  if (o.fault?.length && o.url) throw new UsageError("--fault applies to the built-in mock only; drop --url or --fault");
  if (!protocolId && o.fault?.length) throw new UsageError("--fault needs a protocol");
  if (o.url) checkUrl(o.url);
  const all = protocolId ? [await requireProtocol(protocolId)] : await loadAllProtocols();
  checkPrefixes(all, o, ["server"]);
  const protocols = protocolId ? all : runnableProtocols(all, o);
  // Every option is checked for every protocol before the first one runs.
  if (o.url) await checkUrlFor(protocols[0]!.id, o.url);
  for (const p of protocols) checkRunOptions(p, o, "server");
  for (const p of protocols) checkFaults(p, o.fault);
  for (const p of protocols) await checkCatalogueOption(p, o.catalogue);
  const settings = parseParamSettings(protocols, o.set);
  const targets = reportTargets(o.reporter, o.output);
  const baseline = await loadBaselineOption(o.baseline, protocols);
  if (o.saveTranscript) checkWritableDir(o.saveTranscript, "--save-transcript");
  const headers = parseHeaders(o.header);
  checkToken(o.token);
  if (o.origin !== undefined) checkOrigin(o.origin, "--origin");
  const params = {
    ...settings,
    ...(o.origin ? { origin: o.origin } : {}),
    ...(o.prompt ? { prompt: o.prompt } : {}),
    ...(o.toolPrompt ? { toolPrompt: o.toolPrompt } : {}),
    ...(o.pingWait === false ? { slow: false } : {}),
    ...(o.model ? { model: o.model } : {}),
    ...(o.catalogue !== undefined ? { catalogue: o.catalogue } : {}),
    ...(o.maxRequests !== undefined ? { maxRequests: o.maxRequests } : {}),
    ...(o.closeTimeout !== undefined ? { closeTimeoutMs: o.closeTimeout } : {}),
    ...(o.minGap !== undefined ? { minGapMs: o.minGap } : {}),
    ...(o.keepConnection ? { keepConnection: true } : {}),
    ...(o.exit === false ? { noExit: true } : {}),
    ...(o.pollInterval !== undefined ? { pollIntervalMs: o.pollInterval } : {}),
  };
  // The built-in mock's options: its faults, the catalogue the probes judge by, and the --token it then requires
  // (the suite expects a target given a token to refuse requests without it).
  const builtInMock = (protocolId: string) => {
    const settings = {
      ...(o.catalogue !== undefined ? { catalogue: o.catalogue } : {}),
      ...(!o.url && o.token && takesToken(protocolId) ? credentialSetting(protocolId, o.token) : {}),
    };
    const mock = { ...(o.fault?.length ? { faults: o.fault } : {}), ...(Object.keys(settings).length ? { settings } : {}) };
    return Object.keys(mock).length ? mock : undefined;
  };
  const progress = o.quiet ? undefined : (m: string) => process.stderr.write(`agentwire: ${m}\n`);
  // Every option is checked: only now are the reports opened (an ndjson file at its first line, once the mocks took their options).
  const reports = openReports(targets, await baselineMarker(baseline));
  // Ctrl-C, or SIGTERM (a CI job's time limit): the run stops and the reports cover what ran.
  // Each protocol has its own target (a --url names one protocol): the suites run side by side.
  // A mock that refuses its options ends the run as a usage error: no half-written report stays.
  const run = await interruptible((signal) =>
    withReports(reports, () =>
      Promise.all(
        protocols.map((p) => {
          progress?.(`${p.id}: testing ${o.url ? checkUrl(o.url) : "the built-in mock"}`);
          const mock = builtInMock(p.id);
          return runSuite(p, {
            ...(o.url ? { url: o.url } : {}),
            ...judgingOptions(o),
            headers,
            ...(o.token ? { token: o.token } : {}),
            params,
            ...(o.maxBytes ? { maxBytes: o.maxBytes } : {}),
            ...(mock ? { mock } : {}),
            ...(progress ? { progress } : {}),
            signal,
            redact: o.redact !== false,
            ...(reports.onVerdict ? { onVerdict: reports.onVerdict } : {}),
            ...(reports.onViolation ? { onViolation: reports.onViolation } : {}),
            context: reports.context,
          });
        }),
      ),
    ),
  );
  // A failure's rerun command carries the options that shaped its protocol's run (of --set, its own parameters).
  const ownSet = (p: ProtocolDef) => o.set?.filter((kv) => Object.hasOwn(knownParams(p), kv.slice(0, kv.indexOf("="))));
  let results = run.value.map((r, i) => withRerun(r, { ...o, set: ownSet(protocols[i]!) }, TEST_RERUN));
  const interrupted = run.stoppedBy !== undefined;
  if (run.stoppedBy !== undefined) results = markInterrupted(results, run.stoppedBy);
  return { results: await withBaseline(results, baseline), reports, interrupted };
}

/**
 * The protocols a run without a protocol covers: with --only, those that have a check it
 * selects (a prefix names one protocol's checks); a prefix that selects nothing anywhere is an error.
 */
function runnableProtocols(all: ProtocolDef[], o: TestCliOptions): ProtocolDef[] {
  if (!o.only?.length) return all;
  const selected = all.filter((p) => selectChecks(p.id, p.checks, { side: "server", only: o.only, skip: o.skip }).length > 0);
  if (selected.length === 0) throw new UsageError(`no server-side check matches --only ${o.only.join(", ")}; see "agentwire list"`);
  return selected;
}

export const testIntOptions = { timeout: intOption("--timeout", 1), maxBytes: intOption("--max-bytes", 1) };
