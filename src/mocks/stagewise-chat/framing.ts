/**
 * Framing variants (§6): the same agent, framed differently on the wire; every variant is valid tRPC and valid
 * superjson, so a toolbar must parse them all. Fragmentation and pings need a real socket (the msw transport sends
 * whole frames and ignores them). Browser-safe.
 */
import { superjson } from "./superjson-ref.js";
import type { NamedItem } from "../../core/run/protocol.js";
import { FAULTS } from "./faults.js";
import { foldHooks, type StagewiseHooks } from "./hooks.js";
import { CHAT_PATH, copyFrame, type Frame, type Json } from "./wire.js";

export interface StagewiseFraming extends NamedItem, StagewiseHooks {}

export const DEFAULT_FRAMING = "canonical";
/** Bytes per continuation frame of `fragmented`. */
export const FRAGMENT_BYTES = 7;
/** `server-ping`: the agent pings after this much client silence. */
export const SERVER_PING_MS = 1_000;
/** `big-frame`: the first chat event of each connection is padded past this. */
export const BIG_FRAME_BYTES = 8 * 1024 * 1024;

/** Deep-equal objects of the value made one shared object, so superjson writes referentialEqualities. */
function shareEqual(value: unknown): unknown {
  const seen = new Map<string, object>();
  const walk = (v: unknown): unknown => {
    if (!v || typeof v !== "object" || v instanceof Date) return v;
    const key = JSON.stringify(v);
    const prior = seen.get(key);
    if (prior && Object.keys(v).length > 0) return prior;
    const out: Record<string, unknown> | unknown[] = Array.isArray(v) ? v.map(walk) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    seen.set(key, out as object);
    return out;
  };
  return walk(value);
}

const FRAMINGS: readonly StagewiseFraming[] = [
  { name: "canonical", description: "One compact JSON message per text frame, as @trpc/server sends it" },
  {
    name: "result-first",
    description: "A mutation's answer goes out before the updates it caused (held up to 2 s)",
    resultFirst: true,
  },
  { name: "server-ping", description: `The agent sends PING after ${SERVER_PING_MS} ms of toolbar silence (node mock only)`, keepAlive: { pingMs: SERVER_PING_MS } },
  { name: "fragmented", description: `Each message in continuation frames of ${FRAGMENT_BYTES} bytes, cutting UTF-8 sequences (node mock only)`, fragment: FRAGMENT_BYTES },
  { name: "split-surrogate", description: "Replies end in an astral character cut between two deltas (one surrogate in each)", turn: { suffix: " \u{1F3A8}", splitAt: 2 } },
  { name: "zwj-split", description: "Replies end in a ZWJ emoji sequence cut between two deltas", turn: { suffix: " \u{1F469}\u200D\u{1F4BB}", splitAt: 3 } },
  {
    name: "referential-meta",
    description: "Equal objects within one chat event are one shared object: superjson's referentialEqualities",
    outgoing: (frame) => {
      if (frame.kind !== "event" || frame.sub?.path !== CHAT_PATH) return [frame];
      const data = frame.json!.result.data as { json: unknown; meta?: unknown };
      const value = superjson().deserialize(data as Parameters<ReturnType<typeof superjson>["deserialize"]>[0]);
      const out = copyFrame(frame);
      out.json!.result.data = superjson().serialize(shareEqual(value)) as unknown as Json;
      return [out];
    },
  },
  {
    name: "big-frame",
    description: "The first chat event of each connection is padded with whitespace past 8 MB",
    outgoing: (frame, conn) => {
      if (frame.kind !== "event" || frame.sub?.path !== CHAT_PATH || conn.scratch.has("big")) return [frame];
      conn.scratch.set("big", true);
      const text = JSON.stringify(frame.json);
      // Whitespace between tokens is JSON; the message means the same.
      return [{ ...frame, raw: `${text.slice(0, 1)}${" ".repeat(BIG_FRAME_BYTES)}${text.slice(1)}` } satisfies Frame];
    },
  },
];

/** The published agent-interface's messaging (§5): the quirks that the three messaging faults play. */
const UPSTREAM_QUIRKS = ["messaging-replace-truncates", "messaging-replay-after-resync", "messaging-aliasing"];

const ALL: readonly StagewiseFraming[] = [
  ...FRAMINGS,
  {
    name: "upstream-quirks",
    description: `Messaging as the published agent-interface sends it: ${UPSTREAM_QUIRKS.join(", ")}`,
    ...foldHooks(FAULTS.filter((f) => UPSTREAM_QUIRKS.includes(f.name))),
  },
];

export { ALL as STAGEWISE_FRAMINGS };

export function findFraming(name: string): StagewiseFraming | undefined {
  return ALL.find((f) => f.name === name);
}
