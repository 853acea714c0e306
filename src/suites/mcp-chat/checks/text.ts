/** The answer text: only the final answer, and present when the stream succeeds. */
import type { CheckDef } from "../../../core/checks/check.js";
import { chatFailed, eventEvidence, eventWhere, isTextEvent, isToolEvent, NO_TOOLS, onStreams, serverCheck, unjudgedStream, type SseEventEvent } from "./support.js";


export const TEXT_CHECKS: CheckDef[] = [
  serverCheck("mcp-chat/text/final-answer-only", (t) => {
    const observe = onStreams<{ text?: SseEventEvent; tools: boolean; failed: boolean }>({
      start: () => ({ tools: false, failed: false }),
      only: ["text", "tool"],
      event: (ev, p, phase, _s, st) => {
        if (phase !== "before") return;
        if (isTextEvent(p)) st.text ??= ev;
        else if (isToolEvent(p)) {
          st.tools = true;
          if (st.text && !st.failed) {
            st.failed = true;
            t.fail("text only after the last tool event (the final answer)", `${eventWhere(ev)} is a tool event after the text at event #${st.text.index}: intermediate text reached the answer`, eventEvidence(st.text));
          }
        }
      },
      end: (ev, s, st) => {
        if (st.text && st.tools && !st.failed) t.ok();
        else if (st.tools && !st.text && s.terminal?.kind === "done") t.knockOn("mcp-chat/text/answer-present", s.label);
        else if (!st.tools || !s.terminal) unjudgedStream(t, s, ev, NO_TOOLS);
        else chatFailed(t, s);
      },
    });
    return { observe, finish: () => t.outcome("text came only after the tool events", "no stream had both tool events and text") };
  }),
  serverCheck("mcp-chat/text/answer-present", (t) => {
    let chars = 0;
    const observe = onStreams<{ chars: number }>(
      {
        start: () => ({ chars: 0 }),
        only: ["text", "terminal"],
        event: (ev, p, phase, s, st) => {
          if (phase === "before" && p.kind === "object" && p.type === "text" && typeof p.value.content === "string") {
            st.chars += p.value.content.trim().length;
          }
          if (phase !== "terminal" || s.terminal?.kind !== "done") return;
          chars += st.chars;
          if (st.chars > 0) t.ok();
          else t.fail("at least one text event with non-empty content before [DONE]", `${eventWhere(ev)}: [DONE] after ${s.events - 1} event(s) and no answer text`, eventEvidence(ev));
        },
        end: (ev, s) => {
          if (!s.terminal) unjudgedStream(t, s, ev);
          else chatFailed(t, s);
        },
      },
    );
    return { observe, finish: () => t.outcome(`every [DONE] stream carried answer text (${chars} characters)`, "no stream ended with [DONE]") };
  }),
];
