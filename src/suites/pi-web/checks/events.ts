/** §3 rules 12, 13 and 16: runs, messages and provider errors as event grammar. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { M, TOPIC } from "../labels.js";
import { forkAllowances } from "../params.js";
import { frameEvidence, isObject, jsonDiff, jsonEqual, onWire, rpc, serverCheck, showCommand, where, type FrameEvent } from "./support.js";


export const EVENT_CHECKS: CheckDef[] = [
  serverCheck("pi-web/event/agent-bracketing", (t, ctx) => {
    const closesRun = forkAllowances(ctx.params).sessionChangeEndsRun;
    const open = new Map<string, FrameEvent>();
    const observe = onWire(
      {
        in: (ev, m, c) => {
          if (m.kind !== "object") return;
          const started = open.get(c.id);
          if (m.type === "agent_start") {
            if (started) t.fail("agent_end before the next agent_start", `${where(ev, c)} opens a run inside the run started at seq ${started.seq}`, frameEvidence(ev));
            open.set(c.id, ev);
          } else if (m.type === "agent_end") {
            if (!started) t.fail("agent_end only inside a run", `${where(ev, c)} ends no run`, frameEvidence(ev));
            else t.ok();
            open.delete(c.id);
          } else if (m.type === "session_changed" && started && closesRun) {
            t.ok();
            open.delete(c.id);
          }
        },
        close: (_ev, c) => {
          if (open.delete(c.id)) t.untestable(`${c.label} closed during a run`);
        },
      },
      { clientsOnly: true },
    );
    return {
      observe,
      finish: () => {
        if (open.size > 0) t.untestable("a run was still open when the probes ended");
        return t.outcome(`${t.count} run(s) were bracketed by agent_start/agent_end`, "no run was observed");
      },
    };
  }),
  serverCheck("pi-web/event/extras-consistent", (t) => {
    interface S {
      run: unknown[];
      lastAssistant?: unknown;
      /** A message started and not yet ended: its message_end, which the extras repeat, is missing so far. */
      open?: FrameEvent;
      /** A message of this run that never ended (the next one started first). */
      unended?: FrameEvent;
    }
    const NESTING = "pi-web/event/message-nesting";
    const state = new Map<string, S>();
    const observe = onWire(
      {
        in: (ev, m, c) => {
          if (m.kind !== "object" || typeof m.type !== "string") return;
          const v = m.value;
          let s = state.get(c.id);
          switch (m.type) {
            case "agent_start":
              state.set(c.id, { run: [] });
              return;
            case "session_changed":
              state.delete(c.id);
              return;
            case "turn_start":
              if (s) delete s.lastAssistant;
              return;
            case "message_start":
              if (!s) return;
              if (s.open) s.unended ??= s.open;
              s.open = ev;
              return;
            case "message_end":
              if (!s) return;
              delete s.open;
              s.run.push(v.message);
              if (isObject(v.message) && v.message.role === "assistant") s.lastAssistant = v.message;
              return;
            case "turn_end":
              if (!s || s.lastAssistant === undefined || !("message" in v)) return;
              // A message never ended: there is no message_end to compare with (event/message-nesting's).
              if (s.open) return t.knockOn(NESTING, where(ev, c));
              if (jsonEqual(v.message, s.lastAssistant)) t.ok();
              else t.fail("turn_end.message equal to the turn's last assistant message_end", `${where(ev, c)}: ${jsonDiff(v.message, s.lastAssistant)}`, frameEvidence(ev));
              return;
            case "agent_end":
              state.delete(c.id);
              if (!s || !Array.isArray(v.messages)) return;
              if (s.open || s.unended) return t.knockOn(NESTING, where(ev, c));
              if (jsonEqual(v.messages, s.run)) t.ok();
              else {
                const d = v.messages.length !== s.run.length ? `${v.messages.length} message(s), but the run ended ${s.run.length}` : jsonDiff(v.messages, s.run);
                t.fail("agent_end.messages equal to the run's message_end messages", `${where(ev, c)}: ${d}`, frameEvidence(ev));
              }
              return;
            default:
              return;
          }
        },
        close: (_ev, c) => state.delete(c.id),
      },
      { clientsOnly: true },
    );
    return { observe, finish: () => t.outcome(`${t.count} turn_end/agent_end extra(s) matched the message_end events`, "no run ended") };
  }),
  serverCheck("pi-web/event/message-nesting", (t) => {
    const open = new Map<string, { ev: FrameEvent; role: unknown; timestamp: unknown }>();
    let updates = 0;
    const observe = onWire(
      {
        in: (ev, m, c) => {
          if (m.kind !== "object" || typeof m.type !== "string") return;
          const cur = open.get(c.id);
          const msg = isObject(m.value.message) ? m.value.message : undefined;
          switch (m.type) {
            case "message_start":
              if (cur) t.fail("message_end before the next message_start", `${where(ev, c)} (${excerpt(msg?.role)}) starts inside the ${excerpt(cur.role)} message started at seq ${cur.ev.seq}`, frameEvidence(ev));
              open.set(c.id, { ev, role: msg?.role, timestamp: msg?.timestamp });
              return;
            case "message_end":
              if (!cur) {
                t.fail("message_end only after message_start", `${where(ev, c)} (${excerpt(msg?.role)}) ends no open message`, frameEvidence(ev));
                return;
              }
              open.delete(c.id);
              if (msg && msg.role !== cur.role) t.fail(`role ${excerpt(cur.role)} as started`, `${where(ev, c)} ends with role ${excerpt(msg.role)}`, frameEvidence(ev));
              else if (msg && typeof msg.timestamp === "number" && typeof cur.timestamp === "number" && msg.timestamp !== cur.timestamp) {
                t.fail(`timestamp ${cur.timestamp} as started`, `${where(ev, c)} ends with timestamp ${msg.timestamp}`, frameEvidence(ev));
              } else t.ok();
              return;
            case "message_update":
              updates++;
              if (!cur || cur.role !== "assistant") {
                t.fail("message_update inside an assistant message", `${where(ev, c)} arrives ${cur ? `inside a ${excerpt(cur.role)} message` : "outside any message"}`, frameEvidence(ev));
              }
              return;
            case "session_changed":
              // A session change may cut the message short (§3 r12): the next message starts afresh.
              open.delete(c.id);
              return;
            case "agent_end":
              if (cur) t.fail("message_end before agent_end", `${where(ev, c)} ends the run with the ${excerpt(cur.role)} message of seq ${cur.ev.seq} open`, frameEvidence(ev));
              open.delete(c.id);
              return;
            default:
              return;
          }
        },
        close: (_ev, c) => open.delete(c.id),
      },
      { clientsOnly: true },
    );
    return { observe, finish: () => t.outcome(`${t.count} message(s) were properly nested (${updates} update(s))`, "no message was observed") };
  }),
  serverCheck("pi-web/event/error-run", { notApplicableWhen: [TOPIC.providerError] }, (t) => {
    const pendingEnd = new Map<string, FrameEvent>();
    /** The prompts meant to provoke a provider failure, as sent. */
    const sent: string[] = [];
    const r = rpc({
      command: (cmd) => {
        if (cmd.label === M.prompt("error") || cmd.label === M.prompt("error-retry")) sent.push(cmd.label);
      },
      response: (ev, resp, cmd, how, c) => {
        if (!cmd || (cmd.label !== M.prompt("error") && cmd.label !== M.prompt("error-retry")) || (how !== "exact" && how !== "inexact")) return;
        if (resp.success !== true) t.fail("a successful prompt and an error message", `${where(ev, c)}: ${showCommand(cmd)} failed (${excerpt(resp.error)}) instead of running into an error message`, frameEvidence(ev));
      },
      event: (ev, type, v, c) => {
        if (type === "message_end" && isObject(v.message) && v.message.role === "assistant" && v.message.stopReason === "error") {
          pendingEnd.set(c.id, ev);
        } else if (type === "agent_end" && pendingEnd.delete(c.id)) t.ok();
        else if (type === "agent_start" && pendingEnd.has(c.id)) {
          t.fail("agent_end after the error message", `${where(ev, c)} starts a run after the error message of seq ${pendingEnd.get(c.id)!.seq} without agent_end`, frameEvidence(ev));
          pendingEnd.delete(c.id);
        }
      },
      close: (_ev, c) => {
        if (pendingEnd.delete(c.id)) t.untestable("the socket closed after an error message");
      },
    });
    return {
      observe: r.observe,
      finish: () => {
        r.end();
        if (pendingEnd.size > 0) t.untestable("no agent_end had followed the error message when the probes ended");
        // Only what was observed: whether the target can fail on demand is not known here.
        const prompts = sent.length ? `the prompt(s) meant to provoke one (${sent.join(", ")}) did not all run to their end` : "no prompt meant to provoke one was sent";
        return t.outcome(`${t.count} provider failure(s) ended as error messages followed by agent_end`, `no assistant message ended with stopReason "error": ${prompts}`);
      },
    };
  }),
];
