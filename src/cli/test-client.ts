/** agentwire test-client <protocol> -- <command> [args...] */
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { checkPrefixes, checkRunOptions, resolveProfile, runClientTest, type ClientTestOptions } from "../core/run/runner.js";
import { checkCatalogueOption, checkFaults, checkWritableDir, credentialSetting, judgingOptions, parseSettings, reportTargets, requireProtocol } from "./options.js";
import { combinedExitCode, openReports, withReports } from "./report-output.js";
import { UsageError } from "./errors.js";
import { TEST_CLIENT_RERUN, withRerun } from "./rerun.js";
import { baselineMarker, loadBaselineOption, withBaseline } from "./baseline.js";
import { interruptible, markInterrupted } from "./stop-signals.js";

export interface TestClientCliOptions {
  scenario?: string;
  framing?: string;
  fault?: string[];
  only?: string[];
  skip?: string[];
  strict?: boolean;
  profile?: string;
  timeout?: number;
  reporter?: string[];
  output?: string[];
  saveTranscript?: string;
  set?: string[];
  token?: string;
  quiet?: boolean;
  redact?: boolean;
  catalogue?: string;
  baseline?: string;
}

export async function runTestClient(protocolId: string, command: string[], o: TestClientCliOptions): Promise<number> {
  const p = await requireProtocol(protocolId);
  if (command.length === 0) {
    throw new UsageError(`give the client command after "--": agentwire test-client ${p.id} -- node my-client.js`);
  }
  checkPrefixes([p], o, ["client"]);
  checkRunOptions(p, o, "client");
  checkFaults(p, o.fault);
  await checkCatalogueOption(p, o.catalogue);
  const targets = reportTargets(o.reporter, o.output);
  const baseline = await loadBaselineOption(o.baseline, [p]);
  if (o.saveTranscript) checkWritableDir(o.saveTranscript, "--save-transcript");
  const settings = {
    // The mock plays the implementation the clients are judged against, as `mock --check-client --profile` does.
    ...(p.mockSettingsFor?.(resolveProfile(p, o.profile)) ?? {}),
    ...parseSettings(o.set),
    ...(o.catalogue !== undefined ? { catalogue: o.catalogue } : {}),
    ...credentialSetting(p.id, o.token),
  };
  checkCommand(command[0]!);
  // The mock's own options are checked when it starts, before the first report line opens a file.
  const reports = openReports(targets, await baselineMarker(baseline));
  // A command that is not found ends as a usage error saying so: its progress line would say it twice.
  const progress = o.quiet ? undefined : (m: string) => void (!m.startsWith("client: command not found") && process.stderr.write(`agentwire: ${m}\n`));
  const run: ClientTestOptions = {
    command: command[0]!,
    args: command.slice(1),
    mock: {
      ...(o.scenario ? { scenario: o.scenario } : {}),
      ...(o.framing ? { framing: o.framing } : {}),
      ...(o.fault?.length ? { faults: o.fault } : {}),
      settings,
    },
    // The judge reads the catalogue the mock was given, not the profile's default one.
    ...(typeof settings.catalogue === "string" ? { params: { catalogue: settings.catalogue } } : {}),
    redact: o.redact !== false,
    ...(o.token ? { secrets: [o.token] } : {}),
    ...judgingOptions(o),
    ...(progress ? { progress } : {}),
    ...(reports.onVerdict ? { onVerdict: reports.onVerdict } : {}),
    ...(reports.onViolation ? { onViolation: reports.onViolation } : {}),
    context: reports.context,
  };
  // Ctrl-C, or SIGTERM (a CI job's time limit): the client is stopped and the reports cover what it did.
  const { value: result, stoppedBy } = await interruptible((signal) => withReports(reports, () => runClientTest(p, { ...run, signal })));
  if (result.error?.startsWith("command not found")) {
    reports.abandon();
    throw new UsageError(result.error);
  }
  let results = [withRerun(result, o, TEST_CLIENT_RERUN)];
  if (stoppedBy !== undefined) results = markInterrupted(results, stoppedBy);
  results = await withBaseline(results, baseline);
  reports.finish(results);
  return combinedExitCode(results);
}

/**
 * A client command that cannot be found is a usage error, said before the mock starts or a report
 * is opened. Looked up as spawn will (a path as given, a name along PATH); on Windows (PATHEXT), or
 * without PATH (the system's default path), spawn alone decides.
 */
function checkCommand(command: string): void {
  if (process.platform === "win32" || process.env.PATH === undefined) return;
  // A script without its execute bit is the usual slip (`-- ./client.mjs` before chmod +x).
  const found = (file: string) => existsSync(file) && !statSync(file).isDirectory();
  const runnable = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  const direct = command.includes("/");
  if (direct && found(command) && !runnable(command)) throw new UsageError(`${command} is not executable: chmod +x it, or name its interpreter (-- node ${command})`);
  const dirs = (process.env.PATH ?? "").split(delimiter).map((d) => d || ".");
  if (direct ? found(command) : dirs.some((d) => found(join(d, command)) && runnable(join(d, command)))) return;
  throw new UsageError(`command not found: ${command}`);
}
