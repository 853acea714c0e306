/**
 * SSE framing, judged on the raw bytes and lines of every stream. The seed's format is
 * `data: {json_payload}\n\n` and the reference frontend reads exactly that: a line splitter on
 * LF that keeps only lines starting with "data: ".
 */
import { at, excerpt, type CheckDef } from "../../../core/checks/check.js";
import { codedStreamOf, codedStreamReason, hexAround, utf8BodyRule } from "../../../core/checks/check-helpers.js";
import { dataStartsWith, eventEvidence, eventWhere, lineEvidence, lineWhere, mediaType, onStreams, serverCheck, type SseLineEvent } from "./support.js";

/** Ends of a body the server brought about (or let happen, after its sentinel): what was read is all it sent. */
const BODY_ENDED_ITSELF: ReadonlySet<string> = new Set(["eof", "error", "close-timeout"]);

export const SSE_CHECKS: CheckDef[] = [
  serverCheck("mcp-chat/sse/content-type", (t) => {
    const observe = onStreams({
      start: (s) => {
        const type = s.head.headers["content-type"];
        if (mediaType(type) === "text/event-stream") t.ok();
        else t.fail("Content-Type: text/event-stream", `${s.label}: ${s.head.status} with Content-Type ${type === undefined ? "absent" : `"${type}"`}`, at(s.head, { excerpt: `content-type: ${type ?? "(absent)"}` }));
      },
    });
    return { observe, finish: () => t.outcome("every 2xx stream was text/event-stream", "no 2xx stream was observed") };
  }),
  serverCheck("mcp-chat/sse/data-lines-only", (t) => {
    let lines = 0;
    let comments = 0;
    // A line that continues a sentinel's event is terminal/sentinel-format's ("no continuation
    // line"): a multi-line [ERROR] message is one deviation, not two.
    const observe = onStreams<{ inEvent: boolean; sentinel?: SseLineEvent }>({
      start: () => ({ inEvent: false }),
      line: (ev, _s, st, kind) => {
        lines++;
        const sentinel = st.sentinel;
        if (kind === "blank") st.sentinel = undefined;
        else if (kind === "data" && !st.inEvent && dataStartsWith(ev.line, "[")) st.sentinel = ev;
        if (kind !== "comment") st.inEvent = kind !== "blank";
        if (kind === "comment") comments++;
        if (kind === "blank" || kind === "comment" || ev.line.startsWith("data: ")) t.ok();
        else if (sentinel) t.knockOn("mcp-chat/terminal/sentinel-format", lineWhere(ev));
        else t.fail('every line to start with "data: " (one space), or be empty', `${lineWhere(ev)} is "${excerpt(ev.line, 60)}"${kind === "data" ? ": no space after the colon" : ""}`, lineEvidence(ev));
      },
    });
    return { observe, finish: () => t.outcome(`${lines} line(s) were data lines, blank lines${comments ? ` or comments (${comments} tolerated)` : ""}`, "no stream line was observed") };
  }),
  serverCheck("mcp-chat/sse/one-data-line-per-event", (t) => {
    let events = 0;
    const observe = onStreams<{ open: SseLineEvent | undefined }>({
      start: () => ({ open: undefined }),
      lineKinds: ["data", "blank"],
      line: (ev, _s, st, kind) => {
        if (kind === "data") {
          if (st.open) t.fail("one data line per event, then an empty line", `${lineWhere(ev)} is a second data line in the event begun at line ${st.open.lineNo}: pretty-printed or split JSON`, lineEvidence(ev));
          else st.open = ev;
        } else if (kind === "blank" && st.open) {
          events++;
          st.open = undefined;
          t.ok();
        }
      },
      end: (ev, s, st) => {
        if (!st.open) return;
        // Cut by the kit (its timeout or byte limit), the empty line may just not have been read yet.
        if (!BODY_ENDED_ITSELF.has(ev.reason)) return void t.untestable(`the kit stopped reading ${s.label} (${ev.reason}) inside the event begun at line ${st.open.lineNo}`);
        t.fail("the last event ended by an empty line (\\n\\n)", `${s.label}: the body ended (${ev.reason}) after line ${st.open.lineNo} without the empty line; WHATWG parsers discard that event`, lineEvidence(st.open));
      },
    });
    return { observe, finish: () => t.outcome(`${events} event(s) were one data line plus an empty line`, "no stream event was observed") };
  }),
  serverCheck("mcp-chat/sse/lf-only", (t) => {
    let lines = 0;
    const observe = onStreams({
      start: () => undefined,
      line: (ev) => {
        lines++;
        if (ev.eol === "\r\n" || ev.eol === "\r") t.fail("lines ended by LF only", `${lineWhere(ev)} ends with ${ev.eol === "\r" ? "CR" : "CRLF"}`, lineEvidence(ev));
        else t.ok();
      },
    });
    return { observe, finish: () => t.outcome(`${lines} line(s) ended with LF only`, "no stream line was observed") };
  }),
  serverCheck("mcp-chat/sse/json-payload", (t) => {
    let n = 0;
    const observe = onStreams({
      start: () => undefined,
      event: (ev, p) => {
        if (p.kind === "terminal" || p.kind === "bracket") return;
        n++;
        if (p.kind === "object") t.ok();
        else t.fail("a JSON object such as {\"type\": \"text\", \"content\": \"…\"}", `${eventWhere(ev)} is ${p.reason}`, eventEvidence(ev));
      },
    });
    return { observe, finish: () => t.outcome(`${n} payload(s) were JSON objects`, "no stream event other than a sentinel was observed") };
  }),
  serverCheck("mcp-chat/sse/utf8", (t) => {
    const rule = utf8BodyRule(t, {
      invalid: (label, ev, start, bad) => {
        const local = bad - start;
        return [`${label}: invalid UTF-8 byte 0x${ev.bytes[local]!.toString(16).padStart(2, "0")} at body offset ${bad} (chunk ${ev.index}, offset ${local})`, hexAround(ev.bytes, local - 8, local + 8)];
      },
      cutMidCharacterPasses: true,
    });
    const observe = onStreams(rule);
    return { observe, finish: () => t.outcome(`${rule.bytes()} stream byte(s) were valid UTF-8 without a BOM`, "no 2xx stream was observed") };
  }),
  serverCheck("mcp-chat/sse/event-per-write", (t) => {
    let events = 0;
    // On a coded stream the chunks are the coding's reads, not the server's writes: the rule cannot be judged there.
    const observe = onStreams<{ first: SseLineEvent | undefined; coded: string | undefined }>({
      start: (s) => ({ first: undefined, coded: codedStreamOf(s) }),
      lineKinds: ["data", "blank"],
      line: (ev, _s, st, kind) => {
        if (st.coded !== undefined) return;
        if (kind === "data" && !st.first) st.first = ev;
        if (kind !== "blank" || !st.first) return;
        events++;
        const from = st.first.chunkStart;
        st.first = undefined;
        if (ev.chunkEnd === from) t.ok();
        else t.fail("each event (data line and its empty line) inside one chunk", `${lineWhere(ev)}: the event began in chunk ${from} and ended in chunk ${ev.chunkEnd}`, lineEvidence(ev));
      },
      end: (_ev, s, st) => {
        if (st.coded !== undefined) t.untestable(codedStreamReason(s.label, st.coded, "one event per write"));
      },
    });
    return { observe, finish: () => t.outcome(`${events} event(s) each arrived inside one chunk`, "no complete stream event was observed") };
  }),
];
