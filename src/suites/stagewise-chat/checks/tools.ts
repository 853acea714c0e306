/** tools/*: approvals, results and their placement (§3 r13, r14). */
import type { CheckDef } from "../../../core/checks/check.js";
import type { ChatMessage, ToolCallPart, ToolResultPart } from "../../../generated/stagewise-chat.js";
import { forEachChangedMessage, messageById, type ChatState } from "../../../stagewise/chat-state.js";
import { firstJsonDifference } from "../../../stagewise/json-diff.js";
import { isOk, rejectionOf, TOPIC } from "../labels.js";
import {
  all,
  effectEvidence,
  errorData,
  frameEvidence,
  inputField,
  inputOf,
  isObject,
  isSubA,
  mutationEffects,
  ofType,
  onChatSubs,
  onMutations,
  serverCheck,
  showReq,
  showResult,
  where,
} from "./support.js";
import { endThen, excerptJson } from "../../../core/checks/check.js";
import { ToolParts, type Located } from "./tool-parts.js";

const STOP_MS = 5_000;

const partsOf = <P>(s: ChatState, type: string): Located<P>[] =>
  s.messages.flatMap((message, i) =>
    (message.content as { type: string }[]).flatMap((part, j) => (part.type === type ? [{ part: part as P, message, at: [i, j] as [number, number] }] : [])),
  );
const before = (a: [number, number], b: [number, number]) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

/** Calls with requiresApproval:true that have neither an approval nor a result (r13). */
export function pendingApprovals(s: ChatState): ToolCallPart[] {
  const settled = new Set(
    [...partsOf<{ toolCallId: string }>(s, "tool-approval"), ...partsOf<{ toolCallId: string }>(s, "tool-result")].map((x) => x.part.toolCallId),
  );
  return partsOf<ToolCallPart>(s, "tool-call")
    .map((x) => x.part)
    .filter((c) => c.requiresApproval === true && !settled.has(c.toolCallId));
}

/** The tool-result parts a delta added to A's state (new ones, by position). */
function newResults(prev: ChatState, next: ChatState): readonly Located<ToolResultPart>[] {
  // Called for every delta: the reducer keeps unchanged messages as the same objects, so only the messages the delta
  // changed are read, and a result is new unless prev's message of the same id held a result at the same place.
  // No list unless a result is new: two checks call this for each text delta of a turn.
  let out: Located<ToolResultPart>[] | undefined;
  forEachChangedMessage(prev, next, (message, i) => {
    const parts = message.content as { type: string }[];
    for (let j = 0; j < parts.length; j++) {
      const part = parts[j]!;
      if (part.type !== "tool-result") continue;
      const was = (messageById(prev, message.id)?.content as { type: string }[] | undefined)?.[j];
      if (was?.type !== "tool-result") (out ??= []).push({ part: part as ToolResultPart, message, at: [i, j] });
    }
  });
  return out ?? NO_RESULTS;
}
const NO_RESULTS: readonly Located<ToolResultPart>[] = Object.freeze([]);

export const TOOL_CHECKS: CheckDef[] = [
  serverCheck("stagewise-chat/tools/approval-recorded", { notApplicableWhen: [TOPIC.approval] }, (t) => {
    const fx = mutationEffects(
      t,
      (req) => isOk(req.label, "approve") || isOk(req.label, "approve-reject"),
      (e) => {
        if (e.answer?.r.kind !== "data")
          return t.fail("a successful approval", `${showReq(e.req)}: ${e.answer ? showResult(e.answer.r) : e.missing}`, effectEvidence(e));
        const id = inputField(e, "toolCallId");
        const added = ofType(e.deltas, "message-added").find(
          (d) => d.f.update.message.role === "user" && d.f.update.message.content.some((p) => p.type === "tool-approval" && p.toolCallId === id),
        );
        if (!added) return t.fail(`a user message with a tool-approval for "${String(id)}"`, "none", effectEvidence(e));
        const m = added.f.update.message as ChatMessage & { metadata?: unknown };
        const part = m.content[0] as { type: string; approved?: unknown; reason?: unknown };
        if (
          m.content.length !== 1 ||
          part.approved !== inputField(e, "approved") ||
          (inputField(e, "reason") !== undefined && part.reason !== inputField(e, "reason"))
        ) {
          return t.fail(
            `one tool-approval part, approved:${String(inputField(e, "approved"))}`,
            excerptJson(m.content, 160),
            frameEvidence(added.f.ev),
          );
        }
        const diff = firstJsonDifference(m.metadata, inputField(e, "metadata"), "/metadata");
        if (diff) return t.fail("the metadata as sent", `${diff.path}: ${JSON.stringify(diff.actual)}`, frameEvidence(added.f.ev));
        t.ok();
      },
    );
    return endThen(fx, () => t.outcome("every approval was recorded", "no approval was sent"));
  }),
  serverCheck("stagewise-chat/tools/reject-not-pending", { notApplicableWhen: [TOPIC.approval] }, (t) => {
    const m = onMutations({
      answer: (req, ev, r) => {
        if (rejectionOf(req.label)?.reason !== "tool-call-not-pending") return;
        if (r.kind === "error" && errorData(r)?.reason === "tool-call-not-pending") t.ok();
        else if (r.kind === "error" && errorData(r)?.reason === undefined) t.knockOn("stagewise-chat/chat/reject-error-shape", showReq(req));
        else t.fail("error CONFLICT reason tool-call-not-pending", `${showReq(req)} answered ${showResult(r)}`, frameEvidence(ev));
      },
    });
    return { observe: m.observe, finish: () => t.outcome("calls not pending were refused", "no repeated approval or unawaited result was sent") };
  }),
  serverCheck("stagewise-chat/tools/result-linked", { notApplicableWhen: [TOPIC.approval] }, (t) => {
    const tools = new ToolParts();
    return {
      observe: onChatSubs({
        delta: (sub, f, prev) => {
          if (!isSubA(sub) || !prev || !sub.state || sub.state === prev) return;
          const next = sub.state;
          for (const r of newResults(prev, next)) {
            const id = r.part.toolCallId;
            const call = tools.find<ToolCallPart>(next, "tool-call", id)[0];
            const w = `at ${where(f.ev, sub.conn)}`;
            if (!call || !before(call.at, r.at)) {
              t.fail(`a tool-call "${id}" before its result`, `${call ? "the call comes after it" : "no such call"} ${w}`, frameEvidence(f.ev));
              continue;
            }
            const count = tools.find<ToolResultPart>(next, "tool-result", id).length;
            if (count > 1) t.fail("one result per call", `${count} results for "${id}" ${w}`, frameEvidence(f.ev));
            else if (r.part.toolName !== call.part.toolName)
              t.fail(`toolName "${call.part.toolName}"`, `toolName "${r.part.toolName}" ${w}`, frameEvidence(f.ev));
            else if (!["backend", "cli", "toolbar"].includes(call.part.runtime))
              t.knockOn("stagewise-chat/chat/update-shape", `the runtime ${JSON.stringify(call.part.runtime)} of "${id}"`);
            else {
              const want = call.part.runtime === "backend" ? "assistant" : "tool";
              if (r.message.role !== want)
                t.fail(`a ${call.part.runtime} result in a ${want} message`, `in a ${r.message.role} message ${w}`, frameEvidence(f.ev));
              else t.ok();
            }
          }
        },
      }),
      finish: () => t.outcome("every result followed its call, in the right place", "no tool result came"),
    };
  }),
  serverCheck("stagewise-chat/tools/approval-respected", { notApplicableWhen: [TOPIC.approval] }, (t) => {
    /** Approvals the kit sent, by tool call: a result after one the agent did not record is approval-recorded's finding. */
    const approvedByKit = new Map<string, boolean>();
    const tools = new ToolParts();
    const sent = onMutations({
      request: (req) => {
        const input = inputOf(req);
        if (req.type.endsWith("approveToolCall") && isObject(input) && typeof input.toolCallId === "string")
          approvedByKit.set(input.toolCallId, input.approved === true);
      },
    });
    return {
      observe: all(
        sent.observe,
        onChatSubs({
          delta: (sub, f, prev) => {
            if (!isSubA(sub) || !prev || !sub.state || sub.state === prev) return;
            const next = sub.state;
            for (const r of newResults(prev, next)) {
              const call = tools.find<ToolCallPart>(next, "tool-call", r.part.toolCallId)[0];
              if (!call?.part.requiresApproval) continue;
              // Recorded by now, wherever it sits (a backend result lands in the call's message, before the approval's).
              const approval = tools.find<{ toolCallId: string; approved: boolean }>(next, "tool-approval", r.part.toolCallId)[0];
              if (r.part.isError === true) {
                t.ok();
                continue;
              }
              if (!approval && approvedByKit.get(r.part.toolCallId) === true)
                t.knockOn("stagewise-chat/tools/approval-recorded", `the approval of "${r.part.toolCallId}"`);
              else if (!approval)
                t.fail(
                  "an approval before a successful result",
                  `a result for "${r.part.toolCallId}" without approval at ${where(f.ev, sub.conn)}`,
                  frameEvidence(f.ev),
                );
              else if (!approval.part.approved)
                t.fail(
                  "no successful result after a refusal",
                  `a successful result for the refused "${r.part.toolCallId}" at ${where(f.ev, sub.conn)}`,
                  frameEvidence(f.ev),
                );
              else t.ok();
            }
          },
        }),
      ),
      finish: () => t.outcome("results respected the approvals", "no result for a call that needed approval came"),
    };
  }),
  serverCheck("stagewise-chat/tools/toolbar-result-recorded", { notApplicableWhen: [TOPIC.toolbarTool, TOPIC.approval] }, (t) => {
    const fx = mutationEffects(
      t,
      (req) => isOk(req.label, "report"),
      (e) => {
        if (e.answer?.r.kind !== "data")
          return t.fail("a successful report", `${showReq(e.req)}: ${e.answer ? showResult(e.answer.r) : e.missing}`, effectEvidence(e));
        const id = inputField(e, "toolCallId");
        const added = ofType(e.deltas, "message-added").find(
          (d) => d.f.update.message.role === "tool" && d.f.update.message.content.some((p) => p.type === "tool-result" && p.toolCallId === id),
        );
        if (!added) return t.fail(`a tool message with the result of "${String(id)}"`, "none", effectEvidence(e));
        const part = (added.f.update.message.content as ToolResultPart[]).find((p) => p.toolCallId === id)!;
        const call = e.aBefore ? partsOf<ToolCallPart>(e.aBefore, "tool-call").find((c) => c.part.toolCallId === id) : undefined;
        if (call && part.toolName !== call.part.toolName)
          return t.fail(`toolName "${call.part.toolName}"`, `toolName "${part.toolName}"`, frameEvidence(added.f.ev));
        const diff = firstJsonDifference(part.output, inputField(e, "output"), "/output");
        if (diff) return t.fail("the output as reported", `${diff.path}: ${JSON.stringify(diff.actual)}`, frameEvidence(added.f.ev));
        t.ok();
      },
    );
    return endThen(fx, () => t.outcome("toolbar results were recorded", "no toolbar result was reported"));
  }),
  serverCheck("stagewise-chat/tools/stop-closes-pending", { notApplicableWhen: [TOPIC.approval] }, (t) => {
    const fx = mutationEffects(
      t,
      (req) => isOk(req.label, "stop-pending"),
      (e) => {
        const open = e.aBefore ? pendingApprovals(e.aBefore) : [];
        if (!open.length) return t.untestable("no approval was pending when stop was sent");
        if (!e.aAfter) return t.untestable("A's state was not known after the stop");
        const still = pendingApprovals(e.aAfter).filter((c) => open.some((o) => o.toolCallId === c.toolCallId));
        if (still.length) t.fail("no pending approval after stop", `"${still[0]!.toolCallId}" still pending ${STOP_MS} ms after stop`, effectEvidence(e));
        else t.ok();
      },
      { graceMs: STOP_MS },
    );
    return endThen(fx, () => t.outcome("stop closed the open approvals", "stop was never sent while an approval was pending"));
  }),
];
