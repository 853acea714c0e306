/** chat/*: chats, turns, stop and streaming, judged from the mutations and what subscription A saw (§3 r9, r10, r14). */
import type { CheckDef } from "../../../core/checks/check.js";
import type { ChatMessage, ChatUpdate } from "../../../generated/stagewise-chat.js";
import { messageById, messageCount, messageIndex, type ChatState } from "../../../stagewise/chat-state.js";
import { firstJsonDifference } from "../../../stagewise/json-diff.js";
import { isOk, TOPIC } from "../labels.js";
import {
  all,
  effectEvidence,
  frameEvidence,
  inputField,
  isObject,
  isSubA,
  mutationEffects,
  ofType,
  onChatSubs,
  serverCheck,
  showReq,
  showResult,
  Tally,
  where,
  type ADelta,
  type ChatSub,
  type Effect,
  type FrameEvent,
} from "./support.js";
import { endThen } from "../../../core/checks/check.js";
import { listFirst } from "../../../core/list-text.js";

const UPDATE_WAIT_MS = 2_000;
const UPDATE_APPLICABLE = "stagewise-chat/chat/update-applicable";
const STOP_MS = 5_000;
const STREAM_MIN_CHARS = 200;
const STREAM_MIN_MS = 100;

const reasonOf = (e: Effect): unknown => (e.answer?.r.kind === "error" && isObject(e.answer.r.error?.data) ? e.answer.r.error.data.reason : undefined);
/** The updates of a window by type: the first six, then how many more (a window keeps up to 10,000). */
const typesIn = (deltas: ADelta[]) => (deltas.length ? listFirst(deltas, (d) => String(d.f.update?.type ?? "?"), 6) : "no update");
/** The chat a mutation names was never announced to A (chat/create-chat failed on it): true when knocked on. */
function unseenChat(t: Tally, e: Effect): boolean {
  const chatId = inputField(e, "chatId");
  if (!e.aBefore || typeof chatId !== "string" || e.aBefore.chats.some((c) => c.id === chatId)) return false;
  t.knockOn("stagewise-chat/chat/create-chat", `chat "${chatId}" (${showReq(e.req)})`);
  return true;
}

/** The common failures of a mutation expected to succeed: no answer, or an error. */
function unanswered(t: Tally, e: Effect, what: string): boolean {
  if (e.missing) {
    t.fail(`an answer to ${showReq(e.req)}`, `${showReq(e.req)}: ${e.missing}`, effectEvidence(e));
    return true;
  }
  // Refused as working while A could not know it was: the probes sent it in a turn the server never announced.
  if (reasonOf(e) === "agent-working" && !e.aBefore?.isWorking) {
    if (e.aBroken !== undefined) return t.knockOn(UPDATE_APPLICABLE, e.aBroken), true;
    if (e.idleStream !== undefined) return t.knockOn("stagewise-chat/chat/working-brackets-turn", e.idleStream), true;
  }
  if (e.answer?.r.kind !== "data") {
    t.fail(what, `${showReq(e.req)} answered ${e.answer ? showResult(e.answer.r) : "nothing"}`, effectEvidence(e));
    return true;
  }
  return false;
}
const dataOf = (e: Effect): unknown => (e.answer?.r.kind === "data" ? e.answer.r.value : undefined);
/** The delta came late: more than 2 s after the answer (r2). */
const late = (e: Effect, d: ADelta): number | undefined => {
  const ms = e.answer ? d.f.ev.t - e.answer.ev.t : 0;
  return ms > UPDATE_WAIT_MS ? ms : undefined;
};

function effectCheck(spec: {
  id: string;
  what: string;
  notApplicableWhen?: (typeof TOPIC)[keyof typeof TOPIC][];
  match: (label: string | undefined) => boolean;
  judge: (t: Tally, e: Effect) => void;
  pass: string;
  untested: string;
  graceMs?: number;
}): CheckDef {
  return serverCheck(spec.id, spec.notApplicableWhen ? { notApplicableWhen: spec.notApplicableWhen } : {}, (t) => {
    const fx = mutationEffects(
      t,
      (req) => spec.match(req.label),
      (e) => spec.judge(t, e),
      spec.graceMs !== undefined ? { graceMs: spec.graceMs } : {},
    );
    return endThen(fx, () => t.outcome(spec.pass, spec.untested));
  });
}

export const CHAT_CHECKS: CheckDef[] = [
  effectCheck({
    id: "stagewise-chat/chat/create-chat",
    what: "the new chat's id",
    match: (l) => isOk(l, "create"),
    judge(t, e) {
      if (reasonOf(e) === "rejected-by-agent") return t.notApplicable("the agent refused createChat (rejected-by-agent)");
      if (unanswered(t, e, "the new chat's id")) return;
      const id = dataOf(e);
      if (typeof id !== "string") return t.fail("a chat id (string)", `${JSON.stringify(id)}`, effectEvidence(e));
      const created = ofType(e.deltas, "chat-created");
      const mine = created.filter((d) => d.f.update.chat.id === id);
      if (mine.length !== 1) return t.fail(`one chat-created for "${id}"`, `${mine.length} (updates: ${typesIn(e.deltas)})`, effectEvidence(e));
      const d = mine[0]!;
      const c = d.f.update.chat;
      if (c.isActive !== true || !Array.isArray(c.messages) || c.messages.length !== 0 || typeof c.title !== "string" || !c.title) {
        return t.fail(
          "isActive:true, messages:[], a title",
          `isActive:${JSON.stringify(c.isActive)}, ${Array.isArray(c.messages) ? c.messages.length : "no"} messages, title ${JSON.stringify(c.title)}`,
          frameEvidence(d.f.ev),
        );
      }
      const ms = late(e, d);
      if (ms !== undefined) return t.failLate(d.f.ev.t, ms - UPDATE_WAIT_MS, `chat-created within ${UPDATE_WAIT_MS} ms of the answer`, `after ${Math.round(ms)} ms`, frameEvidence(d.f.ev));
      t.ok();
    },
    pass: "createChat returned an id and emitted its chat-created",
    untested: "createChat was never sent",
  }),
  effectCheck({
    id: "stagewise-chat/chat/switch-chat",
    what: "a successful switch",
    notApplicableWhen: [TOPIC.createRefused],
    match: (l) => isOk(l, "switch") || isOk(l, "switch-to-active"),
    judge(t, e) {
      if (reasonOf(e) === "rejected-by-agent") return t.notApplicable("the agent refused switchChat (rejected-by-agent)");
      if (unseenChat(t, e)) return;
      if (unanswered(t, e, "a successful switch")) return;
      const chatId = inputField(e, "chatId");
      const chatDeltas = e.deltas.filter((d) => d.f.update?.type !== "agent-state");
      if (isOk(e.req.label, "switch-to-active")) {
        if (chatDeltas.length) return t.fail("no update for a switch to the active chat", typesIn(chatDeltas), frameEvidence(chatDeltas[0]!.f.ev));
        return t.ok();
      }
      const i = chatDeltas.findIndex((d) => d.f.update?.type === "chat-switched" && d.f.update.chatId === chatId);
      if (i < 0) return t.fail(`chat-switched to "${String(chatId)}"`, typesIn(e.deltas), effectEvidence(e));
      const next = chatDeltas[i + 1];
      const sw = chatDeltas[i]!;
      // What followed chat-switched did not apply (r7: the full sync must): A followed no further, update-applicable's finding.
      const brokeAt = e.deltas.find((d) => d.before !== null && d.after === null);
      if (!next && brokeAt) return t.knockOn(UPDATE_APPLICABLE, where(brokeAt.f.ev));
      if (!next || next.f.update?.type !== "chat-full-sync" || next.f.update.chat.id !== chatId) {
        return t.fail(
          `chat-full-sync of "${String(chatId)}" right after chat-switched`,
          next ? `${next.f.update?.type ?? "?"}` : "nothing",
          frameEvidence(next?.f.ev ?? sw.f.ev),
        );
      }
      if (sw.f.seq !== null && next.f.seq !== null && next.f.seq !== sw.f.seq + 1)
        return t.fail(`the full sync at ${sw.f.seq + 1}`, `at ${next.f.seq}`, frameEvidence(next.f.ev));
      t.ok();
    },
    pass: "switchChat emitted chat-switched and the full sync; a switch to the active chat emitted nothing",
    untested: "switchChat was never sent",
  }),
  serverCheck("stagewise-chat/chat/delete-chat", { notApplicableWhen: [TOPIC.createRefused, TOPIC.switchRefused] }, (t) => {
    const deleted = new Map<string, FrameEvent>();
    const fx = mutationEffects(
      t,
      (req) => isOk(req.label, "delete"),
      (e) => {
        if (reasonOf(e) === "rejected-by-agent") return t.notApplicable("the agent refused deleteChat (rejected-by-agent)");
        if (unseenChat(t, e)) return;
        if (unanswered(t, e, "a successful delete")) return;
        const chatId = inputField(e, "chatId");
        const d = ofType(e.deltas, "chat-deleted").find((x) => x.f.update.chatId === chatId);
        if (!d) return t.fail(`chat-deleted for "${String(chatId)}"`, typesIn(e.deltas), effectEvidence(e));
        deleted.set(String(chatId), d.f.ev);
        t.ok();
      },
    );
    const later = onChatSubs({
      snapshot: (sub: ChatSub) => {
        if (isSubA(sub) || !sub.snapshotState) return;
        for (const [id, ev] of deleted) {
          if (sub.snapshotState.chats.some((c) => c.id === id))
            t.fail(
              `"${id}" gone from later snapshots`,
              `${sub.label ?? "a snapshot"} still lists it`,
              frameEvidence(sub.snapshot[0]!.ev, { note: `deleted at transcript seq ${ev.seq}` }),
            );
        }
      },
    });
    return {
      observe: all(fx.observe, later),
      finish: () => {
        fx.end();
        return t.outcome("deleteChat emitted chat-deleted and the chat left the snapshots", "deleteChat was never sent");
      },
    };
  }),
  effectCheck({
    id: "stagewise-chat/chat/update-title",
    what: "a successful title update",
    notApplicableWhen: [TOPIC.createRefused],
    match: (l) => isOk(l, "title") || isOk(l, "title-while-working"),
    judge(t, e) {
      if (unseenChat(t, e)) return;
      if (unanswered(t, e, "a successful title update")) return;
      const chatId = inputField(e, "chatId");
      const title = inputField(e, "title");
      const d = ofType(e.deltas, "chat-title-updated").find((x) => x.f.update.chatId === chatId);
      if (!d) return t.fail(`chat-title-updated for "${String(chatId)}"`, typesIn(e.deltas), effectEvidence(e));
      if (d.f.update.title !== title) return t.fail(`title ${JSON.stringify(title)}`, `title ${JSON.stringify(d.f.update.title)}`, frameEvidence(d.f.ev));
      t.ok();
    },
    pass: "every title update was broadcast with its exact title",
    untested: "updateChatTitle was never sent",
  }),
  effectCheck({
    id: "stagewise-chat/chat/send-message",
    what: "the new message's id",
    match: (l) => !!l && l.startsWith("ok:send"),
    judge(t, e) {
      if (unanswered(t, e, "the new message's id")) return;
      const id = dataOf(e);
      if (typeof id !== "string") return t.fail("a message id (string)", JSON.stringify(id), effectEvidence(e));
      if (e.answer!.ms > UPDATE_WAIT_MS) return t.failLate(e.answer!.ev.t, e.answer!.ms - UPDATE_WAIT_MS, `the id within ${UPDATE_WAIT_MS} ms`, `after ${Math.round(e.answer!.ms)} ms`, effectEvidence(e));
      const d = ofType(e.deltas, "message-added").find((x) => x.f.update.message.id === id);
      if (!d) return t.fail(`a user message-added with id "${id}"`, typesIn(e.deltas), effectEvidence(e));
      const m = d.f.update.message as ChatMessage & { metadata?: unknown };
      if (m.role !== "user") return t.fail("role user", `role ${String(m.role)}`, frameEvidence(d.f.ev));
      const diff =
        firstJsonDifference(m.content, inputField(e, "content"), "/content") ?? firstJsonDifference(m.metadata, inputField(e, "metadata"), "/metadata");
      if (diff)
        return t.fail(
          "the content and metadata as sent",
          `${diff.path}: ${JSON.stringify(diff.actual)} vs sent ${JSON.stringify(diff.expected)}`,
          frameEvidence(d.f.ev),
        );
      if (d.f.update.chatId !== inputField(e, "chatId"))
        return t.fail(`chatId "${String(inputField(e, "chatId"))}"`, `chatId "${d.f.update.chatId}"`, frameEvidence(d.f.ev));
      const ms = late(e, d);
      if (ms !== undefined) return t.failLate(d.f.ev.t, ms - UPDATE_WAIT_MS, `message-added within ${UPDATE_WAIT_MS} ms`, `after ${Math.round(ms)} ms`, frameEvidence(d.f.ev));
      t.ok();
    },
    pass: "every message was stored and echoed as sent",
    untested: "no message was sent",
  }),
  effectCheck({
    id: "stagewise-chat/chat/send-returns-promptly",
    what: "the new message's id",
    match: (l) => !!l && l.startsWith("ok:send"),
    judge(t, e) {
      if (!e.answer) return t.untestable(`${showReq(e.req)}: ${e.missing ?? "no answer"}`);
      if (e.answer.ms > UPDATE_WAIT_MS) return t.failLate(e.answer.ev.t, e.answer.ms - UPDATE_WAIT_MS, `an answer within ${UPDATE_WAIT_MS} ms`, `after ${Math.round(e.answer.ms)} ms`, effectEvidence(e));
      const started = e.deltas.findIndex((d) => d.f.update?.type === "agent-state" && d.f.update.isWorking === true);
      const ended = e.deltas.findIndex((d, i) => i > started && started >= 0 && d.f.update?.type === "agent-state" && d.f.update.isWorking === false);
      if (ended >= 0 && e.deltas[ended]!.f.ev.t < e.answer.ev.t)
        return t.fail("the answer before the turn's end", "the turn ended before sendMessage answered", frameEvidence(e.deltas[ended]!.f.ev));
      t.ok();
    },
    pass: "sendMessage answered promptly",
    untested: "no message was sent",
  }),
  effectCheck({
    id: "stagewise-chat/chat/delete-messages",
    what: "a successful delete",
    match: (l) => isOk(l, "delete-messages"),
    judge(t, e) {
      if (unanswered(t, e, "a successful delete")) return;
      const from = inputField(e, "messageId");
      const d = ofType(e.deltas, "messages-deleted").find((x) => x.f.update.fromMessageId === from);
      if (!d) return t.fail(`messages-deleted from "${String(from)}"`, typesIn(e.deltas), effectEvidence(e));
      const before = d.before ?? e.aBefore;
      const at = before ? messageIndex(before, from) : -1;
      if (!before || at < 0) return t.untestable("A did not hold the chat's messages");
      const want = messageCount(before) - at;
      if (d.f.update.deletedCount !== want) return t.fail(`deletedCount ${want}`, `deletedCount ${d.f.update.deletedCount}`, frameEvidence(d.f.ev));
      t.ok();
    },
    pass: "messages-deleted counted what it removed",
    untested: "deleteMessageAndSubsequent was never sent",
  }),
  effectCheck({
    id: "stagewise-chat/chat/stop",
    what: "a successful stop",
    graceMs: STOP_MS,
    match: (l) => !!l && l.startsWith("ok:stop"),
    judge(t, e) {
      if (unanswered(t, e, "a successful stop")) return;
      if (!e.aBefore?.isWorking) return t.ok();
      const idle = e.deltas.find((d) => d.f.update?.type === "agent-state" && d.f.update.isWorking === false);
      if (!idle) return t.fail(`isWorking:false within ${STOP_MS} ms`, `still working (updates: ${typesIn(e.deltas.slice(-5))})`, effectEvidence(e));
      const ms = idle.f.ev.t - e.answer!.ev.t;
      if (ms > STOP_MS) return t.failLate(idle.f.ev.t, ms - STOP_MS, `isWorking:false within ${STOP_MS} ms`, `after ${Math.round(ms)} ms`, frameEvidence(idle.f.ev));
      t.ok();
    },
    pass: "stop succeeded and ended the turn in time",
    untested: "stop was never sent",
  }),
  serverCheck("stagewise-chat/chat/working-brackets-turn", (t) => {
    let inTurn = false;
    let content = 0;
    return {
      observe: onChatSubs({
        delta: (sub, f, before) => {
          if (!isSubA(sub) || !before || !f.update) return;
          const u = f.update;
          if (u.type === "message-added" && u.message.role === "user") {
            if (!u.message.content.some((p) => p.type === "tool-approval")) inTurn = true;
            return;
          }
          const isContent = (u.type === "message-added" && u.message.role !== "user") || u.type === "message-updated";
          if (isContent && inTurn) {
            if (!before.isWorking)
              t.fail("isWorking:true before the turn's deltas", `${u.type} while isWorking is false at ${where(f.ev, sub.conn)}`, frameEvidence(f.ev));
            content++;
          }
          if (u.type === "agent-state" && !u.isWorking && before.isWorking && inTurn) {
            if (content) t.ok();
            inTurn = false;
            content = 0;
          }
        },
      }),
      finish: () => t.outcome("every turn ran inside isWorking true … false", "no turn ran to its end"),
    };
  }),
  serverCheck("stagewise-chat/chat/stream-incremental", (t) => {
    const replies = new Map<string, { first: FrameEvent; last: FrameEvent; n: number }>();
    let longest = 0;
    const judge = (s: ChatState, endEv: FrameEvent) => {
      for (const [id, r] of replies) {
        const m = messageById(s, id);
        const text = m ? (m.content as { type: string; text?: string }[]).map((p) => (p.type === "text" ? (p.text ?? "") : "")).join("") : "";
        longest = Math.max(longest, text.length);
        if (text.length < STREAM_MIN_CHARS) continue;
        const span = r.last.t - r.first.t;
        if (r.n < 2 || span < STREAM_MIN_MS)
          t.fail(
            `≥2 deltas over ≥${STREAM_MIN_MS} ms`,
            `${r.n} delta(s) over ${Math.round(span)} ms for a ${text.length}-character reply`,
            frameEvidence(r.last),
          );
        else if (r.first.t >= endEv.t) t.fail("the first delta before the turn ends", "all deltas after the turn ended", frameEvidence(r.first));
        else t.ok();
      }
      replies.clear();
    };
    return {
      observe: onChatSubs({
        delta: (sub, f, before) => {
          if (!isSubA(sub) || !f.update) return;
          const u = f.update as ChatUpdate;
          const id =
            u.type === "message-updated" ? u.update.messageId : u.type === "message-added" && u.message.role === "assistant" ? u.message.id : undefined;
          if (id !== undefined) {
            const r = replies.get(id);
            if (r) {
              r.last = f.ev;
              r.n++;
            } else replies.set(id, { first: f.ev, last: f.ev, n: u.type === "message-added" && u.message.content.length === 0 ? 0 : 1 });
            if (u.type === "message-added" && u.message.content.length === 0) replies.get(id)!.first = f.ev;
          }
          if (u.type === "agent-state" && !u.isWorking && before?.isWorking && sub.state) judge(sub.state, f.ev);
        },
      }),
      finish: () => t.outcome("long replies streamed", `no reply reached ${STREAM_MIN_CHARS} characters (longest ${longest})`),
    };
  }),
  serverCheck("stagewise-chat/chat/stream-append", (t) => {
    return {
      observe: onChatSubs({
        delta: (sub, f, before) => {
          if (!isSubA(sub) || !before || f.update?.type !== "message-updated") {
            // A switch's own full sync is no way of streaming (a switch while working is the gate's finding).
            if (isSubA(sub) && f.update?.type === "chat-full-sync" && before?.isWorking && !before.pendingFullSync)
              t.fail("append deltas during a turn", `a chat-full-sync while working at ${where(f.ev, sub.conn)}`, frameEvidence(f.ev));
            return;
          }
          const u = f.update.update;
          if (u.updateType === "append") return t.ok();
          if (u.updateType !== "replace") return;
          const m = messageById(before, u.messageId);
          const old = m?.content[u.partIndex] as { type?: string; text?: string } | undefined;
          const next = u.content as { type?: string; text?: string };
          if (
            old &&
            (old.type === "text" || old.type === "reasoning") &&
            next.type === old.type &&
            typeof next.text === "string" &&
            typeof old.text === "string" &&
            next.text.length > old.text.length &&
            next.text.startsWith(old.text)
          ) {
            t.fail(
              "append of the new text",
              `replace extends ${old.text.length} characters to ${next.text.length} at ${where(f.ev, sub.conn)}`,
              frameEvidence(f.ev),
            );
          }
        },
      }),
      finish: () => t.outcome("growing text was appended", "no text grew"),
    };
  }),
];
