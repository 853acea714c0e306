/**
 * Re-judges a transcript the proxy saved: both sides, with the proxy's own rules about what relayed traffic can
 * decide, so `agentwire replay` gives the verdicts the live proxy gave.
 */
import { DEFAULT_SECRETS } from "../core/transcript/redaction.js";
import type { CheckResult, RunResult, ViolationListener } from "../core/verdicts/result.js";
import { UsageError } from "../core/run/runner.js";
import type { Side } from "../core/checks/check.js";
import type { TranscriptEvent, TranscriptHeader } from "../core/transcript/transcript.js";
import { ProxyJudge } from "./judge.js";
import { resolveProxied } from "./index.js";

export interface ProxyReplayOptions {
  only?: string[];
  skip?: string[];
  strict?: boolean;
  profile?: string;
  params?: Record<string, unknown>;
  onVerdict?: (check: CheckResult, run: { protocol: string; side: Side }) => void;
  onViolation?: ViolationListener;
}

export async function replayProxyTranscript(header: TranscriptHeader, events: readonly TranscriptEvent[], opts: ProxyReplayOptions = {}): Promise<RunResult[]> {
  if (!header.proxy) throw new UsageError("this transcript was not saved by agentwire proxy");
  const { protocol, adapter } = await resolveProxied(header.protocol);
  const profile = opts.profile ?? header.profile;
  const same = (profile ?? "default") === (header.profile ?? "default");
  // The same profile: the parameters as the proxy resolved them; another: its own, under what the caller gave.
  const params = { ...(same ? header.params : (header.callerParams ?? {})), ...(opts.params ?? {}) };
  const judge = new ProxyJudge(
    protocol,
    adapter,
    header.url ?? header.target,
    DEFAULT_SECRETS,
    {
      profile,
      params,
      only: opts.only,
      skip: opts.skip,
      strict: opts.strict,
      onVerdict: opts.onVerdict,
      onViolation: opts.onViolation,
    },
    true,
  );
  for (const ev of events) judge.bus.replay(ev);
  return judge.finish();
}
