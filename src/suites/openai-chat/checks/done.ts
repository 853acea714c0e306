/** The end of a stream: `data: [DONE]`, nothing after it, then the end of the body. */
import { at, excerpt, type CheckDef } from "../../../core/checks/check.js";
import { readParams } from "../params.js";
import { NOT_RESET, onStreams, streamBroken, type Stream } from "./model.js";
import { advanceSentinel, closeAfterSentinelRule, sentinelLines, type SentinelLines } from "../../../core/checks/check-helpers.js";
import { dataIs, lineEvidence, lineWhere, serverCheck } from "./support.js";

/** The data line that opens the [DONE] event. */
const isDone = (line: string) => dataIs(line, "[DONE]");

export const DONE_CHECKS: CheckDef[] = [
  serverCheck("openai-chat/done/present", (t) => {
    let n = 0;
    const observe = onStreams({
      start: () => undefined,
      end: (ev, s) => {
        if (s.model.error) return;
        if (s.model.done) {
          n++;
          return t.ok();
        }
        // A stream broken off is a failed request: request/not-reset's finding.
        if (streamBroken(s, ev)) return t.knockOn(NOT_RESET, s.label);
        if (ev.reason === "eof") {
          t.fail("data: [DONE] before the body ends", `${s.label}: the body ended (EOF) after ${s.model.chunks} chunk(s) without [DONE]`, at(ev));
        } else t.untestable(`the kit stopped reading ${s.label} (${ev.reason}) before [DONE]`);
      },
    });
    return { observe, finish: () => t.outcome(`${n} stream(s) ended with [DONE]`, "no stream without an error ended") };
  }),
  serverCheck("openai-chat/done/last-event", (t) => {
    const observe = onStreams<SentinelLines & { bad: boolean }>({
      start: () => ({ ...sentinelLines(), bad: false }),
      line: (ev, _s, st, kind) => {
        if (st.state === "closed") {
          if (kind === "blank" || st.bad) return;
          st.bad = true;
          return t.fail("nothing after data: [DONE] and its empty line", `${lineWhere(ev)} follows [DONE] (line ${st.sentinel!.lineNo}): "${excerpt(ev.line, 60)}"`, lineEvidence(ev));
        }
        advanceSentinel(st, ev, isDone, kind);
      },
      end: (ev, s, st) => {
        if (st.state === "closed" && !st.bad) t.ok();
        // EOF without [DONE] is the other ending the contract tolerates (done/present reports it).
        else if (st.state === "before" && ev.reason === "eof" && !s.model.error) t.notApplicable(`${s.label} ended at EOF without [DONE]`);
      },
    });
    return { observe, finish: () => t.outcome("nothing followed [DONE]", "no stream sent [DONE] and its empty line") };
  }),
  serverCheck("openai-chat/done/connection-closes", (t, ctx) => {
    const rule = closeAfterSentinelRule<Stream>(t, readParams(ctx.params).closeTimeoutMs, (ev, s) => {
      const done = s.model.done;
      if (done) return { since: done.t, sentinel: "[DONE]", seen: "[DONE]", evidence: at(ev) };
      if (ev.reason === "eof" && !s.model.error) t.notApplicable(`${s.label} ended at EOF without [DONE]`);
      return undefined;
    });
    return { observe: onStreams(rule), finish: () => t.outcome(`every stream ended within ${rule.worst()} ms of [DONE]`, "no stream sent [DONE]") };
  }),
];
