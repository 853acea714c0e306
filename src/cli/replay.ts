/** agentwire replay <transcript.jsonl> — re-judges a saved transcript, without the target. */
import { readFileSync } from "node:fs";
import { readTranscript } from "../core/transcript/transcript.js";
import { shellQuote } from "../core/reporters/reproduce.js";
import { parseParamSettings, reportTargets, requireProtocol } from "./options.js";
import { combinedExitCode, openReports } from "./report-output.js";
import { UsageError } from "./errors.js";
import { REPLAY_RERUN, withRerun } from "./rerun.js";
import { baselineMarker, loadBaselineOption, withBaseline } from "./baseline.js";

export interface ReplayCliOptions {
  only?: string[];
  skip?: string[];
  strict?: boolean;
  profile?: string;
  reporter?: string[];
  output?: string[];
  set?: string[];
  protocol?: string;
  quiet?: boolean;
  baseline?: string;
}

export async function runReplay(file: string, o: ReplayCliOptions): Promise<number> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read transcript ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : (e as Error).message}`);
  }
  let header;
  let events;
  try {
    ({ header, events } = readTranscript(text));
  } catch (e) {
    // "<file> line N is not an agentwire transcript event: why" (JSON Lines from --save-transcript).
    throw new UsageError(`${file} ${(e as Error).message}`);
  }
  if (!header && events.length === 0) throw new UsageError(`${file} is empty: nothing to judge`);
  if (header && o.protocol && o.protocol !== header.protocol) {
    throw new UsageError(`--protocol ${o.protocol}: ${file} was recorded with ${header.protocol}`);
  }
  const id = header?.protocol ?? o.protocol;
  if (!id) {
    throw new UsageError(`${file} has no header saying which protocol it was recorded with (saved by an older agentwire); give --protocol <id>`);
  }
  const protocol = await requireProtocol(id);
  const { checkPrefixes, transcriptSide } = await import("../core/run/runner.js");
  // A proxy's transcript holds both sides; any other, one.
  checkPrefixes([protocol], o, header?.proxy ? ["server", "client"] : [transcriptSide(header, events)]);
  const params = parseParamSettings([protocol], o.set);
  const targets = reportTargets(o.reporter, o.output);
  const baseline = await loadBaselineOption(o.baseline, [protocol]);
  // A transcript without a header replays only with --protocol: the commands the report suggests need it too.
  const replayOf = `agentwire replay ${shellQuote(file)} `;
  const fix = header ? undefined : (text: string) => text.split(replayOf).join(`${replayOf}--protocol ${id} `);
  const reports = openReports(targets, await baselineMarker(baseline), fix);
  // What both kinds of replay take: the selection, the profile, the parameters and the streaming reports.
  const judging = {
    ...(o.only ? { only: o.only } : {}),
    ...(o.skip ? { skip: o.skip } : {}),
    strict: !!o.strict,
    ...(o.profile ? { profile: o.profile } : {}),
    ...(Object.keys(params).length ? { params } : {}),
    ...(reports.onVerdict ? { onVerdict: reports.onVerdict } : {}),
    ...(reports.onViolation ? { onViolation: reports.onViolation } : {}),
  };
  if (header?.proxy) {
    // Both sides, as the proxy judged them.
    const { replayProxyTranscript } = await import("../proxy/replay.js");
    const sides = await replayProxyTranscript(header, events, judging);
    const results = await withBaseline(
      sides.map((r) => withRerun({ ...r, replay: true, transcript: file }, o, REPLAY_RERUN)),
      baseline,
    );
    reports.finish(results);
    return combinedExitCode(results);
  }
  const { replayTranscript } = await import("../core/run/runner.js");
  if (!o.quiet && !header) process.stderr.write(`agentwire: ${file} has no header: judged with ${id}'s default parameters (add --set key=value to change them)\n`);
  const result = await replayTranscript(protocol, text, { file, ...judging, context: reports.context });
  const results = await withBaseline([withRerun(result, o, REPLAY_RERUN)], baseline);
  reports.finish(results);
  return combinedExitCode(results);
}
