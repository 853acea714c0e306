/**
 * §3 rules 13–16: the content blocks of a streamed assistant message. Each check follows every
 * assistant message with an incremental block state machine (per contentIndex: start, deltas,
 * end), keeping only the open message's blocks and their accumulated text.
 */
import { excerpt, type CheckDef, type Outcome } from "../../../core/checks/check.js";
import type { Listen } from "../../../core/views/hooks.js";
import { C, M, TOPIC } from "../labels.js";
import { readParams } from "../params.js";
import { frameEvidence, isObject, jsonDiff, jsonEqual, onWire, serverCheck, toolCalls, where, type Conn, type FrameEvent, type Json } from "./support.js";

/** stream/incremental judges an answer of at least this many deltas. */
const MIN_DELTAS = 20;

type Kind = "text" | "thinking" | "toolcall";

/**
 * Concatenated deltas, kept as a few flat strings: `+=` on a million tiny deltas would build a
 * rope of a million nodes (memory per event, not per character).
 */
export class Text {
  private parts: string[] = [];
  length = 0;
  add(s: string): void {
    this.parts.push(s);
    this.length += s.length;
    if (this.parts.length >= 256) this.parts = [this.parts.join("")];
  }
  toString(): string {
    if (this.parts.length > 1) this.parts = [this.parts.join("")];
    return this.parts[0] ?? "";
  }
}

export interface Block {
  kind: Kind;
  index: number;
  ended: boolean;
  /** Concatenated deltas, when the handler asked for them (`accumulate`). */
  acc: Text | undefined;
  /** Characters of deltas so far. */
  length: number;
  deltas: number;
  /** text/thinking: `content` of the end; toolcall: `toolCall`. */
  endValue?: unknown;
  endEv?: FrameEvent;
}

export interface MessageState {
  start: FrameEvent;
  blocks: Map<number, Block>;
  /** The blocks in the order they started, and where the first still open may be (see firstOpenBlock). */
  order: Block[];
  firstOpen: number;
  /** A grammar violation happened: values built from the deltas cannot be trusted. */
  broken: boolean;
  lifecycleStart: boolean;
  lifecycleEnd: "done" | "error" | undefined;
  updates: number;
  firstDeltaAt?: number;
  slots: Set<number>;
  /**
   * The 10-ms slots of the updates had each come as early as it may have (a message read out of a
   * backlog, at the backlog's start: see `backlogSince`), and whether any was.
   */
  earliestSlots: Set<number>;
  backlogged: boolean;
  /** The prompt label of the run the message belongs to (main connection only). */
  runLabel: string | undefined;
}

export interface BlockHandlers {
  /** Keep the concatenated deltas of these block kinds (memory grows with their content). */
  accumulate?: readonly Kind[];
  /** A grammar violation (block-grammar reports these; the others mark the message broken). */
  violation?(ev: FrameEvent, c: Conn, expected: string, actual: string): void;
  /** A well-formed block update, after the state was updated. */
  update?(ev: FrameEvent, c: Conn, u: Json, s: MessageState, block: Block | undefined, value: Json): void;
  /** The assistant message_end. */
  end?(ev: FrameEvent, c: Conn, message: Json, s: MessageState): void;
}

/**
 * The first block still open, in the order they started. A block only ever ends, so the cursor only moves on: an
 * update asking costs the same however many blocks the message has.
 */
export function firstOpenBlock(s: MessageState): Block | undefined {
  while (s.firstOpen < s.order.length && superseded(s, s.order[s.firstOpen]!)) s.firstOpen++;
  return s.order[s.firstOpen];
}

/** Ended, or replaced by a second start of its index (that start is the block now; the first is never open again). */
const superseded = (s: MessageState, b: Block): boolean => b.ended || s.blocks.get(b.index) !== b;

const BLOCK_TYPE = /^(text|thinking|toolcall)_(start|delta|end)$/;

/** Follows assistant messages on the client connections and their blocks. */
export function onBlocks(h: BlockHandlers): Listen {
  const current = new Map<string, MessageState>();
  const runLabel = new Map<string, string | undefined>();
  let lastPrompt: string | undefined;
  const bad = (ev: FrameEvent, c: Conn, s: MessageState, expected: string, actual: string) => {
    s.broken = true;
    h.violation?.(ev, c, expected, actual);
  };
  return onWire(
    {
      out: (ev) => {
        if (ev.label?.startsWith("prompt:")) lastPrompt = ev.label;
      },
      in: (ev, m, c) => {
        if (m.kind !== "object" || typeof m.type !== "string") return;
        const v = m.value;
        switch (m.type) {
          case "agent_start":
            runLabel.set(c.id, lastPrompt);
            return;
          case "session_changed":
            current.delete(c.id);
            return;
          case "message_start": {
            current.delete(c.id);
            if (isObject(v.message) && v.message.role === "assistant") {
              current.set(c.id, { start: ev, blocks: new Map(), order: [], firstOpen: 0, broken: false, lifecycleStart: false, lifecycleEnd: undefined, updates: 0, slots: new Set(), earliestSlots: new Set(), backlogged: false, runLabel: runLabel.get(c.id) });
            }
            return;
          }
          case "message_end": {
            const s = current.get(c.id);
            current.delete(c.id);
            if (s && isObject(v.message)) h.end?.(ev, c, v.message, s);
            return;
          }
          case "message_update": {
            const s = current.get(c.id);
            const u = v.assistantMessageEvent;
            if (!s || !isObject(u) || typeof u.type !== "string") return; // nesting / schema
            s.updates++;
            s.slots.add(Math.floor(ev.t / 10));
            s.earliestSlots.add(Math.floor((ev.backlogSince ?? ev.t) / 10));
            if (ev.backlogSince !== undefined) s.backlogged = true;
            const bm = BLOCK_TYPE.exec(u.type);
            if (!bm) {
              if (u.type === "start") {
                if (s.blocks.size > 0 || s.lifecycleStart) bad(ev, c, s, '"start" before any block', `${where(ev, c, "start")} comes after ${s.blocks.size} block(s)`);
                s.lifecycleStart = true;
              } else if (u.type === "done" || u.type === "error") {
                const open = u.type === "done" ? firstOpenBlock(s) : undefined;
                if (open) bad(ev, c, s, '"done" after every block ended', `${where(ev, c, "done")} with block ${open.index} open`);
                s.lifecycleEnd = u.type;
              }
              h.update?.(ev, c, u, s, undefined, v);
              return;
            }
            const kind = bm[1] as Kind;
            const step = bm[2]!;
            const i = u.contentIndex;
            if (typeof i !== "number" || !Number.isInteger(i) || i < 0) {
              s.broken = true; // framing/server-schema
              return;
            }
            if (s.lifecycleEnd) bad(ev, c, s, `nothing after "${s.lifecycleEnd}"`, `${where(ev, c, u.type)} for block ${i} follows "${s.lifecycleEnd}"`);
            let b = s.blocks.get(i);
            if (step === "start") {
              if (b) bad(ev, c, s, `one ${kind}_start for block ${i}`, `${where(ev, c, u.type)} starts block ${i} again`);
              else if (i !== s.blocks.size) bad(ev, c, s, `block index ${s.blocks.size} next (0, 1, 2… in order)`, `${where(ev, c, u.type)} opens block ${i}`);
              b = { kind, index: i, ended: false, acc: h.accumulate?.includes(kind) ? new Text() : undefined, length: 0, deltas: 0 };
              s.blocks.set(i, b);
              s.order.push(b);
            } else if (!b) {
              bad(ev, c, s, `${kind}_start before ${u.type}`, `${where(ev, c, u.type)} for block ${i}, which never started`);
              return;
            } else if (b.kind !== kind) {
              bad(ev, c, s, `${b.kind} updates for block ${i}`, `${where(ev, c, u.type)} in a ${b.kind} block`);
              return;
            } else if (b.ended) {
              bad(ev, c, s, `nothing after ${kind}_end of block ${i}`, `${where(ev, c, u.type)} after block ${i} ended`);
              return;
            } else if (step === "delta") {
              if (typeof u.delta === "string") {
                b.acc?.add(u.delta);
                b.length += u.delta.length;
              }
              b.deltas++;
              s.firstDeltaAt ??= ev.t;
            } else {
              b.ended = true;
              b.endValue = kind === "toolcall" ? u.toolCall : u.content;
              b.endEv = ev;
            }
            h.update?.(ev, c, u, s, b, v);
            return;
          }
          default:
            return;
        }
      },
      close: (_ev, c) => current.delete(c.id),
    },
    { clientsOnly: true },
  );
}

/** The part of a message_end content item a block's end value is compared with. */
function contentValue(kind: Kind, part: unknown): unknown {
  if (!isObject(part)) return part;
  if (kind === "text") return part.type === "text" ? part.text : part;
  if (kind === "thinking") return part.type === "thinking" ? part.thinking : part;
  return part;
}

export const STREAM_CHECKS: CheckDef[] = [
  serverCheck("pi-web/stream/block-grammar", (t) => {
    let messages = 0;
    const observe = onBlocks({
      violation: (ev, _c, expected, actual) => t.fail(expected, actual, frameEvidence(ev)),
      end: (ev, c, message, s) => {
        messages++;
        const open = firstOpenBlock(s);
        const cut = message.stopReason === "aborted" || message.stopReason === "error";
        if (open && !cut) t.fail(`every block ended before message_end (stopReason ${excerpt(message.stopReason)})`, `${where(ev, c)} with block ${open.index} (${open.kind}) open`, frameEvidence(ev));
        else if (s.blocks.size > 0 && !s.broken) t.ok();
      },
    });
    return { observe, finish: () => t.outcome(`${t.count} streamed message(s) followed the block grammar`, `no assistant message with blocks (${messages} message_end(s))`) };
  }),
  serverCheck("pi-web/stream/end-values", (t) => {
    const observe = onBlocks({
      accumulate: ["text", "thinking"],
      update: (ev, c, u, s, b) => {
        if (!b || s.broken || (u.type !== "text_end" && u.type !== "thinking_end")) return;
        if (typeof u.content !== "string") return; // schema
        const acc = String(b.acc);
        if (u.content === acc) t.ok();
        else t.fail(`${u.type} content equal to the ${b.deltas} delta(s) of block ${b.index}`, `${where(ev, c, String(u.type))}: content ${excerpt(u.content, 60)} vs deltas ${excerpt(acc, 60)} (${u.content.length} vs ${acc.length} chars)`, frameEvidence(ev));
      },
      end: (ev, c, message, s) => {
        if (s.broken || !Array.isArray(message.content)) {
          if (s.broken) t.untestable("a message broke the block grammar");
          return;
        }
        for (const b of s.blocks.values()) {
          if (!b.ended) continue;
          const part = message.content[b.index];
          const got = contentValue(b.kind, part);
          if (jsonEqual(got, b.endValue)) t.ok();
          else t.fail(`message_end.content[${b.index}] equal to block ${b.index}'s end value`, `${where(ev, c)}: ${jsonDiff(got, b.endValue)}`, frameEvidence(ev));
        }
      },
    });
    return { observe, finish: () => t.outcome(`${t.count} end value(s) matched their deltas and the final message`, "no block ended") };
  }),
  serverCheck("pi-web/stream/toolcall-end", { notApplicableWhen: [TOPIC.tools] }, (t) => {
    const observe = onBlocks({
      accumulate: ["toolcall"],
      update: (ev, c, u, s, b) => {
        if (!b || s.broken || u.type !== "toolcall_end") return;
        const acc = String(b.acc);
        if (acc.trim() === "") {
          // The catalogue allows it ("args may come whole"): nothing to compare.
          t.notApplicable("the tool call arguments came whole in toolcall_end, with no deltas to compare them with");
          return;
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(acc);
        } catch {
          t.untestable("the toolcall deltas did not parse as JSON");
          return;
        }
        const args = isObject(u.toolCall) ? u.toolCall.arguments : undefined;
        if (jsonEqual(parsed, args)) t.ok();
        else t.fail("toolCall.arguments equal to the parsed deltas", `${where(ev, c, "toolcall_end")}: ${jsonDiff(args, parsed)}`, frameEvidence(ev));
      },
    });
    return { observe, finish: () => t.outcome(`${t.count} tool call(s) had arguments equal to their deltas`, "no tool call was streamed") };
  }),
  serverCheck("pi-web/stream/stop-reason", (t) => {
    const observe = onWire(
      {
        in: (ev, m, c) => {
          if (m.kind !== "object" || m.type !== "message_end" || !isObject(m.value.message) || m.value.message.role !== "assistant") return;
          const msg = m.value.message;
          const sr = msg.stopReason;
          const calls = toolCalls(msg).length;
          if (sr === "aborted" || sr === "error") {
            if (typeof msg.errorMessage === "string" && msg.errorMessage !== "") t.ok();
            else t.fail(`an errorMessage with stopReason ${sr}`, `${where(ev, c)} has no errorMessage`, frameEvidence(ev));
          } else if (calls > 0 && sr !== "toolUse") t.fail('stopReason "toolUse" for a message with tool calls', `${where(ev, c)}: ${calls} toolCall part(s), stopReason ${excerpt(sr)}`, frameEvidence(ev));
          else if (calls === 0 && sr === "toolUse") t.fail('no "toolUse" without tool calls', `${where(ev, c)}: stopReason "toolUse" with no toolCall part`, frameEvidence(ev));
          else t.ok();
        },
      },
      { clientsOnly: true },
    );
    return { observe, finish: () => t.outcome(`${t.count} assistant message(s) had a consistent stopReason`, "no assistant message ended") };
  }),
  serverCheck({
    id: "pi-web/stream/observed-variants",
    create() {
      let updates = 0;
      let lifecycle = 0;
      let ahead = 0;
      const observe = onBlocks({
        update: (_ev, _c, u, _s, b, value) => {
          updates++;
          if (u.type === "start" || u.type === "done" || u.type === "error") lifecycle++;
          if (!b || (u.type !== "text_delta" && u.type !== "thinking_delta")) return;
          const partial = isObject(u.partial) ? u.partial : isObject(value.message) ? value.message : undefined;
          const part = Array.isArray(partial?.content) ? partial.content[b.index] : undefined;
          const snap = isObject(part) ? (b.kind === "text" ? part.text : part.thinking) : undefined;
          if (typeof snap === "string" && snap.length > b.length) ahead++;
        },
      });
      const finish = (): Outcome =>
        updates === 0
          ? { verdict: "incomplete", notExercised: true, message: "not exercised: no message_update was observed" }
          : { verdict: "info", message: `${updates} block update(s): ${lifecycle} start/done/error update(s), ${ahead} snapshot(s) ahead of the deltas` };
      return { observe, finish };
    },
  }),
  serverCheck("pi-web/stream/incremental", (t, ctx) => {
    const { incrementalMinMs, incrementalSlots } = readParams(ctx.params);
    /** The long run's answer is its first streamed assistant message (a follow-up may come after it). */
    let judged = false;
    const observe = onBlocks({
      end: (ev, c, _message, s) => {
        if (c.label !== C.main || s.runLabel !== M.prompt("long") || s.firstDeltaAt === undefined) return;
        if (judged) return;
        judged = true;
        const deltas = [...s.blocks.values()].reduce((n, b) => n + b.deltas, 0);
        if (deltas < MIN_DELTAS) {
          t.untestable(`the long answer had only ${deltas} delta(s), too few to tell streaming from a burst`);
          return;
        }
        const span = ev.t - s.firstDeltaAt;
        if (span >= incrementalMinMs && s.slots.size >= incrementalSlots) {
          // Read spread out, but partly out of a backlog: had every backlogged message come with its backlog's
          // first read, would the answer still have streamed? If not, the reads cannot tell.
          const least = (ev.backlogSince ?? ev.t) - s.firstDeltaAt;
          if (!s.backlogged || (least >= incrementalMinMs && s.earliestSlots.size >= incrementalSlots)) t.ok();
          else t.untestable(`the kit read the long answer partly out of a backlog (large reads back to back while it was busy): its updates may have come in ${s.earliestSlots.size} slot(s) within ${Math.round(Math.max(0, least))} ms`);
        } else t.fail(`first delta ≥ ${incrementalMinMs} ms before message_end, updates in ≥ ${incrementalSlots} 10-ms slots`, `${where(ev, c)}: ${s.updates} update(s) within ${Math.round(span)} ms, in ${s.slots.size} slot(s)`, frameEvidence(ev));
      },
    });
    return { observe, finish: () => t.outcome("the long answer streamed incrementally", "the long answer streamed no delta") };
  }),
];
