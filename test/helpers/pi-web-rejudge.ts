/**
 * Re-judging a recorded pi-web run with its WebSocket messages rewritten: the run is recorded once
 * against the reference mock, then the messages the server sent on the long-lived client
 * connections are edited (dropped, duplicated, swapped, split, changed) and the server checks judge
 * the result again. Each new message takes the time of the recorded message it comes from;
 * everything else in the transcript stays as recorded.
 */
import type { TranscriptEvent } from "../../src/core/transcript/transcript.js";

export type Frame = Extract<TranscriptEvent, { kind: "ws-frame" }>;

/** A server message of one connection, as it will be sent: its text and the recorded frame it replaces. */
export interface Sent {
  from: Frame;
  data: string;
  /** Emitted as a note of the kit instead of a message (a request timeout in place of a dropped response). */
  note?: { name: string; value: unknown };
}

/** Rewrites the server messages of one connection (in order); returns the messages to send. */
export type FrameTransform = (frames: Sent[], connection: string, label: string | undefined) => Sent[];

/**
 * The recorded transcript with the server messages of every connection rewritten. New messages
 * are emitted where the recorded message they come from (`from`) was, in the order given.
 */
export function transformFrames(events: TranscriptEvent[], transform: FrameTransform): TranscriptEvent[] {
  const labels = new Map<string, string | undefined>();
  const inbound = new Map<string, Sent[]>();
  for (const e of events) {
    if (e.kind === "ws-open") labels.set(e.connection, e.label);
    if (e.kind === "ws-frame" && e.direction === "in") {
      const list = inbound.get(e.connection) ?? inbound.set(e.connection, []).get(e.connection)!;
      list.push({ from: e, data: e.data });
    }
  }
  const byOrigin = new Map<Frame, Sent[]>();
  for (const [conn, list] of inbound) {
    for (const s of transform(list.map((s) => ({ ...s })), conn, labels.get(conn))) {
      (byOrigin.get(s.from) ?? byOrigin.set(s.from, []).get(s.from)!).push(s);
    }
  }
  const out: TranscriptEvent[] = [];
  let seq = 0;
  for (const e of events) {
    if (e.kind === "ws-frame" && e.direction === "in") {
      for (const s of byOrigin.get(e) ?? []) {
        if (s.note) out.push({ kind: "note", probe: e.probe, t: e.t, seq: seq++, ...s.note });
        else out.push({ ...e, data: s.data, bytes: Buffer.byteLength(s.data), seq: seq++ });
      }
      continue;
    }
    out.push({ ...e, seq: seq++ });
  }
  return out;
}
