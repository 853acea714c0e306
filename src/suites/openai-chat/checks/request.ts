/** What Continue actually sends must be served (§3.12). */
import { at, excerpt, type CheckDef } from "../../../core/check.js";
import { L } from "../labels.js";
import { onStreams } from "./model.js";
import { FOLLOW_UP } from "./refs.js";
import { all, describe, eventEvidence, eventWhere, evidenceOf, is2xx, lineKind, onExchanges, serverCheck, Tally, unanswered } from "./support.js";

export const REQUEST_CHECKS: CheckDef[] = [
  serverCheck({
    id: "openai-chat/request/continue-shape-accepted",
    level: "MUST",
    title: "A request shaped like the Continue IDE's is served",
    rule: 'A request shaped like the Continue IDE\'s (`Accept: application/json` with `stream: true`, `include_usage`, `parallel_tool_calls: false`, no `tool_choice`, assistant `content: " "` and `""` beside `tool_calls`, a cancelled tool result) gets a 200 event stream that ends normally.',
    ref: FOLLOW_UP,
    probes: [L.continueShape],
    create() {
      const t = new Tally();
      const observe = all(
        onExchanges((x) => {
          if (x.label !== L.continueShape || is2xx(x.status)) return;
          if (x.status === undefined || x.status === 429) return t.untestable(unanswered(x)!);
          t.fail("200 and an event stream", `${describe(x)}: Continue's request was refused`, evidenceOf(x));
        }),
        onStreams<{ rejected: boolean; open: boolean }>({
          start: () => ({ rejected: false, open: false }),
          line: (ev, s, st) => {
            if (s.label !== L.continueShape || (ev.eol !== "" && lineKind(ev.line) === "comment")) return;
            // An event is open from its first field line to its empty line; a line cut by EOF stays open.
            st.open = ev.line !== "" || ev.eol === "";
          },
          event: (ev, v, s, st) => {
            if (s.label !== L.continueShape || v.phase !== "error" || s.model.chunks > 0) return;
            st.rejected = true;
            t.fail("a completion, not an error", `${eventWhere(ev)}: the stream's first payload is an error: "${excerpt(ev.data, 80)}"`, eventEvidence(ev));
          },
          end: (ev, s, st) => {
            if (s.label !== L.continueShape || st.rejected) return;
            if (ev.reason === "error" && !s.model.done) return t.fail("a stream that ends normally", `${s.label}: the stream broke (${ev.error ?? "error"})`, at(ev));
            if (ev.reason !== "eof" && !s.model.done) return t.untestable(`the kit stopped reading ${s.label} (${ev.reason})`);
            if (st.open && !s.model.done) return t.fail("a stream that ends normally", `${s.label}: the body ended inside an event after ${s.model.chunks} chunk(s): a truncated answer`, at(ev));
            if (s.model.chunks === 0) return t.fail("a 200 event stream with chunks", `${s.label}: 200 with no chunk (${ev.bytes} bytes, Content-Type ${s.head.headers["content-type"] ?? "absent"})`, at(ev));
            t.ok();
          },
        }),
      );
      return { observe, finish: () => t.outcome("the Continue-shaped request got a complete stream", "the Continue-shaped probe was not answered") };
    },
  }),
];
