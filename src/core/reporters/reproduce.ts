/**
 * How to reproduce a failure: the command that re-judges it from the saved transcript (or records
 * one), and for an HTTP request the kit sent, a curl command that sends it again. Credentials stay
 * redacted as the transcript has them: the user puts theirs back.
 */
import type { CheckResult, ExchangeRecord, RunResult } from "../verdicts/result.js";

/** Quotes a word for a POSIX shell (only when it needs it). */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that re-judges one check: a replay of the saved transcript, or a run that saves one,
 * with the options that shaped the run (`result.rerun`; a replay's own when the result is one).
 */
export function replayCommand(result: RunResult, check: CheckResult): string {
  const profile = result.profile !== "default" ? ` --profile ${shellQuote(result.profile)}` : "";
  const strict = result.strict ? " --strict" : "";
  const options = (result.rerun ?? []).map((w) => ` ${shellQuote(w)}`).join("");
  if (result.transcript) {
    // A live run's options are in the transcript's header: its replay takes none of them.
    return `agentwire replay ${shellQuote(result.transcript)} --only ${check.id}${profile}${result.replay ? options : ""}${strict}`;
  }
  if (result.proxied !== undefined) {
    // Relayed traffic: the same client through the proxy again records what the check judged.
    return `agentwire proxy ${result.protocol} --target ${shellQuote(result.proxied)} --only ${check.id}${profile}${options}${strict} --save-transcript transcripts  (run your client through it again, then agentwire replay transcripts/<file>.jsonl)`;
  }
  if (result.side === "client") {
    return `agentwire test-client ${result.protocol} --only ${check.id}${profile}${options}${strict} --save-transcript transcripts -- ${result.target}`;
  }
  const url = /^(https?|wss?):\/\//.test(result.target) ? ` --url ${shellQuote(result.target)}` : "";
  return `agentwire test ${result.protocol}${url} --only ${check.id}${profile}${options}${strict} --save-transcript transcripts  (then agentwire replay transcripts/<file>.jsonl)`;
}

/** Request headers curl sets itself, or that describe the old connection. */
const CURL_SETS = new Set(["host", "content-length", "connection", "accept-encoding", "transfer-encoding"]);

/** A curl command that sends an HTTP request again (server side: the kit's own request). */
export function curlCommand(x: ExchangeRecord): string | undefined {
  const r = x.request;
  // A body the run kept only the start of cannot be sent again.
  if (x.kind !== "http" || !r || /… \(\d+ more characters\)$/.test(r.body ?? "")) return undefined;
  const parts = ["curl", "-sS", "-i"];
  const stream = /event-stream/i.test(r.headers["accept"] ?? "") || /event-stream/i.test(x.response?.headers["content-type"] ?? "");
  if (stream) parts.push("-N");
  if (r.method !== "GET" || r.body !== undefined) parts.push("-X", r.method);
  for (const [k, v] of Object.entries(r.headers)) if (!CURL_SETS.has(k.toLowerCase())) parts.push("-H", shellQuote(`${k}: ${v}`));
  if (r.body !== undefined && r.body !== "") parts.push("--data-binary", shellQuote(r.body));
  parts.push(shellQuote(r.url));
  return parts.join(" ");
}

/** The record of the exchange a check's first piece of evidence points at, if the run kept it. */
export function exchangeOf(result: RunResult, check: CheckResult): ExchangeRecord | undefined {
  const records = result.exchanges ?? [];
  for (const e of check.evidence) {
    const byId = e.exchange ? records.find((x) => x.id === e.exchange) : undefined;
    if (byId) return byId;
    const bySeq = e.seq !== undefined ? records.find((x) => x.events?.some((l) => l.seq === e.seq)) : undefined;
    if (bySeq) return bySeq;
  }
  return undefined;
}
