/** §3 rules 26–27: extension UI dialogs, their replies, and replies that must be ignored. */
import { endThen, excerpt, type CheckDef } from "../../../core/checks/check.js";
import { C, M, TOPIC } from "../labels.js";
import { frameEvidence, isObject, rpc, serverCheck, textOf, where, type Conn, type FrameEvent } from "./support.js";

export const DIALOG_METHODS: ReadonlySet<string> = new Set(["select", "confirm", "input", "editor"]);

export const EXT_CHECKS: CheckDef[] = [
  serverCheck("pi-web/ext/dialog-resolves", { notApplicableWhen: [TOPIC.dialogs] }, (t) => {
    const dialogs = new Map<string, string>();
    const replied = new Set<string>();
    let waiting: { id: string; method: string; reply: FrameEvent; conn: Conn } | undefined;
    const unresolved = () => {
      if (!waiting) return;
      t.fail(`the ${waiting.method} dialog resolved by its reply`, `nothing followed the reply to ${waiting.method} ${JSON.stringify(waiting.id)} (${where(waiting.reply, waiting.conn)})`, frameEvidence(waiting.reply));
      waiting = undefined;
    };
    /** Anything the server sends to the replying connection after the reply counts as progress. */
    const progress = (c: Conn) => {
      if (waiting && c.id === waiting.conn.id) {
        t.ok();
        waiting = undefined;
      }
    };
    const r = rpc({
      event: (_ev, type, v, c) => {
        progress(c);
        if (type === "extension_ui_request" && typeof v.id === "string" && typeof v.method === "string" && DIALOG_METHODS.has(v.method)) dialogs.set(v.id, v.method);
      },
      response: (_ev, _resp, _cmd, _how, c) => progress(c),
      reply: (ev, v, c) => {
        const id = typeof v.id === "string" ? v.id : undefined;
        if (!id || !dialogs.has(id) || replied.has(id)) return;
        replied.add(id);
        unresolved();
        waiting = { id, method: dialogs.get(id)!, reply: ev, conn: c };
      },
      command: (cmd) => {
        if (waiting && cmd.conn.id === waiting.conn.id) unresolved();
      },
    });
    return {
      observe: r.observe,
      finish: () => {
        r.end();
        unresolved();
        return t.outcome(`${t.count} dialog reply(ies) unblocked their operation`, "no dialog was requested and answered");
      },
    };
  }),
  serverCheck("pi-web/ext/first-reply-wins", { notApplicableWhen: [TOPIC.dialogs] }, (t) => {
    const first = new Map<string, { value: string; conn: string }>();
    let pair: { first: string; second: string; method: string } | undefined;
    const r = rpc({
      reply: (_ev, v, c) => {
        if (typeof v.id !== "string" || typeof v.value !== "string") return;
        const f = first.get(v.id);
        if (!f) first.set(v.id, { value: v.value, conn: c.id });
        else if (v.value === f.value) return;
        // "First" is the order the server read them in: one socket keeps the order they were sent in,
        // two sockets do not (whichever the server reads first wins), so only a pair on one socket is judged.
        else if (c.id === f.conn) pair = { first: f.value, second: v.value, method: "select" };
        else t.untestable("the two replies to a dialog went on different sockets, so which one the server read first is unknown");
      },
      event: (ev, type, v, c) => {
        if (!pair || c.label !== C.main || type !== "message_end" || !isObject(v.message) || v.message.role !== "assistant") return;
        const text = textOf(v.message.content);
        const m = /\bselect=(\S+)/.exec(text);
        if (!m) return;
        if (m[1] === pair.first) t.ok();
        else t.fail(`select=${pair.first} (the first reply)`, `${where(ev, c)} reports select=${excerpt(m[1])}; the second reply was ${JSON.stringify(pair.second)}`, frameEvidence(ev));
        pair = undefined;
      },
    });
    return endThen(r, () => t.outcome("the operation used the first of two replies", "no operation reported which of two replies it used"));
  }),
  serverCheck("pi-web/ext/stray-reply-ignored", (t) => {
    const stray = new Map<string, FrameEvent>();
    let sent = 0;
    let alive = false;
    const r = rpc({
      reply: (ev, v) => {
        if (ev.label !== M.strayUnknown && ev.label !== M.strayFireAndForget && ev.label !== M.secondReply) return;
        sent++;
        if (typeof v.id === "string") stray.set(`${ev.connection}\u0000${v.id}`, ev);
      },
      response: (ev, resp, cmd, how, c) => {
        if (how === "reply" && typeof resp.id === "string") {
          const reply = stray.get(`${c.id}\u0000${resp.id}`);
          if (reply) t.fail("no frame answers the reply", `${where(ev, c)} answers the ${reply.label} reply ${JSON.stringify(resp.id)}`, frameEvidence(ev));
        }
        if (cmd?.label === M.stateAfterStray && (how === "exact" || how === "inexact")) alive = true;
      },
      close: (ev, c) => {
        if (sent > 0 && !alive && ev.by !== "kit") t.fail("the socket stays open", `the server closed ${c.label} (code ${ev.code ?? "none"}) after stray replies`, {});
      },
    });
    return {
      observe: r.observe,
      finish: () => {
        r.end();
        if (sent > 0 && alive && t.failures === 0) t.ok();
        return t.outcome(`${sent} stray reply(ies) got no frame and the socket stayed open`, "no stray reply was sent, or the socket's survival was never confirmed");
      },
    };
  }),
];
