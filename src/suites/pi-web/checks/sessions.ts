/** §3 rules 21–24: list_sessions, switch_session, new_session and session_changed. */
import { endThen, excerpt, type CheckDef, type Outcome } from "../../../core/checks/check.js";
import { M } from "../labels.js";
import { forkAllowances } from "../params.js";
import { all, answerMissed, frameEvidence, isObject, knockOnUnanswered, rpc, serverCheck, showCommand, Tally, where, type Command, type FrameEvent, type Json } from "./support.js";

const answered = (how: string): boolean => how === "exact" || how === "inexact";

interface Answer {
  cmd: Command;
  ev: FrameEvent;
  resp: Json;
  data: Json | undefined;
}

/** The first answer of each labelled command (on any client connection), for end-of-run judgement. */
function answersByLabel() {
  const byLabel = new Map<string, Answer>();
  const sent = new Map<string, Command>();
  const missed = new Map<string, Command>();
  const r = rpc({
    command: (cmd) => {
      if (cmd.label) sent.set(cmd.label, cmd);
    },
    response: (ev, resp, cmd, how) => {
      if (!cmd?.label || !answered(how) || byLabel.has(cmd.label)) return;
      byLabel.set(cmd.label, { cmd, ev, resp, data: isObject(resp.data) ? resp.data : undefined });
    },
    unanswered: (cmd, why, ev) => {
      if (cmd.label && answerMissed(cmd, why, ev)) missed.set(cmd.label, cmd);
    },
  });
  return {
    observe: r.observe,
    end: r.end,
    get: (label: string) => byLabel.get(label),
    sent: (label: string) => sent.get(label),
    /** Names rpc/response-per-command when the first of `labels` that was never answered failed it. */
    knockOn(t: Tally, ...labels: string[]): Tally {
      const cmd = labels.map((l) => missed.get(l)).find((c) => c !== undefined);
      if (cmd) knockOnUnanswered(t, cmd);
      return t;
    },
  };
}

type Summary = { path: string; id?: unknown; messageCount?: unknown; modified?: unknown };

function sessionsOf(a: Answer | undefined): Summary[] | undefined {
  const list = a?.data?.sessions;
  if (a?.resp.success !== true || !Array.isArray(list)) return undefined;
  return list.filter((s): s is Summary => isObject(s) && typeof s.path === "string");
}

const paths = (list: Summary[]): string[] => [...new Set(list.map((s) => s.path))].sort();
const sameSet = (a: string[], b: string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

export const SESSION_CHECKS: CheckDef[] = [
  serverCheck("pi-web/cmd/list-sessions", (t) => {
    const r = rpc({
      response: (ev, resp, cmd, how, c) => {
        if (cmd?.type !== "list_sessions" || !answered(how) || resp.success !== true) return;
        const list = isObject(resp.data) && Array.isArray(resp.data.sessions) ? resp.data.sessions : undefined;
        if (!list) return; // rpc/result-shape
        const times = list.map((s) => (isObject(s) && typeof s.modified === "string" ? Date.parse(s.modified) : NaN));
        if (list.length < 2 || times.some(Number.isNaN)) {
          t.untestable(list.length < 2 ? "fewer than two sessions were listed" : "a `modified` time did not parse");
          return;
        }
        const i = times.findIndex((x, k) => k > 0 && x > times[k - 1]!);
        if (i < 0) t.ok();
        else {
          const a = list[i - 1] as Json;
          const b = list[i] as Json;
          t.fail("newest first", `${where(ev, c)} to ${showCommand(cmd)}: #${i - 1} (${excerpt(a.modified)}) is older than #${i} (${excerpt(b.modified)})`, frameEvidence(ev));
        }
      },
    });
    return endThen(r, () => t.outcome(`${t.count} listing(s) were sorted newest first`, "no listing of two or more sessions"));
  }),
  serverCheck({
    id: "pi-web/cmd/list-sessions-default-scope",
    create(ctx) {
      const a = answersByLabel();
      return {
        observe: a.observe,
        finish: (): Outcome => {
          a.end();
          const all = sessionsOf(a.get(M.sessionsAll));
          const dflt = a.get(M.sessionsDefault);
          const def = sessionsOf(dflt);
          if (!all || !def || !dflt) return a.knockOn(new Tally(), M.sessionsAll, M.sessionsDefault).outcome("", "list_sessions with and without scope did not both succeed");
          const pa = paths(all);
          const pd = paths(def);
          if (sameSet(pa, pd)) return { verdict: "pass", message: `no scope listed the same ${pa.length} session(s) as scope "all"` };
          const cwd = sessionsOf(a.get(M.sessionsCwd));
          if (forkAllowances(ctx.params).defaultScopeCwd && cwd && sameSet(paths(cwd), pd)) {
            return { verdict: "pass", message: `no scope listed the cwd set (${pd.length} session(s)), which pi-fork-0.54 accepts` };
          }
          const missing = pa.filter((p) => !pd.includes(p));
          return {
            verdict: "fail",
            message: `no scope listed ${pd.length} session(s), scope "all" ${pa.length}${missing.length ? `; missing ${excerpt(missing[0])}` : ""}`,
            expected: 'the same set as scope "all"',
            actual: `${pd.length} vs ${pa.length} session(s)`,
            evidence: [frameEvidence(dflt.ev)],
          };
        },
      };
    },
  }),
  serverCheck({
    id: "pi-web/cmd/switch-session",
    create() {
      const a = answersByLabel();
      return {
        observe: a.observe,
        finish: (): Outcome => {
          a.end();
          const t = new Tally();
          const sw = a.get(M.switchListed);
          if (!sw) return a.knockOn(t, M.switchListed).outcome("", "no switch_session to a listed path was answered");
          const path = sw.cmd.value.sessionPath;
          const listed = (sessionsOf(a.get(M.sessionsAll)) ?? []).find((s) => s.path === path);
          if (sw.resp.success !== true || sw.data?.cancelled !== false) {
            t.fail("{cancelled:false}", `${where(sw.ev, sw.cmd.conn)} to switch_session ${excerpt(path)}: ${excerpt(sw.resp)}`, frameEvidence(sw.ev));
            return t.outcome("");
          }
          const before = a.get(M.stateAfterNew)?.data;
          const after = a.get(M.stateAfterSwitch);
          const history = a.get(M.messagesAfterSwitch);
          if (!after?.data) return a.knockOn(t, M.stateAfterSwitch).outcome("", "get_state after the switch did not answer");
          const d = after.data;
          if (typeof d.sessionFile === "string" && d.sessionFile !== path) {
            t.fail(`sessionFile ${excerpt(path)}`, `${where(after.ev, after.cmd.conn)}: sessionFile is ${excerpt(d.sessionFile)}`, frameEvidence(after.ev));
          } else if (typeof listed?.id === "string" && typeof d.sessionId === "string" && d.sessionId !== listed.id) {
            t.fail(`sessionId ${excerpt(listed.id)} (the listed session)`, `${where(after.ev, after.cmd.conn)}: sessionId is ${excerpt(d.sessionId)}`, frameEvidence(after.ev));
          } else if (typeof d.sessionId === "string" && d.sessionId === before?.sessionId) {
            t.fail("a different sessionId after the switch", `${where(after.ev, after.cmd.conn)}: sessionId ${excerpt(d.sessionId)} is the one before the switch`, frameEvidence(after.ev));
          } else t.ok();
          const messages = history?.data?.messages;
          if (Array.isArray(messages) && typeof listed?.messageCount === "number" && listed.messageCount > 0 && messages.length === 0) {
            t.fail(`the session's history (${listed.messageCount} message(s))`, `${where(history!.ev, history!.cmd.conn)}: get_messages is empty after the switch`, frameEvidence(history!.ev));
          }
          return t.outcome(`switch_session to ${excerpt(path)} switched the session and its history`);
        },
      };
    },
  }),
  serverCheck({
    id: "pi-web/cmd/switch-session-missing",
    create(ctx) {
      const a = answersByLabel();
      let changed: FrameEvent | undefined;
      let watching: Command | undefined;
      const r = rpc({
        command: (cmd) => {
          if (cmd.label === M.switchMissing) watching = cmd;
        },
        event: (ev, type, _v, c) => {
          if (type === "session_changed" && watching && c.id === watching.conn.id) changed ??= ev;
        },
        response: (_ev, _resp, cmd) => {
          if (cmd && cmd === watching) watching = undefined;
        },
      });
      const observe = all(a.observe, r.observe);
      return {
        observe,
        finish: (): Outcome => {
          a.end();
          r.end();
          const t = new Tally();
          const sw = a.get(M.switchMissing);
          if (!sw) return a.knockOn(t, M.switchMissing).outcome("", "no switch_session to a missing path was answered");
          if (sw.resp.success === true && forkAllowances(ctx.params).switchMissingCreates) {
            return { verdict: "pass", message: "switch_session to a missing path succeeded, which pi-fork-0.54 accepts" };
          }
          if (sw.resp.success !== false) {
            t.fail("a failure", `${where(sw.ev, sw.cmd.conn)} to switch_session ${excerpt(sw.cmd.value.sessionPath)}: ${excerpt(sw.resp)}`, frameEvidence(sw.ev));
            return t.outcome("");
          }
          if (changed) t.fail("no session_changed", `${where(changed)} came with the failed switch`, frameEvidence(changed));
          const before = a.get(M.stateAfterSwitch)?.data;
          const after = a.get(M.stateAfterMissing);
          if (typeof before?.sessionId === "string" && typeof after?.data?.sessionId === "string" && before.sessionId !== after.data.sessionId) {
            t.fail(`sessionId still ${excerpt(before.sessionId)}`, `${where(after.ev, after.cmd.conn)}: sessionId is ${excerpt(after.data.sessionId)}`, frameEvidence(after.ev));
          }
          if (t.failures === 0) t.ok();
          return t.outcome(`the switch to a missing path failed (${excerpt(sw.resp.error, 60)}) and changed nothing`);
        },
      };
    },
  }),
  serverCheck({
    id: "pi-web/cmd/new-session",
    create() {
      const a = answersByLabel();
      return {
        observe: a.observe,
        finish: (): Outcome => {
          a.end();
          const t = new Tally();
          const n = a.get(M.newSession);
          if (!n) return a.knockOn(t, M.newSession).outcome("", "no new_session was answered");
          if (n.resp.success !== true || n.data?.cancelled !== false) {
            t.fail("{cancelled:false}", `${where(n.ev, n.cmd.conn)}: ${excerpt(n.resp)}`, frameEvidence(n.ev));
            return t.outcome("");
          }
          const before = a.get(M.stateBeforeNew)?.data;
          const after = a.get(M.stateAfterNew);
          const history = a.get(M.messagesAfterNew);
          if (!after?.data) return a.knockOn(t, M.stateAfterNew).outcome("", "get_state after new_session did not answer");
          const d = after.data;
          const w = where(after.ev, after.cmd.conn);
          if (typeof d.sessionId === "string" && d.sessionId === before?.sessionId) t.fail("a new sessionId", `${w}: sessionId ${excerpt(d.sessionId)} is unchanged`, frameEvidence(after.ev));
          else if (typeof d.messageCount === "number" && d.messageCount !== 0) t.fail("messageCount 0", `${w}: messageCount ${d.messageCount}`, frameEvidence(after.ev));
          const messages = history?.data?.messages;
          if (Array.isArray(messages) && messages.length > 0) {
            t.fail("an empty history", `${where(history!.ev, history!.cmd.conn)}: get_messages returns ${messages.length} message(s)`, frameEvidence(history!.ev));
          }
          if (t.failures === 0) t.ok();
          return t.outcome(`new_session gave a new, empty session (${typeof before?.messageCount === "number" ? `${before.messageCount} message(s) before` : "count before unknown"})`);
        },
      };
    },
  }),
  serverCheck("pi-web/session/changed", (t) => {
    interface W {
      cmd: Command;
      changed?: { ev: FrameEvent; value: Json };
      answered?: boolean;
    }
    const watching = new Map<string, W>();
    /** After a success: the session_changed waiting for the next get_state on that connection. */
    const compare = new Map<string, { ev: FrameEvent; value: Json }>();
    const r = rpc({
      command: (cmd) => {
        if (cmd.type === "new_session" || cmd.type === "switch_session") watching.set(cmd.conn.id, { cmd });
      },
      event: (ev, type, v, c) => {
        if (type !== "session_changed") return;
        const w = watching.get(c.id);
        if (w && !w.answered) w.changed ??= { ev, value: v };
      },
      response: (ev, resp, cmd, how, c) => {
        if (!cmd || !answered(how)) return;
        const w = watching.get(c.id);
        if (w && w.cmd === cmd) {
          watching.delete(c.id);
          const data = isObject(resp.data) ? resp.data : undefined;
          if (resp.success !== true || data?.cancelled !== false) return;
          const reason = cmd.type === "new_session" ? "new" : "switch";
          if (!w.changed) {
            t.fail(`session_changed{reason:"${reason}"} before the response`, `${where(ev, c)} answered ${showCommand(cmd)} with no session_changed before it`, frameEvidence(ev));
            return;
          }
          if (w.changed.value.reason !== reason) {
            t.fail(`reason "${reason}"`, `${where(w.changed.ev, c)} has reason ${excerpt(w.changed.value.reason)}`, frameEvidence(w.changed.ev));
            return;
          }
          compare.set(c.id, w.changed);
          return;
        }
        const ch = compare.get(c.id);
        if (!ch || cmd.type !== "get_state") return;
        compare.delete(c.id);
        const d = isObject(resp.data) ? resp.data : undefined;
        if (resp.success !== true || !d) return;
        // Required fields are compared when both carry them (a missing one is a schema finding);
        // optional ones must be present on both or neither.
        const required = ["sessionId", "messageCount"].filter((k) => k in ch.value && k in d && ch.value[k] !== d[k]);
        const optional = ["sessionFile", "sessionName"].filter((k) => (k in ch.value || k in d) && ch.value[k] !== d[k]);
        const diffs = [...required, ...optional];
        if (diffs.length === 0) t.ok();
        else {
          const k = diffs[0]!;
          t.fail("session_changed fields equal to the next get_state", `${where(ch.ev, c)}: ${k} ${excerpt(ch.value[k])}, but ${where(ev, c)} says ${excerpt(d[k])}`, frameEvidence(ch.ev));
        }
      },
    });
    return endThen(r, () => t.outcome(`${t.count} session change(s) were announced before their response and matched get_state`, "no successful new_session or switch_session"));
  }),
];
