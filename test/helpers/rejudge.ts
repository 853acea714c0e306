/**
 * Re-judging a recorded run with its stream bytes transformed: the run is recorded once against
 * the reference mock, then every 2xx event stream's body chunks go through a transformation (a
 * BOM, other line endings, other cuts), the SSE views are rebuilt by the core's SseReader exactly
 * as a live run builds them, and the server checks judge the result again. Everything else in the
 * transcript (requests, heads, times, other bodies) stays as recorded.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_PROFILE } from "../../src/core/checks/check.js";
import { selectChecks } from "../../src/core/verdicts/evaluation.js";
import type { ProtocolDef } from "../../src/core/run/protocol.js";
import type { CheckResult } from "../../src/core/verdicts/result.js";
import { runSuite } from "../../src/core/run/runner.js";
import { SseReader } from "../../src/core/transport/sse-reader.js";
import { parseJsonLines, type NewEvent, type TranscriptEvent } from "../../src/core/transcript/transcript.js";
import { beforeAll, describe, expect, it } from "vitest";
import { explain, serverSide } from "./run-results.js";
import { judge } from "./synthetic-transcript.js";

export interface Recorded {
  events: TranscriptEvent[];
  checks: CheckResult[];
}

/** Runs the server suite against the built-in mock and returns its transcript and verdicts. */
export async function recordRun(protocol: ProtocolDef): Promise<Recorded> {
  const dir = mkdtempSync(join(tmpdir(), "agentwire-rejudge-"));
  try {
    const r = await runSuite(protocol, { saveTranscript: dir });
    const file = readdirSync(dir).find((f) => f.endsWith(".jsonl"))!;
    return { events: parseJsonLines(readFileSync(join(dir, file), "utf8")), checks: serverSide(r) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One body chunk of a stream, with the recorded chunk it comes from (and takes its time from). */
export interface TimedChunk {
  from: number;
  bytes: Uint8Array;
}

/** Rewrites one stream's chunks, keeping each piece's `from`. */
export type StreamTransform = (chunks: TimedChunk[]) => TimedChunk[];

const isEventStream = (ev: Extract<TranscriptEvent, { kind: "http-response" }>) =>
  ev.status >= 200 && ev.status < 300 && /^text\/event-stream\b/i.test(ev.headers["content-type"] ?? "");

/** The recorded transcript with every 2xx event stream transformed and its SSE views rebuilt. */
export function transformStreams(events: TranscriptEvent[], transform: StreamTransform): TranscriptEvent[] {
  const streams = new Set(events.filter((e) => e.kind === "http-response" && isEventStream(e)).map((e) => (e as { exchange: string }).exchange));
  const chunksOf = new Map<string, TimedChunk[]>();
  for (const e of events) {
    if (e.kind !== "body-chunk" || !streams.has(e.exchange)) continue;
    const list = chunksOf.get(e.exchange) ?? chunksOf.set(e.exchange, []).get(e.exchange)!;
    list.push({ from: list.length, bytes: e.bytes });
  }
  // New chunks grouped by the recorded chunk they replace: they are emitted where it was.
  const replaced = new Map<string, Map<number, TimedChunk[]>>();
  for (const [x, chunks] of chunksOf) {
    const byOrigin = new Map<number, TimedChunk[]>();
    for (const c of transform(chunks)) (byOrigin.get(c.from) ?? byOrigin.set(c.from, []).get(c.from)!).push(c);
    replaced.set(x, byOrigin);
  }

  const out: TranscriptEvent[] = [];
  let seq = 0;
  let now = 0;
  const push = (e: NewEvent) => out.push({ ...e, seq: seq++, t: now } as TranscriptEvent);
  const readers = new Map<string, { reader: SseReader; index: number; recorded: number; bytes: number }>();
  for (const e of events) {
    now = e.t;
    const x = "exchange" in e && typeof e.exchange === "string" && streams.has(e.exchange) ? e.exchange : undefined;
    if (!x) {
      push(e);
      continue;
    }
    switch (e.kind) {
      case "sse-line":
      case "sse-event":
        continue; // rebuilt below from the transformed bytes
      case "http-response":
        push(e);
        readers.set(x, { reader: new SseReader(e.probe, x, e.label, push), index: 0, recorded: 0, bytes: 0 });
        continue;
      case "body-chunk": {
        const r = readers.get(x)!;
        for (const c of replaced.get(x)!.get(r.recorded++) ?? []) {
          push({ kind: "body-chunk", probe: e.probe, exchange: x, label: e.label, index: r.index, bytes: c.bytes });
          r.reader.push(c.bytes, r.index++);
          r.bytes += c.bytes.length;
        }
        continue;
      }
      case "body-end": {
        const r = readers.get(x)!;
        r.reader.end();
        push({ ...e, bytes: r.bytes });
        continue;
      }
      default:
        push(e);
    }
  }
  return out;
}

/**
 * Judges a transcript with the protocol's server checks, as the runner judged the recorded run:
 * default profile, and the self-test pace (the recordings come from the built-in mock).
 */
export function judgeAsRecorded(protocol: ProtocolDef, events: TranscriptEvent[]): CheckResult[] {
  const params = { ...protocol.defaultParams, ...(protocol.selfTest?.params ?? {}), ...(DEFAULT_PROFILE.params ?? {}) };
  return judge(selectChecks(protocol.id, protocol.checks, { side: "server" }), events, { params });
}

/** Each check's verdict and outcome ("warn/fail"), by id. */
export const verdicts = (checks: CheckResult[]): Record<string, string> => Object.fromEntries(checks.map((c) => [c.id, `${c.verdict}/${c.outcome}`]));

/** The checks whose verdict or outcome differs between two judgements: id → [before, after]. */
export function changed(before: CheckResult[], after: CheckResult[]): Record<string, [string, string]> {
  const a = verdicts(before);
  const out: Record<string, [string, string]> = {};
  for (const [id, v] of Object.entries(verdicts(after))) if (a[id] !== v) out[id] = [a[id] ?? "absent", v];
  return out;
}

// ---------------------------------------------------------------------------------------------
// Transformations of a stream's bytes

const enc = new TextEncoder();
const dec = (b: Uint8Array) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(b);

/** A UTF-8 BOM before the first byte. */
export const prependBom: StreamTransform = (chunks) =>
  chunks.map((c, i) => (i === 0 ? { ...c, bytes: Uint8Array.from([0xef, 0xbb, 0xbf, ...c.bytes]) } : c));

/** Every line ending rewritten to `eol` (the recorded bodies are canonical: LF only, no raw CR). */
export const lineEndings = (eol: "\r" | "\r\n"): StreamTransform => (chunks) =>
  chunks.map((c) => ({ ...c, bytes: enc.encode(dec(c.bytes).replace(/\r\n|\r|\n/g, eol)) }));

/** CRLF endings, each chunk cut right after every CR, so every CRLF straddles two chunks. */
export const splitCrlf: StreamTransform = (chunks) =>
  lineEndings("\r\n")(chunks).flatMap((c) => {
    const pieces: TimedChunk[] = [];
    let from = 0;
    for (let i = 0; i < c.bytes.length; i++) {
      if (c.bytes[i] === 0x0d) {
        pieces.push({ ...c, bytes: c.bytes.subarray(from, i + 1) });
        from = i + 1;
      }
    }
    if (from < c.bytes.length) pieces.push({ ...c, bytes: c.bytes.subarray(from) });
    return pieces;
  });

/** Every byte its own read (at the time of the read it was cut from). */
export const bytePerRead: StreamTransform = (chunks) => chunks.flatMap((c) => [...c.bytes].map((b) => ({ ...c, bytes: Uint8Array.of(b) })));

/** Applies transformations in turn. */
export const both = (...ts: StreamTransform[]): StreamTransform => (chunks) => ts.reduce((c, t) => t(c), chunks);

export const sameVerdict = (before: CheckResult, after: CheckResult) => before.verdict === after.verdict && before.outcome === after.outcome;

/**
 * A deviation's proof: `target` fails, nothing else fails, and every other check whose verdict
 * moved from the recorded run is a skip naming `target` as the rule that failed first — exactly the
 * `knocked` ones (full ids).
 */
export function expectOnlyTarget(before: CheckResult[], after: CheckResult[], target: string, knocked: string[]): void {
  const was = (id: string) => before.find((b) => b.id === id)!;
  const why = explain(after, (c) => !sameVerdict(was(c.id), c));
  expect(after.find((c) => c.id === target)!.outcome, why).toBe("fail");
  expect(after.filter((c) => c.outcome === "fail").map((c) => c.id), why).toEqual([target]);
  const skippedAsKnockOn: string[] = [];
  for (const c of after) {
    if (c.id === target || sameVerdict(was(c.id), c)) continue;
    expect(c.verdict, `${c.id}\n${why}`).toBe("skip");
    const knock = /^not judged: (\S+) failed on /.exec(c.message);
    expect(knock?.[1], `${c.id} names the rule that failed\n${why}`).toBe(target);
    skippedAsKnockOn.push(c.id);
  }
  expect(skippedAsKnockOn.sort(), why).toEqual([...knocked].sort());
}

/** The framing and encoding deviations every event-stream protocol is re-judged under. */
const FRAMING_DEVIATIONS = {
  bom: ["a UTF-8 BOM before the first byte", prependBom],
  cr: ["CR-only line endings", lineEndings("\r")],
  crlf: ["CRLF line endings", lineEndings("\r\n")],
  crlfCut: ["CRLF cut across chunks", splitCrlf],
  bomCr: ["a BOM and CR-only endings", both(prependBom, lineEndings("\r"))],
  crBytePerRead: ["CR-only endings, one byte per read", both(lineEndings("\r"), bytePerRead)],
} satisfies Record<string, [string, StreamTransform]>;

/**
 * Records a good run of `protocol`, then re-judges it under each framing deviation: exactly the
 * rules named for it (ids without the protocol's prefix) change their verdict, and they fail.
 */
export function describeFramingRejudge(protocol: ProtocolDef, fails: Record<keyof typeof FRAMING_DEVIATIONS, string[]>): void {
  let recorded: Recorded;
  beforeAll(async () => {
    recorded = await recordRun(protocol);
  }, 60_000);

  describe(`${protocol.id}: stream bytes re-judged`, () => {
    it("the recorded run passes, and re-judging its untouched bytes gives the same verdicts", () => {
      expect(recorded.checks.filter((c) => c.outcome === "fail")).toEqual([]);
      const again = judgeAsRecorded(protocol, transformStreams(recorded.events, (c) => c));
      expect(changed(recorded.checks, again)).toEqual({});
    });

    const cases = Object.entries(FRAMING_DEVIATIONS).map(([key, [name, transform]]): [string, StreamTransform, string[]] => [
      name,
      transform,
      fails[key as keyof typeof FRAMING_DEVIATIONS].map((id) => `${protocol.id}/${id}`),
    ]);
    it.each(cases)("%s fails only its framing rule(s)", (_name, transform, rules) => {
      const after = judgeAsRecorded(protocol, transformStreams(recorded.events, transform));
      const diff = changed(recorded.checks, after);
      const why = explain(after, (c) => c.id in diff);
      expect(Object.keys(diff).sort(), why).toEqual([...rules].sort());
      for (const id of rules) expect(after.find((c) => c.id === id)!.outcome, why).toBe("fail");
      expect(after.length).toBe(recorded.checks.length);
    });
  });
}
