/** chat/reject-*, chat/no-toolcalling, security/no-stack-leak: typed rejections without side effects (§1, §3 r11, r12). */
import type { CheckDef } from "../../../core/checks/check.js";
import { isToolCallingLabel, rejectionOf, TOPIC, type Topic } from "../labels.js";
import {
  effectEvidence,
  errorData,
  inputField,
  frameEvidence,
  mutationEffects,
  onMutations,
  REASONS,
  REJECT_ERROR_SHAPE,
  rpc,
  resultOf,
  serverCheck,
  showReq,
  showResult,
  Tally,
  where,
  type ADelta,
  type Effect,
  type RpcRequest,
} from "./support.js";
import type { ChatUpdate } from "../../../generated/stagewise-chat.js";
import { endThen } from "../../../core/checks/check.js";
import { ownEntry } from "../../../core/checks/check-helpers.js";
import { listFirst } from "../../../core/list-text.js";

const QUIET_MS = 300;

/** Updates a gated mutation would have caused (what must not appear after its rejection mid-turn). */
const EFFECT_TYPES: Record<string, string[]> = {
  create: ["chat-created"],
  switch: ["chat-switched", "chat-full-sync"],
  delete: ["chat-deleted"],
  "delete-messages": ["messages-deleted"],
};

/** The update by which a gated call, carried out, shows in A's log (matched to the call by its ids). */
const CARRIED_OUT: Record<string, (u: ChatUpdate, e: Effect) => boolean> = {
  // Only the chat whose id createChat returned: no id, no way to tell its chat from another.
  create: (u, e) => u.type === "chat-created" && e.answer?.r.kind === "data" && u.chat.id === e.answer.r.value,
  switch: (u, e) => u.type === "chat-switched" && u.chatId === inputField(e, "chatId"),
  delete: (u, e) => u.type === "chat-deleted" && u.chatId === inputField(e, "chatId"),
  "delete-messages": (u, e) => u.type === "messages-deleted" && u.fromMessageId === inputField(e, "messageId"),
};

/**
 * Whether the agent still worked when a gated call reached it, read from the agent's own log (A's deltas in the
 * order the agent numbered them), never from the order in which its answer and A's updates arrived: an agent may
 * answer a call before its broadcast of the turn's end goes out, and A may hear of that end only after the kit sent
 * the call. A saw the agent working before the call was sent; only the call's own update, made while the log still
 * says working and with no turn end before it, shows the agent worked from before the call until after it arrived.
 */
function stillWorking(e: Effect, what: string): { proof: ADelta } | { unknown: string } {
  const mine = CARRIED_OUT[what];
  for (const d of e.deltas) {
    if (!d.before || !d.after) return { unknown: `A's reduction broke at ${where(d.f.ev)}` };
    const u = d.f.update;
    if (u && mine?.(u, e)) return { proof: d };
    if (!d.after.isWorking)
      return { unknown: `the turn ended (agent-state isWorking:false at ${where(d.f.ev)}) before anything showed when the agent handled ${showReq(e.req)}: it may have reached the agent after the turn` };
  }
  return { unknown: `nothing in A's log orders ${showReq(e.req)} against the turn's end, so it may have reached the agent after the turn` };
}

/** A check over the rejections the probes asked for: `want` says which labels, `judge` each answer. */
function rejectionCheck(spec: {
  id: string;
  want: (reason: string) => boolean;
  judge: (t: Tally, req: RpcRequest, reason: string, r: ReturnType<typeof resultOf>) => void;
  pass: string;
  untested: string;
  notApplicableWhen?: Topic[];
}): CheckDef {
  return serverCheck(spec.id, spec.notApplicableWhen ? { notApplicableWhen: spec.notApplicableWhen } : {}, (t) => {
    const m = onMutations({
      answer: (req, _ev, r) => {
        const want = rejectionOf(req.label);
        if (want && spec.want(want.reason)) spec.judge(t, req, want.reason, r);
      },
      missing: (req, why) => {
        const want = rejectionOf(req.label);
        if (want && spec.want(want.reason)) t.untestable(`${showReq(req)}: ${why}`);
      },
    });
    return endThen(m, () => t.outcome(spec.pass, spec.untested));
  });
}

/** The rejection with `reason` (and its code), or why the answer is not it. */
function expectReason(t: Tally, req: RpcRequest, reason: string, r: ReturnType<typeof resultOf>): void {
  const d = errorData(r);
  if (r.kind === "error" && d?.reason === reason) return t.ok();
  // A rejection without any reason is chat/reject-error-shape's finding.
  if (r.kind === "error" && d?.reason === undefined) return t.knockOn(REJECT_ERROR_SHAPE, showReq(req));
  t.fail(`error ${ownEntry(REASONS, reason)?.code ?? "?"} reason ${reason}`, `${showReq(req)} answered ${showResult(r)}`, frameEvidence(req.answers[0] ?? req.frame));
}

export const REJECT_CHECKS: CheckDef[] = [
  serverCheck("stagewise-chat/chat/reject-error-shape", (t) => {
    const m = onMutations({
      answer: (req, ev, r) => {
        if (!rejectionOf(req.label) || r.kind !== "error") return;
        const d = errorData(r);
        const reason = d?.reason;
        // Invalid input that got past validation and failed elsewhere is chat/reject-invalid-input's finding.
        if (rejectionOf(req.label)!.reason === "invalid-input" && d?.code !== "BAD_REQUEST" && reason !== undefined)
          return t.knockOn("stagewise-chat/chat/reject-invalid-input", showReq(req));
        const row = typeof reason === "string" ? ownEntry(REASONS, reason) : undefined;
        if (!row) return t.fail("data.reason from the §1 table", `${showReq(req)}: ${showResult(r)}`, frameEvidence(ev));
        if (d?.code !== row.code || d?.httpStatus !== row.http || r.error?.code !== row.json) {
          return t.fail(
            `${row.code}, ${row.json}, ${row.http} for ${String(reason)}`,
            `${String(d?.code)}, ${String(r.error?.code)}, ${String(d?.httpStatus)} for ${showReq(req)}`,
            frameEvidence(ev),
          );
        }
        t.ok();
      },
    });
    return { observe: m.observe, finish: () => t.outcome("every rejection had its code, status and reason", "no rejection came") };
  }),
  rejectionCheck({
    id: "stagewise-chat/chat/reject-unknown-ids",
    want: (reason) => reason.endsWith("-not-found"),
    judge: expectReason,
    pass: "unknown ids were rejected with their reason",
    untested: "no unknown id was sent",
  }),
  rejectionCheck({
    id: "stagewise-chat/chat/reject-not-active",
    want: (reason) => reason === "chat-not-active",
    notApplicableWhen: [TOPIC.createRefused, TOPIC.switchRefused],
    judge: expectReason,
    pass: "a message to a non-active chat was rejected chat-not-active",
    untested: "no second chat to send to (createChat did not make one)",
  }),
  serverCheck("stagewise-chat/chat/reject-while-working", (t) => {
    const fx = mutationEffects(
      t,
      (req) => rejectionOf(req.label)?.reason === "agent-working",
      (e: Effect) => {
        if (!e.answer) return t.untestable(`${showReq(e.req)}: ${e.missing ?? "no answer"}`);
        if (!e.aBefore?.isWorking) return t.untestable(`the turn had ended when ${showReq(e.req)} was sent`);
        const r = e.answer.r;
        // The agent's own word that it worked: the rule held, whenever the call arrived.
        if (r.kind === "error" && errorData(r)?.reason === "agent-working") return t.ok();
        if (r.kind === "error" && errorData(r)?.reason === undefined) return t.knockOn(REJECT_ERROR_SHAPE, showReq(e.req));
        // Any other answer is a failure only if the agent was still working when the call reached it.
        const s = stillWorking(e, rejectionOf(e.req.label)!.what);
        if ("unknown" in s) return t.untestable(s.unknown);
        t.fail(
          "error CONFLICT reason agent-working",
          `${showReq(e.req)} answered ${showResult(r)}, and the agent carried it out mid-turn (${s.proof.f.update?.type} at ${where(s.proof.f.ev)}, before the turn's end)`,
          frameEvidence(e.answer.ev, { note: `carried out at ${where(s.proof.f.ev)} while the agent's state said isWorking:true` }),
        );
      },
      // The call's update may follow its answer (r2), and so the next gated call.
      { pastNext: true },
    );
    return endThen(fx, () => t.outcome("gated calls were rejected while working", "no gated call was sent while the agent worked"));
  }),
  rejectionCheck({
    id: "stagewise-chat/chat/reject-invalid-input",
    want: (reason) => reason === "invalid-input",
    judge(t, req, _reason, r) {
      const d = errorData(r);
      if (r.kind === "error" && d?.code === "BAD_REQUEST") return t.ok();
      // Refused as an internal error without a reason: chat/reject-error-shape's finding.
      if (r.kind === "error" && d?.reason === undefined && d?.code === "INTERNAL_SERVER_ERROR") return t.knockOn(REJECT_ERROR_SHAPE, showReq(req));
      t.fail("error BAD_REQUEST", `${showReq(req)} answered ${showResult(r)}`, frameEvidence(req.answers[0] ?? req.frame));
    },
    pass: "invalid inputs were rejected BAD_REQUEST",
    untested: "no invalid input was sent",
  }),
  serverCheck("stagewise-chat/chat/reject-no-side-effects", (t) => {
    const fx = mutationEffects(
      t,
      (req) => !!rejectionOf(req.label),
      (e: Effect) => {
        if (!e.answer || e.answer.r.kind !== "error") return;
        const what = rejectionOf(e.req.label)!.what;
        const windowEnd = e.answer.ev.t + QUIET_MS;
        const inWindow = e.deltas.filter((d) => d.f.ev.t <= windowEnd);
        const bad = e.aBefore?.isWorking ? inWindow.filter((d) => (EFFECT_TYPES[what] ?? []).includes(d.f.update?.type ?? "")) : inWindow;
        if (bad.length)
          return t.fail(
            `no update after the rejected ${showReq(e.req)}`,
            `${listFirst(bad, (d) => String(d.f.update?.type ?? ""))} at ${where(bad[0]!.f.ev)}`,
            frameEvidence(bad[0]!.f.ev),
          );
        const closed = e.req.conn.closed;
        if (closed && closed.by === "server" && closed.t <= windowEnd)
          return t.fail("the socket stays open", `the server closed it after ${showReq(e.req)}`, effectEvidence(e));
        t.ok();
      },
      { graceMs: QUIET_MS },
    );
    return endThen(fx, () => t.outcome("no rejection had a side effect", "no mutation was rejected"));
  }),
  serverCheck("stagewise-chat/chat/no-toolcalling", (t) => {
    const m = onMutations({
      answer: (req, ev, r) => {
        if (!isToolCallingLabel(req.label)) return;
        if (r.kind === "error" && errorData(r)?.code === "NOT_FOUND") t.ok();
        // Refused, but not as NOT_FOUND: how unknown paths are answered is trpc/unknown-procedure's rule.
        else if (r.kind === "error") t.knockOn("stagewise-chat/trpc/unknown-procedure", `${showReq(req)} (${showResult(r)})`);
        else t.fail("error NOT_FOUND", `${showReq(req)} answered ${showResult(r)}`, frameEvidence(ev));
      },
      missing: (req, why, byKit) => {
        if (!isToolCallingLabel(req.label)) return;
        if (byKit) t.untestable(`${showReq(req)}: ${why}`);
        else t.fail("error NOT_FOUND", `${showReq(req)}: ${why}`, frameEvidence(req.frame));
      },
    });
    return endThen(m, () => t.outcome("toolCalling answered NOT_FOUND", "toolCalling was never called"));
  }),
  serverCheck("stagewise-chat/security/no-stack-leak", (t) => {
    const r = rpc({
      response: (ev, value, _req, _how, c) => {
        const res = resultOf(value);
        if (res.kind !== "error") return;
        const stack = errorData(res)?.stack;
        if (stack !== undefined) t.fail("no data.stack", `data.stack (${String(stack).slice(0, 60)}…) at ${where(ev, c)}`, frameEvidence(ev));
        else t.ok();
      },
    });
    return { observe: r.observe, finish: () => t.outcome("no error carried a stack", "no error came") };
  }),
];
