/**
 * SSE framing of every stream, judged on the raw bytes and lines. Streams are read as SSE whatever
 * their Content-Type, so one fault (a wrong type) trips one check.
 */
import { at, excerpt, type CheckDef } from "../../../core/checks/check.js";
import { hexAround, utf8BodyRule } from "../../../core/checks/check-helpers.js";
import { onStreams } from "./model.js";
import { eventEvidence, eventWhere, lineEvidence, lineWhere, mediaType, serverCheck } from "./support.js";

export const SSE_CHECKS: CheckDef[] = [
  serverCheck("openai-chat/sse/content-type", (t) => {
    let n = 0;
    const observe = onStreams({
      start: (s) => {
        const type = s.head.headers["content-type"];
        n++;
        if (mediaType(type) === "text/event-stream") t.ok();
        else t.fail("Content-Type: text/event-stream", `${s.label}: ${s.head.status} with Content-Type ${type === undefined ? "absent" : `"${type}"`}; SDKs parse only SSE`, at(s.head, { excerpt: `content-type: ${type ?? "(absent)"}` }));
      },
    });
    return { observe, finish: () => t.outcome(`${n} stream(s) were text/event-stream`, "no 2xx stream was observed") };
  }),
  serverCheck("openai-chat/sse/data-json", (t) => {
    let n = 0;
    const observe = onStreams({
      start: () => undefined,
      event: (ev, v) => {
        if (v.phase === "after") return;
        n++;
        if (v.payload.kind === "invalid") t.fail("data: [DONE] or data: <JSON>", `${eventWhere(ev)} is ${v.payload.reason}: "${excerpt(ev.data, 60)}"`, eventEvidence(ev));
        else t.ok();
      },
    });
    return { observe, finish: () => t.outcome(`${n} payload(s) were [DONE] or JSON`, "no stream event was observed") };
  }),
  serverCheck("openai-chat/sse/canonical-framing", (t) => {
    let events = 0;
    let comments = 0;
    const observe = onStreams<{ inEvent: boolean }>({
      start: () => ({ inEvent: false }),
      line: (ev, _s, st, kind) => {
        if (ev.eol === "\r\n" || ev.eol === "\r") t.fail("lines ended by LF", `${lineWhere(ev)} ends with ${ev.eol === "\r" ? "CR" : "CRLF"}`, lineEvidence(ev));
        if (kind === "comment") {
          comments++;
          return;
        }
        if (kind === "field") return t.fail("only data: lines, empty lines and comments", `${lineWhere(ev)} is a "${excerpt(ev.line.split(":")[0], 20)}" line: "${excerpt(ev.line, 60)}"`, lineEvidence(ev));
        if (kind === "data") {
          if (!ev.line.startsWith("data: ")) t.fail('"data: " with one space', `${lineWhere(ev)} has no space after "data:": "${excerpt(ev.line, 60)}"`, lineEvidence(ev));
          if (st.inEvent) t.fail("one data line per event", `${lineWhere(ev)} is a second data line in one event`, lineEvidence(ev));
          st.inEvent = true;
          return;
        }
        if (st.inEvent) {
          events++;
          t.ok();
        }
        st.inEvent = false;
      },
    });
    return { observe, finish: () => t.outcome(`${events} event(s) were canonically framed${comments ? ` (${comments} comment line(s) tolerated)` : ""}`, "no complete stream event was observed") };
  }),
  serverCheck("openai-chat/sse/utf8", (t) => {
    // A byte validator, not a second (fatal) decode of every chunk: the same bytes pass (RFC 3629, as
    // the WHATWG decoder reads them), at a fraction of the cost.
    const rule = utf8BodyRule(t, {
      invalid: (label, ev, start) => [`${label}: invalid UTF-8 in body chunk ${ev.index} (body offset ${start}–${start + ev.bytes.length})`, hexAround(ev.bytes, 0, 24)],
      cutMidCharacterPasses: false,
    });
    const observe = onStreams(rule);
    return { observe, finish: () => t.outcome(`${rule.bytes()} stream byte(s) were valid UTF-8 without a BOM`, "no stream byte was observed") };
  }),
];
