/**
 * Tool calls inside a stream. These rules are about the stream's meaning, so each stream is read
 * up to its first sentinel; what follows it is terminal/last-event's. The open tools of a stream
 * are the stream view's (`s.tools`), read by every rule here: none keeps a copy of its own.
 */
import { excerpt, type CheckDef, type Outcome } from "../../../core/checks/check.js";
import { listFirst } from "../../../core/list-text.js";
import { L, NOTE } from "../labels.js";
import { all, chatFailed, disconnectKnockOn, type SseEventEvent, eventEvidence, eventWhere, isObject, NO_TOOLS, onExchanges, onNote, onStreams, serverCheck, showTools, Tally, toolEvent, toolNames, unjudgedStream } from "./support.js";

/** An open tool as the messages name it: a stream may hold a hundred thousand, so they list the first few. */
const openTool = ([id, name]: [string, unknown]): string => `${excerpt(id)} (${excerpt(name)})`;
const openId = ([id]: [string, unknown]): string => excerpt(id);

/** Observer that judges the tools still open (the stream's) at the first sentinel. */
function openAtTerminal(kind: "done" | "error", t: Tally) {
  let calls = 0;
  const observe = onStreams<undefined>(
    {
      start: () => undefined,
      only: ["tool", "terminal"],
      event: (ev, p, phase, s) => {
        if (phase === "before") {
          if (toolEvent(p)?.kind === "start") calls++;
          return;
        }
        if (phase !== "terminal" || s.terminal?.kind !== kind) return;
        const open = s.tools.open;
        if (open.size === 0) t.ok();
        else if (s.tools.idless || s.tools.unmatched >= open.size) {
          // The tool_end that would have closed each open tool came, but under an id that closes
          // nothing: that is end-matches-start's (or events/schema's) failure, not a missing end.
          const [id, by] = s.tools.idless ? ["mcp-chat/events/schema", s.tools.idless] : ["mcp-chat/tools/end-matches-start", s.tools.firstUnmatched!];
          t.knockOn(id, eventWhere(by));
        } else {
          const list = listFirst(open, openTool);
          t.fail(`every tool_start closed by its tool_end before ${kind === "done" ? "[DONE]" : "[ERROR]"}`, `${eventWhere(ev)}: "${excerpt(ev.data, 60)}" arrived with tool(s) still open: ${list}`, eventEvidence(ev));
        }
      },
      end: (ev, s) => {
        if (!s.terminal) unjudgedStream(t, s, ev);
        else if (kind === "done") chatFailed(t, s);
        // The disconnected probe is where [ERROR] is expected; [DONE] there is chat/disconnected-rejected's failure.
        else if (kind === "error" && s.label === L.chatDisconnected && s.terminal.kind === "done") t.knockOn("mcp-chat/chat/disconnected-rejected", s.label);
      },
    },
  );
  return { observe, calls: () => calls };
}

export const TOOLS_CHECKS: CheckDef[] = [
  serverCheck("mcp-chat/tools/unique-ids", (t) => {
    let n = 0;
    // Every id a stream started, with the event that first did: the one state that must grow with the stream.
    const observe = onStreams<Map<string, number>>({
      start: () => new Map(),
      only: ["tool"],
      event: (ev, p, phase, s, seen) => {
        const te = phase === "before" ? toolEvent(p) : undefined;
        if (te?.kind !== "start") return;
        n++;
        const first = seen.get(te.id);
        if (first !== undefined) t.fail("a new id for every tool_start in a request", `${eventWhere(ev)} reuses id ${JSON.stringify(te.id)} of event #${first}`, eventEvidence(ev));
        else {
          // The stream's copy of the id, shared with its open tools, not a view of this event's read.
          seen.set(s.tools.keptId, ev.index);
          t.ok();
        }
      },
      end: (ev, s, seen) => {
        if (seen.size === 0) unjudgedStream(t, s, ev, NO_TOOLS);
      },
    });
    return { observe, finish: () => t.outcome(`${n} tool_start id(s) were unique in their streams`, "no tool_start was observed; use a prompt that makes the model call a tool") };
  }),
  serverCheck("mcp-chat/tools/end-matches-start", (t) => {
    let n = 0;
    const observe = onStreams<{ ends: number; idless?: SseEventEvent }>({
      start: () => ({ ends: 0 }),
      end: (ev, s, st) => {
        if (st.ends === 0) unjudgedStream(t, s, ev, NO_TOOLS);
      },
      // Only tool events: the stream's first tool event without an id is one of them.
      only: ["tool"],
      event: (ev, p, phase, s, st) => {
        const te = phase === "before" ? toolEvent(p) : undefined;
        if (!te) {
          st.idless ??= s.tools.idless;
          return;
        }
        if (te.kind === "start") return;
        st.ends++;
        n++;
        // What the stream's open tools were before this tool_end (it closed the one it matched).
        const f = s.tools;
        if (!f.wasOpen && st.idless) {
          // The tool_start it would close had no usable id: events/schema's failure.
          t.knockOn("mcp-chat/events/schema", eventWhere(st.idless));
          return;
        }
        if (!f.wasOpen) {
          // Worded only if kept: a stream of unmatched ends with many tools open would list them for every end.
          const open = f.open;
          t.failWith(() => ["a tool_end only for an open tool_start", `${eventWhere(ev)}: tool_end ${JSON.stringify(te.id)} matches no open tool_start (open: ${listFirst(open, openId) || "none"})`], eventEvidence(ev));
          return;
        }
        const name = f.openName;
        if (te.name === name) t.ok();
        else t.fail(`tool_end ${JSON.stringify(te.id)} named ${excerpt(name)} like its tool_start`, `${eventWhere(ev)}: tool_end ${JSON.stringify(te.id)} is named ${excerpt(te.name)}`, eventEvidence(ev));
      },
    });
    return { observe, finish: () => t.outcome(`${n} tool_end(s) each closed an open tool_start with the same id and name`, "no tool_end was observed") };
  }),
  serverCheck("mcp-chat/tools/all-ended-before-done", (t) => {
    const o = openAtTerminal("done", t);
    return { observe: o.observe, finish: () => t.outcome(`no tool was open at [DONE] (${o.calls()} tool call(s) in all streams)`, "no stream ended with [DONE]") };
  }),
  serverCheck("mcp-chat/tools/all-ended-before-error", (t) => {
    const o = openAtTerminal("error", t);
    // Chat while disconnected may be refused with an HTTP status instead of an [ERROR] stream
    // (§3.9 form a): then no stream of the run needs to end with [ERROR].
    const refused = onExchanges((x) => {
      if (x.label === L.chatDisconnected && x.status !== undefined && x.status >= 400 && x.status !== 429) {
        t.notApplicable(`chat while disconnected was refused with HTTP ${x.status} rather than an [ERROR] stream, and no other stream ended with [ERROR]`);
      }
    });
    return { observe: all(o.observe, refused, disconnectKnockOn(t)), finish: () => t.outcome(`no tool was open at [ERROR] (${o.calls()} tool call(s) in all streams)`, "no stream ended with [ERROR]") };
  }),
  serverCheck("mcp-chat/tools/name-in-tool-list", (t) => {
    // The connected server's tools, as listed and as a set: every tool_start is looked up, however long the list.
    let tools: { listed: string[]; names: ReadonlySet<string> } | null = null;
    const listed = (names: string[] | null | undefined) => (names ? { listed: names, names: new Set(names) } : null);
    let n = 0;
    const observe = all(
      onNote(NOTE.chatTools, (v) => {
        tools = listed(Array.isArray(v) ? (v as string[]) : null);
      }),
      // Without the probes' note (a client's traffic through the proxy), the last connect answered says.
      onExchanges((x) => {
        if (x.status !== 200 || x.method !== "POST") return;
        if (x.path.startsWith("/connect/")) tools = listed(toolNames(isObject(x.json) ? x.json.tools : undefined));
        else if (x.path.split("?")[0] === "/disconnect") tools = null;
      }),
      onStreams({
        start: () => undefined,
        end: (ev, s) => {
          if (s.label === L.chatStream && s.tools.starts === 0) unjudgedStream(t, s, ev, NO_TOOLS);
        },
        only: ["tool"],
        event: (ev, p, phase, s) => {
          const te = phase === "before" && s.label === L.chatStream ? toolEvent(p) : undefined;
          if (te?.kind !== "start") return;
          const known = tools;
          if (!known) {
            t.untestable("the tools of the connected server are unknown");
            return;
          }
          n++;
          if (typeof te.name === "string" && known.names.has(te.name)) t.ok();
          else t.failWith(() => [`a tool the connect listed: ${showTools(known.listed)}`, `${eventWhere(ev)} calls ${excerpt(te.name)}`], eventEvidence(ev));
        },
      }),
    );
    return { observe, finish: () => t.outcome(`${n} tool call(s) named tools of the connected server`, "no tool_start in the happy-path stream") };
  }),
  serverCheck({
    id: "mcp-chat/tools/call-profile",
    create() {
      // Outcome "fail" = something notable was reported (the runner shows it as info for an INFO
      // check), so a target that sends args {} is distinguishable from one that does not.
      let calls = 0;
      let emptyArgs = 0;
      let overlaps = 0;
      let maxOpen = 0;
      let results = 0;
      let firstEmpty: ReturnType<typeof eventEvidence> | undefined;
      // Only says why there were no calls to report (an answer without tools, a knock-on).
      const none = new Tally();
      const observe = onStreams<undefined>({
        start: () => undefined,
        end: (ev, s) => {
          if (s.tools.starts === 0) unjudgedStream(none, s, ev, NO_TOOLS);
        },
        only: ["tool"],
        event: (ev, p, phase, s) => {
          const te = phase === "before" ? toolEvent(p) : undefined;
          if (!te) return;
          if (te.kind === "end") {
            if ("result" in te.value) results++;
            return;
          }
          calls++;
          // The stream's open tools already hold this call: the others open are those besides it.
          const open = s.tools.open;
          if (open.size > (s.tools.wasOpen ? 0 : 1)) overlaps++;
          maxOpen = Math.max(maxOpen, open.size);
          if (isObject(te.value.args) && Object.keys(te.value.args).length === 0) {
            emptyArgs++;
            firstEmpty ??= eventEvidence(ev);
          }
        },
      });
      const finish = (): Outcome => {
        if (calls === 0) return none.outcome("", "no tool_start was observed");
        const numbers = `${calls} tool call(s), ${overlaps} started while another was open (at most ${maxOpen} at once), ${emptyArgs} with args {}, ${results} tool_end(s) with a result`;
        if (emptyArgs === 0) return { verdict: "info", message: numbers };
        return {
          verdict: "fail",
          message: `${numbers}: ${emptyArgs} call(s) sent args {} — the real arguments never reach the UI`,
          expected: "the arguments the tool is called with",
          actual: "args {}",
          evidence: firstEmpty ? [firstEmpty] : [],
        };
      };
      return { observe, finish };
    },
  }),
];
