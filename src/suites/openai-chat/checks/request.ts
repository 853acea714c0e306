/** What Continue actually sends must be served (§3.12). */
import { at, excerpt, type CheckDef, type Evidence } from "../../../core/checks/check.js";
import { isChatLabel, isReset, L } from "../labels.js";
import { NOT_RESET, onStreams, streamBroken } from "./model.js";
import { all, describe, eventEvidence, eventWhere, evidenceOf, is2xx, onExchanges, requestInfo, serverCheck, unanswered } from "./support.js";

export const REQUEST_CHECKS: CheckDef[] = [
  serverCheck("openai-chat/request/continue-shape-accepted", (t) => {
    const observe = all(
      onExchanges((x) => {
        if (x.label !== L.continueShape || is2xx(x.status)) return;
        if (x.status === undefined || x.status === 429) return t.untestable(unanswered(x)!);
        t.fail("200 and an event stream", `${describe(x)}: Continue's request was refused`, evidenceOf(x));
      }),
      onStreams<{ rejected: boolean; open: boolean }>({
        // Only the Continue-shaped stream (every hook below keeps its own test too).
        accept: (s) => s.label === L.continueShape,
        start: () => ({ rejected: false, open: false }),
        line: (ev, s, st, kind) => {
          if (s.label !== L.continueShape || (ev.eol !== "" && kind === "comment")) return;
          // An event is open from its first field line to its empty line; a line cut by EOF stays open.
          st.open = ev.line !== "" || ev.eol === "";
        },
        only: ["error"],
        event: (ev, v, s, st) => {
          if (s.label !== L.continueShape || v.phase !== "error" || s.model.chunks > 0) return;
          st.rejected = true;
          t.fail("a completion, not an error", `${eventWhere(ev)}: the stream's first payload is an error: "${excerpt(ev.data, 80)}"`, eventEvidence(ev));
        },
        end: (ev, s, st) => {
          if (s.label !== L.continueShape || st.rejected) return;
          if (streamBroken(s, ev)) return t.knockOn(NOT_RESET, s.label);
          if (ev.reason !== "eof" && !s.model.done) return t.untestable(`the kit stopped reading ${s.label} (${ev.reason})`);
          if (st.open && !s.model.done) return t.fail("a stream that ends normally", `${s.label}: the body ended inside an event after ${s.model.chunks} chunk(s): a truncated answer`, at(ev));
          if (s.model.chunks === 0) return t.fail("a 200 event stream with chunks", `${s.label}: 200 with no chunk (${ev.bytes} bytes, Content-Type ${s.head.headers["content-type"] ?? "absent"})`, at(ev));
          t.ok();
        },
      }),
    );
    return { observe, finish: () => t.outcome("the Continue-shaped request got a complete stream", "the Continue-shaped probe was not answered") };
  }),
  serverCheck(NOT_RESET, (t) => {
    let reached = false;
    // Judged at the end: a reset counts only when the target answered something else.
    const resets: { label: string; error: string; ev: Evidence }[] = [];
    const observe = all(
      onExchanges((x) => {
        if (x.status !== undefined) reached = true;
        if (!isChatLabel(x.label)) return;
        if (x.status !== undefined) {
          // Streams are judged by their end below; any other answer by its body's end.
          if (is2xx(x.status) && requestInfo(x.request).stream) return;
          if (x.end?.reason === "error") return t.fail("a whole answer", `${describe(x)}: the body broke off (${x.end.error ?? "error"}): a failed request`, evidenceOf(x));
          return t.ok();
        }
        if (x.error && isReset(x.error.code, x.error.error)) resets.push({ label: x.label, error: x.error.error, ev: evidenceOf(x) });
        else t.untestable(unanswered(x)!);
      }),
      onStreams<undefined>({
        start: () => undefined,
        end: (ev, s) => {
          if (streamBroken(s, ev)) t.fail("a stream that ends with [DONE] or the end of the body", `${s.label}: the stream broke off after ${s.model.chunks} chunk(s) (${ev.error ?? "error"}): a failed request`, at(ev));
          else if (ev.reason === "eof" || s.model.done) t.ok();
        },
      }),
    );
    const finish = () => {
      for (const r of resets) {
        if (reached) t.fail("a response head", `${r.label}: the connection was reset before the response head (${r.error})`, r.ev);
        else t.untestable(`${r.label} got no response (${r.error})`);
      }
      return t.outcome(`${t.count} chat request(s) were answered without a reset`, "no chat request was answered");
    };
    return { observe, finish };
  }),
];
