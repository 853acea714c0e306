/**
 * The end of a stream: exactly one sentinel, in its exact form, last, and then the end of the
 * body. The sentinel is what tells a complete answer from a truncated one.
 */
import { at, excerpt, type CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { readParams } from "../params.js";
import { advanceSentinel, closeAfterSentinelRule, sentinelLines, type SentinelLines } from "../../../core/checks/check-helpers.js";
import { dataStartsWith, dataValue, eventEvidence, eventWhere, lineEvidence, lineWhere, missingSentinel, onStreams, serverCheck, unjudgedStream, type LineKind, type SseLineEvent, type Stream } from "./support.js";


/** Where the first sentinel is among the raw lines: its data line begins an event with "[". */
const opensSentinel = (line: string) => dataStartsWith(line, "[");
const advance = (st: SentinelLines, ev: SseLineEvent, kind: LineKind) => advanceSentinel(st, ev, opensSentinel, kind);

export const TERMINAL_CHECKS: CheckDef[] = [
  serverCheck("mcp-chat/terminal/required", (t) => {
    let n = 0;
    const observe = onStreams({
      start: () => undefined,
      end: (ev, s) => {
        const sent = s.terminal ? undefined : missingSentinel(s);
        if (s.terminal) {
          n++;
          t.ok();
        } else if (sent) {
          // A sentinel was sent but is no sentinel to a parser: the rule it broke is named.
          t.knockOn(...sent);
        } else if (ev.reason === "eof" || ev.reason === "error") {
          t.fail("data: [DONE] or data: [ERROR] <message> before the body ends", `${s.label}: the body ended (${ev.reason === "eof" ? "EOF" : `error ${ev.error ?? ""}`}) after ${s.events} event(s) and ${ev.bytes} bytes without a sentinel — a truncated answer looks complete`, at(ev));
        } else {
          t.untestable(`the kit stopped reading ${s.label} (${ev.reason}) before a sentinel`);
        }
      },
    });
    return { observe, finish: () => t.outcome(`${n} stream(s) ended with a sentinel`, "no 2xx stream was observed") };
  }),
  serverCheck("mcp-chat/terminal/last-event", (t) => {
    const observe = onStreams<SentinelLines>({
      start: sentinelLines,
      line: (ev, _s, st, k) => {
        const was = st.state;
        const kind = advance(st, ev, k);
        if (was === "closed" && kind !== "blank") {
          t.fail("nothing after the sentinel's empty line", `${lineWhere(ev)} follows the sentinel at line ${st.sentinel!.lineNo} ("${excerpt(dataValue(st.sentinel!.line), 40)}")`, lineEvidence(ev));
        }
      },
      end: (ev, s, st) => {
        if (st.state === "closed") t.ok();
        else if (!s.terminal) unjudgedStream(t, s, ev);
      },
    });
    return { observe, finish: () => t.outcome("nothing followed the first sentinel", "no sentinel closed by an empty line was observed") };
  }),
  serverCheck("mcp-chat/terminal/sentinel-format", (t, ctx) => {
    let n = 0;
    const observe = onStreams<SentinelLines & { pending?: SseLineEvent }>({
      start: sentinelLines,
      line: (ev, _s, st, k) => {
        const pending = st.pending;
        st.pending = undefined;
        const startsEvent = !st.inEvent;
        const kind = advance(st, ev, k);
        if (pending && kind !== "blank") {
          t.fail("the sentinel's data line followed by an empty line", `${lineWhere(ev)} continues the sentinel "${excerpt(dataValue(pending.line), 40)}" of line ${pending.lineNo}: a multi-line message leaks out of [ERROR]`, lineEvidence(ev));
        }
        if (kind === "data" && startsEvent && dataStartsWith(ev.line, "[")) st.pending = ev;
      },
      end: (ev, s) => {
        if (!s.terminal && !s.bracket) unjudgedStream(t, s, ev);
      },
      only: ["terminal", "other"],
      event: (ev, p) => {
        if (p.kind !== "terminal" && p.kind !== "bracket") return;
        n++;
        const r = ctx.validate("stream-sentinel", ev.data);
        if (r.ok) t.ok();
        else t.fail('exactly "[DONE]" or "[ERROR] <one-line message>"', `${eventWhere(ev)} is "${excerpt(ev.data, 60)}" (${formatSchemaErrors(r.errors).slice(0, 120)})`, eventEvidence(ev));
      },
    });
    return { observe, finish: () => t.outcome(`${n} sentinel(s) had the exact form`, "no payload starting with [ was observed") };
  }),
  serverCheck("mcp-chat/terminal/connection-closes", (t, ctx) => {
    const rule = closeAfterSentinelRule<Stream>(t, readParams(ctx.params).closeTimeoutMs, (ev, s) => {
      if (!s.terminal) return void unjudgedStream(t, s, ev);
      const sent = s.terminal.event.data;
      return { since: s.terminal.event.t, sentinel: "the sentinel", seen: sent.slice(0, 20), evidence: at(ev, { excerpt: sent.slice(0, 40) }) };
    });
    return { observe: onStreams(rule), finish: () => t.outcome(`every stream ended within ${rule.worst()} ms of its sentinel`, "no stream sent a sentinel") };
  }),
];
