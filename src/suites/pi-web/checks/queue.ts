/** §3 rules 7–11: steering and follow-up messages queued during a run. */
import { endThen, excerpt, type CheckDef, type Outcome } from "../../../core/checks/check.js";
import { M, TOPIC } from "../labels.js";
import { all, answerMissed, frameEvidence, isObject, knockOnUnanswered, rpc, runViews, serverCheck, textOf, toolCalls, where, type Command, type Conn, type FrameEvent, type Json } from "./support.js";


/** A message the probes queued with streamingBehavior while a run was open. */
export interface Item {
  kind: "steer" | "followUp";
  text: string;
  cmd: Command;
  /** Transcript time of the success that confirmed the queueing. */
  queuedAt: number;
  /** Run epoch of the connection when it was queued (same epoch = same run). */
  epoch: number;
  /** Returned by clear_queue, or the run was aborted: no injection is expected. */
  excused?: string;
  injected?: FrameEvent;
}

interface QueueHandlers {
  queued?(item: Item): void;
  /** A user message carrying the item's text started. `prev` is the previous message_end on that socket. */
  injected?(item: Item, ev: FrameEvent, c: Conn, info: { sameRun: boolean; prev: Json | undefined }): void;
  /** A run ended (agent_end). */
  runEnd?(ev: FrameEvent, c: Conn): void;
  /**
   * These items were never injected in their run (reported at its agent_end, or, when a
   * clear_queue was still unanswered then, once its answer says they were not cleared).
   */
  notInjected?(ev: FrameEvent, c: Conn, items: Item[]): void;
  /**
   * An answer the rule needed never came (rpc/response-per-command failed on it): a queueing
   * prompt, or a clear_queue that may have cleared the items of the run that ended before it.
   */
  unanswered?(cmd: Command, items: Item[]): void;
  event?(ev: FrameEvent, type: string, v: Json, c: Conn): void;
}

/** Follows queued items on their connection: queueing, clear_queue, abort, injection, run end. */
function trackQueue(h: QueueHandlers) {
  const runs = runViews();
  const items: Item[] = [];
  const prev = new Map<string, Json>();
  /** clear_queue commands not answered yet, with the items of runs that ended while they were waiting. */
  const clears = new Map<Command, { ev: FrameEvent; c: Conn; items: Item[] }[]>();
  const r = rpc({
    command: (cmd) => {
      if (cmd.type === "clear_queue") clears.set(cmd, []);
      if (cmd.type === "abort") for (const i of items) if (!i.injected && i.cmd.conn.id === cmd.conn.id && runs.view(cmd.conn.id).epoch === i.epoch) i.excused ??= "aborted";
    },
    response: (ev, resp, cmd, how) => {
      if (!cmd || (how !== "exact" && how !== "inexact")) return;
      const sb = cmd.value.streamingBehavior;
      if (cmd.type === "prompt" && (sb === "steer" || sb === "followUp") && resp.success === true && typeof cmd.value.message === "string") {
        const v = runs.view(cmd.conn.id);
        if (!v.open) return; // idle: streamingBehavior is ignored, the prompt just runs
        const item: Item = { kind: sb, text: cmd.value.message, cmd, queuedAt: ev.t, epoch: v.epoch };
        items.push(item);
        h.queued?.(item);
      }
      if (cmd.type === "clear_queue") {
        const data = resp.success === true && isObject(resp.data) ? resp.data : undefined;
        const texts = data ? [data.steering, data.followUp].flatMap((x) => (Array.isArray(x) ? x : [])) : [];
        for (const i of items) if (!i.injected && texts.includes(i.text)) i.excused ??= "cleared";
        for (const held of clears.get(cmd) ?? []) {
          const kept = held.items.filter((i) => !texts.includes(i.text));
          if (kept.length) h.notInjected?.(held.ev, held.c, kept);
        }
        clears.delete(cmd);
      }
    },
    unanswered: (cmd, why, ev) => {
      const held = clears.get(cmd);
      clears.delete(cmd);
      if (!answerMissed(cmd, why, ev)) return;
      const sb = cmd.value.streamingBehavior;
      if (cmd.type === "prompt" && (sb === "steer" || sb === "followUp")) h.unanswered?.(cmd, []);
      if (held?.length) h.unanswered?.(cmd, held.flatMap((x) => x.items));
    },
    event: (ev, type, v, c) => {
      if (type === "message_start" && isObject(v.message) && v.message.role === "user") {
        const text = textOf(v.message.content);
        const item = items.find((i) => !i.injected && i.cmd.conn.id === c.id && i.text === text);
        if (item) {
          item.injected = ev;
          if (!item.excused) h.injected?.(item, ev, c, { sameRun: runs.view(c.id).epoch === item.epoch && runs.view(c.id).open, prev: prev.get(c.id) });
        }
      }
      if (type === "message_end" && isObject(v.message)) prev.set(c.id, v.message);
      if (type === "agent_start") prev.delete(c.id);
      if (type === "agent_end") {
        const ended = runs.view(c.id).epoch - 1;
        const waiting = items.filter((i) => !i.injected && !i.excused && i.cmd.conn.id === c.id && i.epoch === ended);
        for (const i of waiting) i.excused = "judged at run end";
        h.runEnd?.(ev, c);
        // A clear_queue still waiting for its answer may have cleared them: judged once it answers.
        const clear = [...clears.keys()].find((k) => k.conn.id === c.id);
        if (clear && waiting.length) clears.get(clear)!.push({ ev, c, items: waiting });
        else if (waiting.length) h.notInjected?.(ev, c, waiting);
      }
      h.event?.(ev, type, v, c);
    },
  });
  return { observe: all(runs.observe, r.observe), end: r.end, items };
}

export const QUEUE_CHECKS: CheckDef[] = [
  serverCheck("pi-web/queue/steer-injected", { notApplicableWhen: [TOPIC.queue] }, (t) => {
    let awaitingReply: { item: Item; ev: FrameEvent } | undefined;
    const q = trackQueue({
      injected: (item, ev, c, info) => {
        if (item.kind !== "steer") return;
        if (!info.sameRun) t.fail("the steer injected in the run it was queued in", `${where(ev, c)} injects ${JSON.stringify(item.text)} in a later run`, frameEvidence(ev));
        else awaitingReply = { item, ev };
      },
      notInjected: (ev, c, waiting) => {
        for (const i of waiting.filter((x) => x.kind === "steer")) t.fail("the steer echoed before agent_end", `${where(ev, c)}: the run ended without injecting ${JSON.stringify(i.text)}`, frameEvidence(ev));
      },
      unanswered: (cmd, items) => {
        if (cmd.value.streamingBehavior === "steer" || items.some((i) => i.kind === "steer")) knockOnUnanswered(t, cmd);
      },
      runEnd: (ev, c) => {
        if (awaitingReply) {
          t.fail("an assistant reply after the steer", `${where(ev, c)}: the run ended right after the steer ${JSON.stringify(awaitingReply.item.text)}`, frameEvidence(ev));
          awaitingReply = undefined;
        }
      },
      event: (_ev, type, v) => {
        if (awaitingReply && type === "message_start" && isObject(v.message) && v.message.role === "assistant") {
          t.ok();
          awaitingReply = undefined;
        }
      },
    });
    return endThen(q, () => t.outcome(`${t.count} steer(s) were injected in their run and answered`, "no steer was queued (and kept) during a run"));
  }),
  serverCheck("pi-web/queue/steer-skips-tools", { notApplicableWhen: [TOPIC.queue] }, (t) => {
    interface Watch {
      /** Calls started since the steer was queued and not ended yet. */
      open: Map<string, FrameEvent>;
      /** Their ends, judged when the steer is injected in the same run. */
      ends: { id: string; ev: FrameEvent; isError: unknown }[];
      /** An end of a call that never started (tool/pairing's finding): it may have been one to skip. */
      unopened?: FrameEvent;
    }
    const watch = new Map<Item, Watch>();
    /** Calls started in each connection's current run. */
    const started = new Map<string, Set<string>>();
    const q = trackQueue({
      queued: (item) => {
        if (item.kind === "steer") watch.set(item, { open: new Map(), ends: [] });
      },
      injected: (item, _ev, _c, info) => {
        const w = watch.get(item);
        watch.delete(item);
        if (!w || item.excused) return;
        // Skipping is relative to the injected steer: a steer that missed its run is steer-injected's.
        if (!info.sameRun) return;
        if (w.ends.length === 0 && w.unopened) {
          t.knockOn("pi-web/tool/pairing", where(w.unopened));
          return;
        }
        if (w.ends.length === 0) {
          // With no call pending, the steer legally comes after turn_end (§3 r8): nothing was to be skipped.
          if (w.open.size) t.untestable("the calls pending at the steer had no readable tool_execution_end");
          else t.notApplicable("no tool call was pending between the steer and its injection, so none was to be skipped");
          return;
        }
        for (const e of w.ends) {
          if (e.isError === true) t.ok();
          else t.fail(`${e.id} skipped (isError:true)`, `${where(e.ev)}: ${e.id}, started after the steer was queued, ended isError ${excerpt(e.isError)}`, frameEvidence(e.ev));
        }
      },
      runEnd: (_ev, c) => {
        for (const item of watch.keys()) if (item.cmd.conn.id === c.id) watch.delete(item);
        started.delete(c.id);
      },
      unanswered: (cmd) => {
        if (cmd.value.streamingBehavior === "steer") knockOnUnanswered(t, cmd);
      },
      event: (ev, type, v, c) => {
        if (type !== "tool_execution_start" && type !== "tool_execution_end") return;
        const id = v.toolCallId;
        if (typeof id !== "string") return;
        const seen = started.get(c.id) ?? started.set(c.id, new Set()).get(c.id)!;
        for (const [item, w] of watch) {
          if (item.excused || item.cmd.conn.id !== c.id || ev.t < item.queuedAt) continue;
          if (type === "tool_execution_start") w.open.set(id, ev);
          else if (w.open.delete(id)) w.ends.push({ id, ev, isError: v.isError });
          else if (!seen.has(id)) w.unopened ??= ev;
        }
        if (type === "tool_execution_start") seen.add(id);
      },
    });
    return endThen(q, () => t.outcome(`${t.count} tool call(s) pending at a steer were skipped`, "no steer was queued while tool calls were pending"));
  }),
  serverCheck("pi-web/queue/follow-up-at-end", { notApplicableWhen: [TOPIC.queue] }, (t) => {
    const q = trackQueue({
      injected: (item, ev, c, info) => {
        if (item.kind !== "followUp") return;
        const p = info.prev;
        if (!info.sameRun) t.fail("the follow-up injected in the run it was queued in", `${where(ev, c)} injects ${JSON.stringify(item.text)} in a later run`, frameEvidence(ev));
        else if (!p || p.role !== "assistant" || toolCalls(p).length > 0 || p.stopReason === "toolUse") {
          const what = !p ? "nothing" : p.role === "assistant" ? "an assistant message with tool calls" : `a ${excerpt(p.role)} message`;
          t.fail("the follow-up right after an assistant reply without tool calls", `${where(ev, c)} injects ${JSON.stringify(item.text)} after ${what}`, frameEvidence(ev));
        } else t.ok();
      },
      notInjected: (ev, c, waiting) => {
        for (const i of waiting.filter((x) => x.kind === "followUp")) t.fail("the follow-up injected before agent_end", `${where(ev, c)}: the run ended without injecting ${JSON.stringify(i.text)}`, frameEvidence(ev));
      },
      unanswered: (cmd, items) => {
        if (cmd.value.streamingBehavior === "followUp" || items.some((i) => i.kind === "followUp")) knockOnUnanswered(t, cmd);
      },
    });
    return endThen(q, () => t.outcome(`${t.count} follow-up(s) were injected at the end of their run`, "no follow-up was queued (and kept) during a run"));
  }),
  serverCheck("pi-web/queue/abort-keeps-queue", { notApplicableWhen: [TOPIC.queue] }, (t) => {
    const answers = new Map<string, { ev: FrameEvent; resp: Json; c: Conn }>();
    const queued: Item[] = [];
    /** The stopReason of the first assistant message that ended after the abort. */
    let afterAbort: { armed: boolean; stop?: unknown } = { armed: false };
    const q = trackQueue({
      queued: (i) => {
        if (i.cmd.label?.endsWith(":q3")) queued.push(i);
      },
      unanswered: (cmd) => {
        if (cmd.label?.endsWith(":q3")) knockOnUnanswered(t, cmd);
      },
      event: (_ev, type, v) => {
        if (afterAbort.armed && afterAbort.stop === undefined && type === "message_end" && isObject(v.message) && v.message.role === "assistant") afterAbort.stop = v.message.stopReason ?? null;
      },
    });
    const arm = rpc({
      command: (cmd) => {
        if (cmd.label === M.abortQueue) afterAbort = { armed: true };
      },
    });
    const r = rpc({
      response: (ev, resp, cmd, how, c) => {
        if (cmd?.label && (how === "exact" || how === "inexact") && !answers.has(cmd.label)) answers.set(cmd.label, { ev, resp, c });
      },
      unanswered: (cmd, why, ev) => {
        if ([M.queueState("q3-before"), M.abortQueue, M.queueState("q3-after")].includes(cmd.label ?? "") && answerMissed(cmd, why, ev)) knockOnUnanswered(t, cmd);
      },
    });
    return {
      observe: all(arm.observe, q.observe, r.observe),
      finish: (): Outcome => {
        q.end();
        r.end();
        arm.end();
        const count = (label: string) => {
          const a = answers.get(label);
          const d = a && isObject(a.resp.data) ? a.resp.data : undefined;
          return typeof d?.pendingMessageCount === "number" ? { n: d.pendingMessageCount, a: a! } : undefined;
        };
        const before = count(M.queueState("q3-before"));
        const after = count(M.queueState("q3-after"));
        const clear = answers.get(M.clear("q3"));
        if (!before || !after || queued.length === 0 || !answers.has(M.abortQueue)) return t.outcome("", "the queue, abort, get_state sequence did not complete");
        if (afterAbort.stop !== "aborted" && afterAbort.stop !== "error") return t.outcome("", "the abort did not abort the run (cmd/abort's finding), so the queue after it says nothing");
        if (after.n !== before.n) {
          t.fail(`pendingMessageCount ${before.n} after abort`, `${where(after.a.ev, after.a.c)}: pendingMessageCount ${after.n} (was ${before.n} before abort)`, frameEvidence(after.a.ev));
        }
        if (clear && clear.resp.success === true && isObject(clear.resp.data)) {
          const returned = [clear.resp.data.steering, clear.resp.data.followUp].flatMap((x) => (Array.isArray(x) ? x : []));
          const missing = queued.filter((i) => !i.injected && !returned.includes(i.text));
          if (missing.length > 0) t.fail(`clear_queue returns ${JSON.stringify(missing[0]!.text)}`, `${where(clear.ev, clear.c)} returned ${excerpt(clear.resp.data)}`, frameEvidence(clear.ev));
        }
        if (t.failures === 0) t.ok();
        return t.outcome(`the queue survived the abort (pendingMessageCount ${before.n})`);
      },
    };
  }),
];
