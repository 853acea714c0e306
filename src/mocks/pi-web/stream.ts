/**
 * Streams one assistant message (§3 rules 13–16): message_start with the empty snapshot, the
 * block updates (X_start, X_delta*, X_end per contentIndex) paced by the chunk knobs, then
 * message_end. Every update carries the partial message twice (`message` and
 * `assistantMessageEvent.partial`), as pi does. An abort closes the open text/thinking blocks and
 * ends the message `aborted`.
 */
import { sleep } from "../../core/mock/timing.js";
import { assistantSkeleton, finalAssistant, historyChars } from "./messages.js";
import { EscapedText, rememberJson, utf8 } from "./partial-json.js";
import { chunksOf, type BlockPlan, type ReplyPlan } from "./plan.js";
import type { Run } from "./run.js";
import type { AssistantContent, AssistantMessage, Json, StopReason } from "./types.js";

export const ABORT_MESSAGE = "Request was aborted";

type Op =
  | { kind: "start" | "end"; index: number }
  | { kind: "delta"; index: number; delta: string }
  | { kind: "lifecycle-start" }
  | { kind: "done" };

interface Block {
  plan: BlockPlan;
  /** Concatenated deltas so far. */
  acc: string;
  started: boolean;
  ended: boolean;
  /** snapshot-ahead: the block's chunks, so a snapshot can hold the next one before its delta. */
  chunks?: string[];
  deltas: number;
  /** `acc` escaped for JSON, grown with it. */
  escaped: EscapedText;
  /** The block's JSON in a snapshot once it has ended (it no longer changes). */
  endJson?: Uint8Array;
  /** The JSON text streamed for a tool call (may differ from the final arguments under a fault). */
  argsJson?: string;
  finalArgs?: Json;
}

/** An open text or thinking block's JSON around its escaped text (the key order contentOf writes). */
const OPEN_JSON: Partial<Record<BlockPlan["type"], [Uint8Array, Uint8Array]>> = {
  text: [utf8('{"type":"text","text":"'), utf8('"}')],
  thinking: [utf8('{"type":"thinking","thinking":"'), utf8('"}')],
};
const COMMA = utf8(",");

const prefix = (p: BlockPlan) => (p.type === "toolCall" ? "toolcall" : p.type);

function opsOf(blocks: Block[], chunkSize: number, plan: ReplyPlan): Op[] {
  const perBlock = blocks.map((b, index): Op[] => {
    const pieces =
      b.plan.type === "toolCall" ? ["", ...chunksOf(b.argsJson ?? "", chunkSize)] : chunksOf(b.plan.type === "text" ? b.plan.text : b.plan.thinking, chunkSize);
    return [{ kind: "start", index }, ...pieces.map((delta): Op => ({ kind: "delta", index, delta })), { kind: "end", index }];
  });
  let ops: Op[];
  const [first, second] = blocks;
  if (plan.variant?.overlap && first?.plan.type === "thinking" && second?.plan.type === "text") {
    const a = perBlock[0] as Op[];
    const b = perBlock[1] as Op[];
    // thinking start+deltas, text start + two deltas, thinking end, the rest of text.
    const head = b.slice(0, 3);
    ops = [...a.slice(0, -1), ...head, a[a.length - 1] as Op, ...b.slice(3), ...perBlock.slice(2).flat()];
  } else {
    ops = perBlock.flat();
  }
  return plan.variant?.lifecycle ? [{ kind: "lifecycle-start" }, ...ops, { kind: "done" }] : ops;
}

function contentOf(b: Block, partial: boolean): AssistantContent | Json {
  const p = b.plan;
  if (p.type === "text") return { type: "text", text: partial && b.chunks ? b.acc + (b.chunks[b.deltas] ?? "") : b.acc };
  if (p.type === "thinking") return { type: "thinking", thinking: b.acc };
  if (!partial) return { type: "toolCall", id: p.id, name: p.name, arguments: b.finalArgs ?? p.args };
  let args: unknown = {};
  try {
    args = JSON.parse(b.acc);
  } catch {
    // A partial JSON fragment: arguments stay empty until it parses.
  }
  return { type: "toolCall", id: p.id, name: p.name, arguments: args, partialArgs: b.acc };
}

/** The assistant message of one turn; null when the run was silenced or interrupted meanwhile. */
export async function streamAssistant(run: Run, plan: ReplyPlan): Promise<AssistantMessage | null> {
  const { opts } = run.host;
  const hooks = run.hooks;
  const skeleton = assistantSkeleton();
  const inputTokens = Math.ceil(historyChars(run.session.messages) / 4);
  run.emit({ type: "message_start", message: { ...skeleton, content: [] } });

  if (plan.error !== undefined) {
    const failed = finalAssistant(skeleton, [], "error", inputTokens, plan.error);
    run.emit({ type: "message_end", message: failed });
    run.record(failed);
    return failed;
  }

  const blocks: Block[] = plan.blocks.map((p) => {
    const b: Block = { plan: p, acc: "", escaped: new EscapedText(), started: false, ended: false, deltas: 0 };
    if (p.type === "text" && plan.variant?.snapshotAhead) b.chunks = chunksOf(p.text, opts.chunkSize);
    if (p.type === "toolCall") {
      b.argsJson = JSON.stringify(p.args);
      b.finalArgs = hooks.stream?.toolArgsMismatch ? { ...p.args, mockMismatch: true } : p.args;
    }
    return b;
  });
  const hasTools = blocks.some((b) => b.plan.type === "toolCall");
  const stopReason: StopReason = hasTools && !hooks.stream?.toolUseAsStop ? "toolUse" : "stop";
  const partial = (): Json => ({
    ...skeleton,
    content: blocks.filter((b) => b.started).map((b) => contentOf(b, !b.ended)),
  });
  // The snapshot's JSON around its content, and each started block's: what update() hands the encoder.
  const [beforeContent, afterContent] = JSON.stringify({ ...skeleton, content: [] })
    .split('"content":[]')
    .map((part, i) => utf8(i === 0 ? `${part}"content":[` : `]${part}`)) as [Uint8Array, Uint8Array];
  const snapshotJson = (): Uint8Array[] => {
    const pieces = [beforeContent];
    for (const b of blocks) {
      if (!b.started) continue;
      if (pieces.length > 1) pieces.push(COMMA);
      const open = OPEN_JSON[b.plan.type];
      if (b.ended) pieces.push((b.endJson ??= utf8(JSON.stringify(contentOf(b, false)))));
      else if (open && !b.chunks) pieces.push(open[0], ...b.escaped.pieces, open[1]);
      else pieces.push(utf8(JSON.stringify(contentOf(b, true))));
    }
    pieces.push(afterContent);
    return pieces;
  };
  const final = (content: AssistantContent[], reason: StopReason, error?: string) =>
    finalAssistant(skeleton, content, reason, inputTokens, error);
  const finished = () => final(blocks.map((b) => contentOf(b, false) as AssistantContent), stopReason);

  const update = (event: Json) => {
    const snapshot = partial();
    rememberJson(snapshot, snapshotJson());
    run.emit({ type: "message_update", message: snapshot, assistantMessageEvent: { ...event, partial: snapshot } });
  };

  const ops = opsOf(blocks, opts.chunkSize, plan);
  const buffered = hooks.stream?.buffered === true;
  if (buffered) await sleep(opts.chunkDelay * ops.length, run.signal);
  let updates = 0;
  for (const op of ops) {
    if (!buffered) await sleep(opts.chunkDelay, run.signal);
    if (run.silenced) return null;
    if (run.aborted) break;
    if (op.kind === "lifecycle-start") update({ type: "start" });
    else if (op.kind === "done") {
      const m = finished();
      update({ type: "done", reason: m.stopReason, message: m });
    } else {
      const b = blocks[op.index] as Block;
      const name = prefix(b.plan);
      if (op.kind === "start") {
        // Under snapshot-ahead, the snapshot of an open text block already holds the next
        // chunk (agegr/pi-web#835); contentOf adds it.
        b.started = true;
        update({ type: `${name}_start`, contentIndex: op.index });
      } else if (op.kind === "delta") {
        b.acc += op.delta;
        b.escaped.append(op.delta);
        b.deltas++;
        update({ type: `${name}_delta`, contentIndex: op.index, delta: op.delta });
      } else {
        b.ended = true;
        const end = contentOf(b, false);
        if (b.plan.type === "toolCall") update({ type: "toolcall_end", contentIndex: op.index, toolCall: end });
        else update({ type: `${name}_end`, contentIndex: op.index, content: b.acc });
      }
    }
    updates++;
    if (plan.interrupt && updates === plan.interrupt.afterUpdates) {
      run.host.interrupt(plan.interrupt.action, run);
      return null;
    }
  }

  let message: AssistantMessage;
  if (run.aborted) {
    // Open text/thinking blocks are closed (unless the variant leaves them open); an open
    // tool call, whose arguments may not parse, is dropped. Blocks never started are absent.
    for (const b of blocks) {
      if (!b.started || b.ended || b.plan.type === "toolCall") continue;
      if (plan.variant?.openBlockOnAbort) continue;
      b.ended = true;
      update({ type: `${prefix(b.plan)}_end`, contentIndex: blocks.indexOf(b), content: b.acc });
    }
    const kept = blocks.filter((b) => b.started && (b.plan.type !== "toolCall" || b.ended));
    message = final(kept.map((b) => contentOf(b, false) as AssistantContent), "aborted", ABORT_MESSAGE);
  } else {
    message = finished();
  }
  run.emit({ type: "message_end", message });
  run.record(message);
  return message;
}
