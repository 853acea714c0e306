/** chat/snapshot-*, chat/seq-*, chat/update-*: the sync model of `chat.getChatUpdates` (§3 r5–r8). */
import type { CheckContext, CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { listFirst } from "../../../core/list-text.js";
import { parseEventId, sequenceVerdict, type ChatState } from "../../../stagewise/chat-state.js";
import { firstJsonDifference } from "../../../stagewise/json-diff.js";
import { describeViolation } from "../../../stagewise/reduced.js";
import { compareChatStates } from "../../../stagewise/snapshot-compare.js";
import { isResume, rejectionOf } from "../labels.js";
import {
  all,
  onMutations,
  showReq,
  type RpcRequest,
  frameEvidence,
  inBatches,
  isObject,
  isSubA,
  onChatSubs,
  SEQ_SNAPSHOT_HEAD,
  serverCheck,
  showSub,
  SNAPSHOT_ORDER,
  snapshotKnockOn,
  where,
  type ChatFrame,
  type ChatSub,
  type FrameEvent,
} from "./support.js";

const UPDATE_APPLICABLE = "stagewise-chat/chat/update-applicable";
/** r2: what a mutation causes may follow its answer by up to 2 s. */
const INVALID_EFFECT_MS = 2_000;

/** A snapshot's frames by type: the first few, then how many more. */
const typesOf = (frames: ChatFrame[]) => listFirst(frames, (f) => String(f.update?.type ?? "?"));

/** The ChatUpdate types, each the `const` of one branch of the union, named `$defs/<camelCase>`. */
export const UPDATE_TYPES = ["chat-list", "chat-created", "chat-deleted", "chat-switched", "chat-title-updated", "message-added", "message-updated", "messages-deleted", "chat-full-sync", "agent-state"] as const;
const UPDATE_BRANCH = new Map<string, string>(UPDATE_TYPES.map((t) => [t, `chat-update#/$defs/${t.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase())}`]));

/**
 * Whether an update holds ChatUpdate, judged against the one branch of the union its `type` names: the branches'
 * `type` consts differ, so the union holds exactly when that branch does, and the whole oneOf makes ajv try (and
 * build errors for) all ten on every delta. Only a pass is taken from here: anything else is validated whole, which
 * gives the finding.
 */
export function updateHolds(validate: CheckContext["validate"], update: unknown): boolean {
  const branch = typeof update === "object" && update !== null && !Array.isArray(update) ? UPDATE_BRANCH.get((update as { type?: unknown }).type as string) : undefined;
  return branch !== undefined && validate(branch, update).ok;
}

export const CHAT_SYNC_CHECKS: CheckDef[] = [
  serverCheck("stagewise-chat/chat/snapshot-order", (t) => {
    return {
      observe: onChatSubs({
        snapshot: (sub, frames) => {
          if (!frames.length) return;
          const types = frames.map((f) => f.update?.type);
          const list = frames[0]?.update;
          const actives = list?.type === "chat-list" && Array.isArray(list.chats) ? list.chats.filter((c) => isObject(c) && c.isActive === true) : [];
          // Two active chats are chat/snapshot-coherent's finding; the order is judged as if one were.
          const active = actives[0];
          const want = ["chat-list", ...(active ? ["chat-full-sync"] : []), "agent-state"];
          const last = frames[frames.length - 1]!.ev;
          if (types.join() !== want.join()) return t.fail(want.join(", "), `${typesOf(frames)} on ${showSub(sub)}`, frameEvidence(last));
          if (active && actives.length === 1 && isObject(frames[1]?.update) && (frames[1]!.update as { chat?: { id?: unknown } }).chat?.id !== active.id) {
            return t.fail(
              `the full sync of the active chat "${String(active.id)}"`,
              `the full sync of "${String((frames[1]!.update as { chat?: { id?: unknown } }).chat?.id)}"`,
              frameEvidence(frames[1]!.ev),
            );
          }
          t.ok();
        },
      }),
      finish: () => t.outcome("every snapshot came in order", "no chat subscription got a snapshot"),
    };
  }),
  serverCheck("stagewise-chat/chat/snapshot-every-subscribe", (t) => {
    const waiting = new Set<ChatSub>();
    const miss = (sub: ChatSub, ev: FrameEvent | undefined, what: string) => {
      waiting.delete(sub);
      t.fail(
        `a snapshot (chat-list first) for ${showSub(sub)}${sub.lastEventId !== undefined ? ` with lastEventId ${JSON.stringify(sub.lastEventId)}` : ""}`,
        what,
        frameEvidence(ev ?? sub.request),
      );
    };
    return {
      observe: onChatSubs({
        subscribe: (sub) => waiting.add(sub),
        snapshot: (sub, frames) => {
          if (!waiting.has(sub)) return;
          if (frames[0]?.update?.type !== "chat-list")
            return miss(sub, frames[0]?.ev, frames.length ? `the snapshot starts with ${typesOf(frames)}` : "no snapshot: the first frame is a delta");
          waiting.delete(sub);
          t.ok();
        },
        delta: (sub, f) => waiting.has(sub) && miss(sub, f.ev, `a ${f.update?.type ?? "?"} delta came first`),
        end: (sub, ev, how) => {
          if (!waiting.has(sub)) return;
          // The kit cut the connection (its size or flood cap): what the agent sent was not read, nor judged.
          if (ev.kind === "ws-close" && ev.by === "kit") {
            waiting.delete(sub);
            return t.untestable(`the kit closed the connection before a snapshot of ${showSub(sub)} was read${ev.cause ? ` (${ev.cause})` : ""}`);
          }
          miss(
            sub,
            ev.kind === "ws-frame" ? ev : undefined,
            how === "closed" ? "the connection closed before a snapshot" : `the server ended the subscription (${how}) before a snapshot`,
          );
        },
      }),
      finish: () => {
        for (const sub of [...waiting]) miss(sub, undefined, "no snapshot while the kit waited");
        return t.outcome("every subscription got a snapshot", "no chat subscription was made");
      },
    };
  }),
  serverCheck("stagewise-chat/chat/snapshot-coherent", (t) => {
    return {
      observe: onChatSubs({
        snapshot: (sub, frames) => {
          const list = frames.find((f) => f.update?.type === "chat-list");
          if (!list || list.update?.type !== "chat-list" || !Array.isArray(list.update.chats)) return;
          const active = list.update.chats.filter((c) => isObject(c) && c.isActive === true);
          if (active.length > 1)
            return t.fail(
              "at most one active chat",
              `${active.length} active chats (${listFirst(active, (c) => String(c.id))}) on ${showSub(sub)}`,
              frameEvidence(list.ev),
            );
          const full = frames.find((f) => f.update?.type === "chat-full-sync");
          if (full?.update?.type === "chat-full-sync" && active[0]) {
            const chat = full.update.chat;
            const item = active[0];
            if (chat.id !== item.id) return t.fail(`the full sync of "${item.id}"`, `the full sync of "${String(chat.id)}"`, frameEvidence(full.ev));
            if (chat.title !== item.title)
              return t.fail(`title ${JSON.stringify(item.title)} as listed`, `title ${JSON.stringify(chat.title)}`, frameEvidence(full.ev));
            if (Array.isArray(chat.messages) && chat.messages.length !== item.messageCount) {
              return t.fail(`${item.messageCount} messages as listed`, `${chat.messages.length} messages in the full sync`, frameEvidence(full.ev));
            }
          }
          t.ok();
        },
      }),
      finish: () => t.outcome("every snapshot was coherent", "no snapshot came"),
    };
  }),
  serverCheck("stagewise-chat/chat/seq-tracked", (t) => {
    const judge = (sub: ChatSub, f: ChatFrame) => {
      if (typeof f.eventId !== "string" || parseEventId(f.eventId) === null) {
        return t.fail('result.id a decimal string ("0", "42")', `result.id ${JSON.stringify(f.eventId)} at ${where(f.ev, sub.conn)}`, frameEvidence(f.ev));
      }
      if (f.innerId !== f.eventId)
        return t.fail(
          `data.id ${JSON.stringify(f.eventId)} (= result.id)`,
          `data.id ${JSON.stringify(f.innerId)} at ${where(f.ev, sub.conn)}`,
          frameEvidence(f.ev),
        );
      t.ok();
    };
    return {
      observe: onChatSubs({ snapshot: (sub, frames) => frames.forEach((f) => judge(sub, f)), delta: judge }),
      finish: () => t.outcome("every chat frame carried its event id", "no chat frame came"),
    };
  }),
  serverCheck("stagewise-chat/chat/seq-snapshot-head", (t) => {
    const head = new Map<ChatSub, number>();
    /** The highest seq the agent sent on any subscription: a lastEventId up to it is one the agent issued. */
    let highest = -1;
    return {
      observe: onChatSubs({
        snapshot: (sub, frames) => {
          const ids = frames.map((f) => f.seq);
          const s = ids[0];
          if (s === null || s === undefined) return;
          const other = frames.find((f) => f.seq !== s);
          if (other)
            return t.fail(
              `every snapshot frame with id ${s}`,
              `${typesOf(frames)} with ids ${listFirst(frames, (f) => String(JSON.stringify(f.eventId)))} on ${showSub(sub)}`,
              frameEvidence(other.ev),
            );
          const last = parseEventId(sub.lastEventId);
          if (isResume(sub.label) && last !== null && last <= highest && s < last) {
            return t.fail(`S ≥ lastEventId ${last}`, `snapshot at ${s} on ${showSub(sub)} (the agent had sent ${highest})`, frameEvidence(frames[0]!.ev));
          }
          highest = Math.max(highest, s);
          head.set(sub, s);
          t.ok();
        },
        delta: (sub, f) => {
          if (f.seq !== null) highest = Math.max(highest, f.seq);
          const s = head.get(sub);
          if (s === undefined) return;
          head.delete(sub);
          if (!sub.snapshotComplete) return void t.knockOn(SNAPSHOT_ORDER, where(f.ev, sub.conn));
          if (f.seq !== s + 1)
            t.fail(`the first delta after a snapshot at ${s} with id ${s + 1}`, `id ${JSON.stringify(f.eventId)} on ${showSub(sub)}`, frameEvidence(f.ev));
          else t.ok();
        },
      }),
      finish: () => t.outcome("snapshots carried the head, the next frame came at S+1", "no snapshot came"),
    };
  }),
  serverCheck("stagewise-chat/chat/seq-gap-free", (t) => {
    const last = new Map<ChatSub, number>();
    return {
      observe: onChatSubs({
        snapshot: (sub, frames) => {
          const s = frames[0]?.seq;
          if (s !== null && s !== undefined) last.set(sub, s);
        },
        delta: (sub, f) => {
          const prev = last.get(sub);
          if (f.seq === null) return last.delete(sub);
          last.set(sub, f.seq);
          if (prev === undefined) return;
          // The first delta after a broken snapshot is that snapshot's finding.
          if (sub.applied <= sub.snapshot.length + 1 && snapshotKnockOn(t, sub, f)) return;
          const v = sequenceVerdict(prev, f.seq);
          if (v === "next") t.ok();
          else t.fail(`id ${prev + 1} after ${prev}`, `id ${f.seq} (${v}) on ${showSub(sub)} at ${where(f.ev, sub.conn)}`, frameEvidence(f.ev));
        },
        end: (sub) => last.delete(sub),
      }),
      finish: () => t.outcome("every delta followed its predecessor by one", "no delta came"),
    };
  }),
  serverCheck("stagewise-chat/chat/seq-global", (t) => {
    return {
      observe: onChatSubs({
        delta: (sub, f) => {
          const first = f.earlier;
          if (!first || first.sub === sub || !f.update) return;
          const d = firstJsonDifference(f.update, first.update);
          if (d)
            t.fail(
              `id ${f.seq} with the update ${showSub(first.sub)} got`,
              `another update on ${showSub(sub)}: ${d.path || "/"} ${JSON.stringify(d.actual)} vs ${JSON.stringify(d.expected)}`,
              frameEvidence(f.ev),
            );
          else t.ok();
        },
      }),
      finish: () => t.outcome("every id carried one update on every subscription", "no delta id was seen on two subscriptions"),
    };
  }),
  serverCheck("stagewise-chat/chat/update-shape", (t, ctx) => {
    /**
     * Invalid inputs the server accepted: from their send to 2 s after their answer (r2), the deltas they caused.
     * What they left in the chats (a title too long) shows in every later snapshot, however late.
     */
    const accepted: { req: RpcRequest; from: number; to: number }[] = [];
    /** Bad updates, judged at the end: one an accepted invalid input caused is chat/reject-invalid-input's finding. */
    const bad: { f: ChatFrame; sub: ChatSub; errors: string; inSnapshot: boolean }[] = [];
    const judge = inBatches((sub: ChatSub, f: ChatFrame, inSnapshot: boolean) => {
      if (updateHolds(ctx.validate, f.update)) {
        t.ok();
        return;
      }
      const v = ctx.validate("chat-update", f.update ?? null);
      if (v.ok) t.ok();
      else bad.push({ f, sub, errors: formatSchemaErrors(v.errors), inSnapshot });
    });
    const m = onMutations({
      answer: (req, ev, r) => {
        if (rejectionOf(req.label)?.reason === "invalid-input" && r.kind === "data") accepted.push({ req, from: req.frame.t, to: ev.t + INVALID_EFFECT_MS });
      },
    });
    return {
      observe: all(m.observe, onChatSubs({ snapshot: (sub, frames) => frames.forEach((f) => judge.add(sub, f, true)), delta: (sub, f) => judge.add(sub, f, false) })),
      finish: () => {
        judge.flush();
        m.end();
        for (const { f, sub, errors, inSnapshot } of bad) {
          const cause = accepted.find((a) => f.ev.t >= a.from && (inSnapshot || f.ev.t <= a.to));
          if (cause) t.knockOn("stagewise-chat/chat/reject-invalid-input", showReq(cause.req));
          else t.fail("a ChatUpdate", `${errors} at ${where(f.ev, sub.conn)}`, frameEvidence(f.ev));
        }
        return t.outcome("every update matched ChatUpdate", "no chat update came");
      },
    };
  }),
  serverCheck("stagewise-chat/chat/update-applicable", (t) => {
    return {
      observe: onChatSubs({
        delta: (sub, f, _before, reduced) => {
          if (!reduced) return;
          // A subscription whose snapshot left out part of the state refuses every later delta that touches that part:
          // all of them are the snapshot's finding, however many came (more come on a slower run).
          if (!reduced.ok && (sub.applied <= sub.snapshot.length + 1 || !sub.snapshotComplete) && snapshotKnockOn(t, sub, f)) return;
          if (reduced.ok) t.ok();
          else
            t.fail(
              "an update the reducer applies",
              `${describeViolation(reduced.violation)} (id ${JSON.stringify(f.eventId)} on ${showSub(sub)})`,
              frameEvidence(f.ev),
            );
        },
      }),
      finish: () => t.outcome("every delta applied", "no delta came"),
    };
  }),
  serverCheck("stagewise-chat/chat/snapshot-equals-reduced", (t) => {
    let a: ChatSub | undefined;
    /** Fresh snapshots ahead of A, compared when A reaches their S. */
    const ahead: { s: number; fresh: ChatState; sub: ChatSub; ev: FrameEvent }[] = [];
    /** Where two subscriptions first got different updates under one id (chat/seq-global's finding). */
    let idsDiffer: string | undefined;
    /** Differences between A and a fresh snapshot: judged at the end, once the ids are known. */
    const misnumbered: { s: number; sub: ChatSub; ev: FrameEvent; message: string }[] = [];
    const fail = (x: { s: number; sub: ChatSub; ev: FrameEvent; message: string }) =>
      t.fail(`A's state at ${x.s} equal to ${showSub(x.sub)}'s snapshot`, x.message, frameEvidence(x.ev, { note: `snapshot at ${x.s}` }));
    const compare = (reduced: ChatState, fresh: ChatState, s: number, sub: ChatSub, ev: FrameEvent) => {
      const d = compareChatStates(reduced, fresh);
      if (!d) return t.ok();
      // Judged at the end, once it is known whether the ids name the same point on every subscription: where they do
      // not (chat/seq-global's finding), A at S and a snapshot at S are different moments, and their difference says
      // nothing of the reducer. Kept few: one per fresh snapshot.
      if (misnumbered.length < 64) misnumbered.push({ s, sub, ev, message: d.message });
    };
    const brokenA = (): boolean => {
      if (a && a.state === null && a.broken) {
        t.knockOn(UPDATE_APPLICABLE, where(a.broken.ev, a.conn));
        return true;
      }
      return false;
    };
    return {
      observe: onChatSubs({
        snapshot: (sub, frames) => {
          if (isSubA(sub)) {
            a = sub;
            ahead.length = 0;
            return;
          }
          const s = frames[0]?.seq;
          if (!a || s === null || s === undefined || !sub.snapshotState) return;
          if (brokenA()) return;
          if (!sub.snapshotIdsUniform) return void t.knockOn(SEQ_SNAPSHOT_HEAD, where(frames[0]!.ev, sub.conn));
          const at = a.history.get(s);
          if (at) return compare(at, sub.snapshotState, s, sub, frames[frames.length - 1]!.ev);
          if (a.lastSeq !== null && s > a.lastSeq) ahead.push({ s, fresh: sub.snapshotState, sub, ev: frames[frames.length - 1]!.ev });
          else t.untestable(`A's state at ${s} is no longer kept`);
        },
        delta: (sub, f) => {
          const first = f.earlier;
          if (first && idsDiffer === undefined && first.sub !== sub && f.update && firstJsonDifference(f.update, first.update)) idsDiffer = where(f.ev, sub.conn);
          if (sub !== a || f.seq === null) return;
          for (let i = ahead.length - 1; i >= 0; i--) {
            const x = ahead[i]!;
            if (x.s > f.seq) continue;
            ahead.splice(i, 1);
            if (brokenA()) continue;
            if (x.s === f.seq && a.state) compare(a.state, x.fresh, x.s, x.sub, x.ev);
            else t.untestable(`A skipped ${x.s}`);
          }
        },
      }),
      finish: () => {
        for (const x of ahead) t.untestable(`A never reached ${x.s} (a fresh snapshot's head)`);
        for (const x of misnumbered) {
          if (idsDiffer !== undefined) t.knockOn("stagewise-chat/chat/seq-global", idsDiffer);
          else fail(x);
        }
        return t.outcome("A's reduced state equalled every fresh snapshot", "no fresh snapshot was taken while A was followed");
      },
    };
  }),
];
