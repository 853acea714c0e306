/** §3 rule 17: tool executions pair up by toolCallId and round-trip into toolResult messages. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { TOPIC } from "../labels.js";
import { frameEvidence, isObject, jsonDiff, jsonEqual, onWire, serverCheck, toolCalls, where, type Conn, type FrameEvent, type Json } from "./support.js";


export const TOOL_CHECKS: CheckDef[] = [
  serverCheck("pi-web/tool/pairing", { notApplicableWhen: [TOPIC.tools] }, (t) => {
    interface S {
      open: Map<string, FrameEvent>;
      ended: Set<string>;
      /** An end without a readable toolCallId was seen: open starts may have ended. */
      unreadable: boolean;
    }
    const state = new Map<string, S>();
    const get = (c: Conn): S => {
      let s = state.get(c.id);
      if (!s) state.set(c.id, (s = { open: new Map(), ended: new Set(), unreadable: false }));
      return s;
    };
    const judgeOpen = (ev: FrameEvent, c: Conn, s: S) => {
      for (const [id, start] of s.open) {
        if (s.unreadable) t.untestable("a tool_execution_end without a readable toolCallId was seen");
        else t.fail(`one tool_execution_end for ${id}`, `${where(ev, c)}: ${id} (started at seq ${start.seq}) never ended`, frameEvidence(start));
      }
      state.delete(c.id);
    };
    const observe = onWire(
      {
        in: (ev, m, c) => {
          if (m.kind !== "object" || typeof m.type !== "string") return;
          const v = m.value;
          if (m.type === "tool_execution_start" || m.type === "tool_execution_end") {
            const s = get(c);
            const id = v.toolCallId;
            if (typeof id !== "string") {
              if (m.type === "tool_execution_end") s.unreadable = true;
              return;
            }
            if (m.type === "tool_execution_start") {
              if (s.open.has(id) || s.ended.has(id)) t.fail(`one tool_execution_start for ${id}`, `${where(ev, c)} starts ${id} again`, frameEvidence(ev));
              s.open.set(id, ev);
            } else if (s.open.delete(id)) {
              s.ended.add(id);
              t.ok();
            } else t.fail(`a tool_execution_start for ${id} before its end`, `${where(ev, c)} ends ${id}, which ${s.ended.has(id) ? "already ended" : "never started"}`, frameEvidence(ev));
          } else if (m.type === "agent_end" || m.type === "agent_start") {
            const s = state.get(c.id);
            if (s) judgeOpen(ev, c, s);
          } else if (m.type === "session_changed") state.delete(c.id);
        },
        close: (_ev, c) => {
          if (state.get(c.id)?.open.size) t.untestable(`${c.label} closed with tools running`);
          state.delete(c.id);
        },
      },
      { clientsOnly: true },
    );
    return { observe, finish: () => t.outcome(`${t.count} tool execution(s) paired up by toolCallId`, "no tool was executed") };
  }),
  serverCheck("pi-web/tool/round-trip", { notApplicableWhen: [TOPIC.tools] }, (t) => {
    interface Run {
      calls: { call: Json; ev: FrameEvent }[];
      starts: Map<string, { v: Json; ev: FrameEvent }>;
      ends: Map<string, Json>;
      results: Map<string, { msg: Json; ev: FrameEvent }>;
      /** toolResult messages started (their message_end may be missing: event/message-nesting's). */
      resultStarts: Set<string>;
    }
    const runs = new Map<string, Run>();
    const fresh = (): Run => ({ calls: [], starts: new Map(), ends: new Map(), results: new Map(), resultStarts: new Set() });
    const judge = (ev: FrameEvent, c: Conn, r: Run) => {
      for (const { call, ev: callEv } of r.calls) {
        const id = call.id as string;
        const start = r.starts.get(id);
        const result = r.results.get(id);
        const end = r.ends.get(id);
        const problems: string[] = [];
        // An end that no start opened is tool/pairing's finding: the start is not judged twice here.
        const unopened = !start && end !== undefined;
        if (!start) {
          if (!unopened) problems.push("no tool_execution_start");
        } else if (start.v.toolName !== call.name) problems.push(`start toolName ${excerpt(start.v.toolName)} vs ${excerpt(call.name)}`);
        else if (!jsonEqual(start.v.args, call.arguments)) problems.push(`start args differ (${jsonDiff(start.v.args, call.arguments)})`);
        // A toolResult message started but never ended is event/message-nesting's finding.
        const unended = !result && r.resultStarts.has(id);
        if (!result) {
          if (!unended) problems.push("no toolResult message");
        } else {
          if (result.msg.toolName !== call.name) problems.push(`toolResult toolName ${excerpt(result.msg.toolName)} vs ${excerpt(call.name)}`);
          if (end && typeof end.isError === "boolean" && result.msg.isError !== end.isError) problems.push(`toolResult isError ${excerpt(result.msg.isError)} vs tool_execution_end ${end.isError}`);
          const content = isObject(end?.result) ? end.result.content : undefined;
          if (Array.isArray(content) && !jsonEqual(result.msg.content, content)) problems.push(`toolResult content differs from result.content (${jsonDiff(result.msg.content, content)})`);
        }
        if (problems.length === 0) {
          if (unopened) t.knockOn("pi-web/tool/pairing", `${where(ev, c)} (toolCall ${id})`);
          else if (unended) t.knockOn("pi-web/event/message-nesting", `${where(ev, c)} (toolResult ${id})`);
          else t.ok();
        } else t.fail(`a start and a toolResult matching toolCall ${id}`, `${where(ev, c)}: toolCall ${id} (${excerpt(call.name)}, seq ${callEv.seq}): ${problems.join("; ")}`, frameEvidence(result?.ev ?? start?.ev ?? callEv));
      }
      runs.delete(c.id);
    };
    const observe = onWire(
      {
        in: (ev, m, c) => {
          if (m.kind !== "object" || typeof m.type !== "string") return;
          const v = m.value;
          let r = runs.get(c.id);
          switch (m.type) {
            case "agent_start":
              if (r) judge(ev, c, r);
              runs.set(c.id, fresh());
              return;
            case "agent_end":
              if (r) judge(ev, c, r);
              return;
            case "session_changed":
              runs.delete(c.id);
              return;
            case "tool_execution_start":
              if (r && typeof v.toolCallId === "string") r.starts.set(v.toolCallId, { v, ev });
              return;
            case "tool_execution_end":
              if (r && typeof v.toolCallId === "string") r.ends.set(v.toolCallId, v);
              return;
            case "message_start":
              if (r && isObject(v.message) && v.message.role === "toolResult" && typeof v.message.toolCallId === "string") r.resultStarts.add(v.message.toolCallId);
              return;
            case "message_end": {
              if (!r || !isObject(v.message)) return;
              const msg = v.message;
              if (msg.role === "assistant") for (const call of toolCalls(msg)) if (typeof call.id === "string") r.calls.push({ call, ev });
              if (msg.role === "toolResult" && typeof msg.toolCallId === "string") r.results.set(msg.toolCallId, { msg, ev });
              return;
            }
            default:
              r = undefined;
              return;
          }
        },
        close: (_ev, c) => {
          if (runs.get(c.id)?.calls.length) t.untestable(`${c.label} closed during a run with tool calls`);
          runs.delete(c.id);
        },
      },
      { clientsOnly: true },
    );
    return { observe, finish: () => t.outcome(`${t.count} tool call(s) round-tripped into matching toolResults`, "no tool call was observed in a finished run") };
  }),
];
