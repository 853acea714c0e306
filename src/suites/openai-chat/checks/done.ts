/** The end of a stream: `data: [DONE]`, nothing after it, then the end of the body. */
import { at, excerpt, type CheckDef } from "../../../core/check.js";
import { STREAM_PROBES } from "../labels.js";
import { readParams } from "../params.js";
import { NOT_RESET, onStreams, streamBroken } from "./model.js";
import { STREAMING } from "./refs.js";
import { dataIs, lineEvidence, lineKind, lineWhere, serverCheck, Tally, type SseLineEvent } from "./support.js";

export const DONE_CHECKS: CheckDef[] = [
  serverCheck({
    id: "openai-chat/done/present",
    level: "SHOULD",
    title: "Streams end with data: [DONE]",
    rule: "A stream that ends without an error ends with `data: [DONE]`. (SDKs and Continue accept EOF; naive clients report truncation, hence SHOULD.)",
    ref: STREAMING,
    probes: STREAM_PROBES,
    create() {
      const t = new Tally();
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
    },
  }),
  serverCheck({
    id: "openai-chat/done/last-event",
    level: "MUST",
    title: "Nothing follows [DONE]",
    rule: "Nothing follows the `[DONE]` event: no data, no second `[DONE]`, no comment. (openai-node ignores later events, the AI SDK processes them.)",
    ref: STREAMING,
    probes: STREAM_PROBES,
    create() {
      const t = new Tally();
      const observe = onStreams<{ inEvent: boolean; state: "before" | "done" | "closed"; done?: SseLineEvent; bad: boolean }>({
        start: () => ({ inEvent: false, state: "before", bad: false }),
        line: (ev, _s, st) => {
          const kind = lineKind(ev.line);
          if (st.state === "closed") {
            if (kind === "blank" || st.bad) return;
            st.bad = true;
            return t.fail("nothing after data: [DONE] and its empty line", `${lineWhere(ev)} follows [DONE] (line ${st.done!.lineNo}): "${excerpt(ev.line, 60)}"`, lineEvidence(ev));
          }
          if (kind === "blank") {
            if (st.state === "done") st.state = "closed";
            st.inEvent = false;
          } else if (kind === "data") {
            if (!st.inEvent && st.state === "before" && dataIs(ev.line, "[DONE]")) {
              st.state = "done";
              st.done = ev;
            }
            st.inEvent = true;
          }
        },
        end: (ev, s, st) => {
          if (st.state === "closed" && !st.bad) t.ok();
          // EOF without [DONE] is the other ending the contract tolerates (done/present reports it).
          else if (st.state === "before" && ev.reason === "eof" && !s.model.error) t.notApplicable(`${s.label} ended at EOF without [DONE]`);
        },
      });
      return { observe, finish: () => t.outcome("nothing followed [DONE]", "no stream sent [DONE] and its empty line") };
    },
  }),
  serverCheck({
    id: "openai-chat/done/connection-closes",
    level: "MUST",
    title: "The body ends promptly after [DONE]",
    rule: "The body ends within 2 s (`--close-timeout`, param closeTimeoutMs) of `[DONE]`. (The AI SDK and openai-node v6 wait for EOF.)",
    ref: STREAMING,
    probes: STREAM_PROBES,
    create(ctx) {
      const { closeTimeoutMs } = readParams(ctx.params);
      const t = new Tally();
      let worst = 0;
      const observe = onStreams({
        start: () => undefined,
        end: (ev, s) => {
          const done = s.model.done;
          if (!done) {
            if (ev.reason === "eof" && !s.model.error) t.notApplicable(`${s.label} ended at EOF without [DONE]`);
            return;
          }
          const elapsed = Math.round(ev.t - done.t);
          if (ev.reason === "close-timeout" || elapsed > closeTimeoutMs) {
            t.fail(`the body ends within ${closeTimeoutMs} ms of [DONE]`, `${s.label}: the body was still open ${elapsed} ms after [DONE] (${ev.reason === "close-timeout" ? "the kit stopped waiting" : `ended by ${ev.reason}`})`, at(ev));
          } else if (ev.reason === "eof" || ev.reason === "error") {
            worst = Math.max(worst, elapsed);
            t.ok();
          } else t.untestable(`the kit stopped reading ${s.label} (${ev.reason}) ${elapsed} ms after [DONE]`);
        },
      });
      return { observe, finish: () => t.outcome(`every stream ended within ${worst} ms of [DONE]`, "no stream sent [DONE]") };
    },
  }),
];
