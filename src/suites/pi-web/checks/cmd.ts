/** §2.1–§2.2 and §3 rules 5–6, 11, 18–20: prompt, abort, clear_queue, get_state, get_messages. */
import { endThen, excerpt, type CheckDef, type Outcome } from "../../../core/checks/check.js";
import { cutByKit } from "../../../core/transport/ws-limits.js";
import { isRunPrompt, M, TOPIC } from "../labels.js";
import { forkAllowances, readParams } from "../params.js";
import {
  all,
  answerMissed,
  frameEvidence,
  isObject,
  jsonDiff,
  jsonEqual,
  knockOnUnanswered,
  messageOf,
  EdgeRaces,
  rpc,
  runViews,
  serverCheck,
  showCommand,
  textOf,
  where,
  type Command,
  type FrameEvent,
  type Json,
} from "./support.js";

const answered = (how: string): boolean => how === "exact" || how === "inexact";

/** The parsed responses a command got on its socket, in order. */
function answersOf(cmd: Command): Json[] {
  return cmd.answers.flatMap((a) => {
    const m = messageOf(a);
    return m.kind === "object" ? [m.value] : [];
  });
}

const describeAnswers = (rs: Json[]): string =>
  rs.length === 0 ? "no response" : rs.map((r) => (r.success === true ? "success" : r.success === false ? `failure (${excerpt(r.error, 60)})` : `success ${excerpt(r.success)}`)).join(" + ");

/**
 * A rule over the answers a labelled prompt got, judged at the end (answers may arrive late).
 * `midRun` requires the run to be open when the prompt was sent.
 */
function promptAnswerCheck(opts: {
  id: string;
  label: string;
  midRun: boolean;
  judge: (answers: Json[], fork: boolean) => string | undefined;
  expected: string;
}): CheckDef {
  return serverCheck(opts.id, (t, ctx) => {
    const fork = forkAllowances(ctx.params).latePromptFailure;
    const runs = runViews();
    const sent: Command[] = [];
    const got: string[] = [];
    const epochAtSend = new Map<Command, number>();
    const missed = new Set<Command>();
    const races = new EdgeRaces();
    const raced = new Set<Command>();
    const r = rpc({
      command: (cmd) => {
        if (cmd.label !== opts.label) return;
        if (opts.midRun && !runs.view(cmd.conn.id).open) t.untestable("the run had ended before the prompt was sent");
        else {
          sent.push(cmd);
          epochAtSend.set(cmd, runs.view(cmd.conn.id).epoch);
        }
      },
      response: (ev, resp, cmd, how, c) => {
        // A busy prompt answered after the run ended raced the run's end: the server may have been idle.
        if (opts.midRun && cmd && epochAtSend.has(cmd) && (how === "exact" || how === "inexact") && runs.view(c.id).epoch !== epochAtSend.get(cmd)) {
          sent.splice(sent.indexOf(cmd), 1);
          t.untestable("the prompt's answer came after the run had ended");
        } else if (opts.midRun && cmd && epochAtSend.has(cmd) && resp.success === true) {
          // Accepted while the run looked open: the server may have ended it already (see EdgeRaces).
          races.hold(c.id, "agent_end", ev.t, (edge) => void (edge && raced.add(cmd)));
        }
      },
      event: (ev, type, _v, c) => races.event(c.id, type, ev.t),
      close: (_ev, c) => races.close(c.id),
      unanswered: (cmd, why, ev) => {
        if (answerMissed(cmd, why, ev)) missed.add(cmd);
      },
    });
    return {
      observe: all(runs.observe, r.observe),
      finish: () => {
        r.end();
        races.end();
        for (const cmd of sent) {
          if (raced.has(cmd)) {
            t.untestable(`${showCommand(cmd)} was accepted right before the run's agent_end: it raced the run's end`);
            continue;
          }
          const rs = answersOf(cmd);
          if (rs.length === 0) {
            if (missed.has(cmd)) knockOnUnanswered(t, cmd);
            else t.untestable(`${showCommand(cmd)} got no response`);
            continue;
          }
          const bad = opts.judge(rs, fork);
          if (bad) t.fail(opts.expected, `${where(cmd.frame, cmd.conn)} got ${describeAnswers(rs)}: ${bad}`, frameEvidence(cmd.answers[0]!));
          else {
            t.ok();
            got.push(describeAnswers(rs));
          }
        }
        return t.outcome(`${opts.label} was answered: ${got.join("; ")}`, `no ${opts.label} prompt was sent`);
      },
    };
  });
}

/** `want` appears in `tail` in order, and its last item is the last of `tail`. */
function endsWithInOrder(tail: unknown[], want: unknown[]): boolean {
  if (want.length === 0) return true;
  if (!jsonEqual(tail[tail.length - 1], want[want.length - 1])) return false;
  let i = 0;
  for (const m of tail) if (i < want.length && jsonEqual(m, want[i])) i++;
  return i === want.length;
}

/** Fork: a success plus one failure (either order) stands for the late prompt failure. */
const forkPair = (rs: Json[]): boolean => rs.length === 2 && rs.some((r) => r.success === true) && rs.some((r) => r.success === false);

export const CMD_CHECKS: CheckDef[] = [
  serverCheck("pi-web/cmd/prompt-accepted", (t, ctx) => {
    const { firstEventMs } = readParams(ctx.params);
    interface P {
      cmd: Command;
      success?: boolean;
      started?: boolean;
    }
    let pending: P | undefined;
    const close = (p: P, why: string | undefined) => {
      if (p.success === true && !p.started) {
        if (why) t.fail(`agent_start within ${firstEventMs} ms`, `${where(p.cmd.frame, p.cmd.conn)}: succeeded but ${why}`, frameEvidence(p.cmd.frame));
      }
      if (pending === p) pending = undefined;
    };
    const r = rpc({
      command: (cmd) => {
        if (cmd.type !== "prompt" || !cmd.label?.startsWith("prompt:")) return;
        if (pending) close(pending, "no agent_start came before the next prompt");
        if (isRunPrompt(cmd.label)) pending = { cmd };
      },
      response: (ev, resp, cmd, how, c) => {
        if (!pending || cmd !== pending.cmd || !answered(how)) return;
        pending.success = resp.success === true;
        if (resp.success !== true) {
          t.fail("a success", `${where(ev, c)}: the idle ${showCommand(cmd)} failed: ${excerpt(resp.error)}`, frameEvidence(ev));
          pending = undefined;
        } else if ("data" in resp) {
          t.fail("a success without data", `${where(ev, c)} carries data ${excerpt(resp.data)}`, frameEvidence(ev));
        } else if (pending.started) pending = undefined;
      },
      event: (ev, type, _v, c) => {
        if (type !== "agent_start" || !pending || pending.started || c.id !== pending.cmd.conn.id) return;
        const ms = ev.t - pending.cmd.frame.t;
        pending.started = true;
        if (ms <= firstEventMs) t.ok();
        else t.failLate(ev.t, ms - firstEventMs, `agent_start within ${firstEventMs} ms`, `${where(ev, c)} came ${Math.round(ms)} ms after ${showCommand(pending.cmd)}`, frameEvidence(ev));
        if (pending.success !== undefined) pending = undefined;
      },
      unanswered: (cmd) => {
        if (pending?.cmd === cmd && pending.success === undefined) {
          t.untestable(`${showCommand(cmd)} got no response`);
          pending = undefined;
        }
      },
      close: (ev, c) => {
        // The kit stopped reading before the run's start was read: it may have been in what the kit did not read.
        const cut = cutByKit(ev);
        if (!pending || pending.started || c.id !== pending.cmd.conn.id || cut === undefined) return;
        t.untestable(`${showCommand(pending.cmd)}: the kit stopped reading ${c.label} before an agent_start (${cut})`);
        pending = undefined;
      },
    });
    return {
      observe: r.observe,
      finish: () => {
        r.end();
        if (pending) close(pending, "no agent_start followed");
        return t.outcome(`${t.count} idle prompt(s) succeeded and started a run in time`, "no idle prompt was sent");
      },
    };
  }),
  promptAnswerCheck({
    id: "pi-web/cmd/prompt-busy",
    label: M.busyPrompt,
    midRun: true,
    expected: "only a failure",
    judge: (rs, fork) => {
      if (rs.every((r) => r.success === false)) return undefined;
      if (fork && forkPair(rs)) return undefined;
      return "a busy prompt must be rejected, not accepted";
    },
  }),
  promptAnswerCheck({
    id: "pi-web/cmd/prompt-invalid",
    label: M.invalidPrompt,
    midRun: false,
    expected: "a failure",
    judge: (rs, fork) => {
      if (rs.some((r) => r.success === false) && rs.every((r) => r.success === false)) return undefined;
      if (fork && forkPair(rs)) return undefined;
      return "an invalid prompt must be rejected";
    },
  }),
  serverCheck("pi-web/cmd/prompt-images", (t) => {
    let expect: { cmd: Command; text: unknown; images: unknown[]; armed: boolean; start?: Json } | undefined;
    const judge = (message: unknown, ev: FrameEvent) => {
      const e = expect!;
      expect = undefined;
      const content = isObject(message) ? message.content : undefined;
      const want = [{ type: "text", text: e.text }, ...e.images.map((i) => (isObject(i) ? { type: "image", mimeType: i.mimeType, data: i.data } : i))];
      if (Array.isArray(content) && jsonEqual(content.map((p) => (isObject(p) && p.type === "text" ? { type: "text", text: p.text } : p)), want)) t.ok();
      else {
        const d = jsonDiff(content, want);
        t.fail("[text, ...images] as sent", `${where(ev)}: the user echo content differs (${d ?? "shape"})`, frameEvidence(ev));
      }
    };
    const r = rpc({
      command: (cmd) => {
        if (cmd.label === M.images) expect = { cmd, text: cmd.value.message, images: Array.isArray(cmd.value.images) ? cmd.value.images : [], armed: false };
        else if (expect && cmd.type === "prompt") {
          // The run of the images prompt never started: nothing to judge.
          if (!expect.armed) t.untestable("the prompt with images started no run");
          expect = undefined;
        }
      },
      event: (ev, type, v, c) => {
        if (!expect || c.id !== expect.cmd.conn.id) return;
        if (type === "agent_start") expect.armed = true;
        if (!expect.armed) return;
        const role = isObject(v.message) ? v.message.role : undefined;
        if (type === "message_start" && role === "user") expect.start = v;
        else if (type === "message_end" && role === "user") judge(v.message, ev);
        else if ((type === "message_start" || type === "agent_end") && expect.start) judge(expect.start.message, ev);
      },
    });
    return endThen(r, () => t.outcome("the user echo carried the text, then the images unchanged", "no prompt with images was echoed"));
  }),
  serverCheck("pi-web/cmd/get-state-streaming", (t) => {
    const runs = runViews();
    const sent = new Map<Command, { open: boolean; epoch: number }>();
    const races = new EdgeRaces();
    const r = rpc({
      command: (cmd) => {
        races.command(cmd.conn.id, cmd.type);
        if (cmd.type !== "get_state" || (cmd.label !== M.midRun("state") && cmd.label !== M.stateAfterRun)) return;
        const v = runs.view(cmd.conn.id);
        sent.set(cmd, { open: v.open, epoch: v.epoch });
      },
      response: (ev, resp, cmd, how, c) => {
        const s = cmd && sent.get(cmd);
        if (!s || !answered(how)) return;
        sent.delete(cmd!);
        if (runs.view(c.id).epoch !== s.epoch) {
          t.untestable(`${showCommand(cmd!)} raced a run edge`);
          return;
        }
        const data = isObject(resp.data) ? resp.data : undefined;
        if (typeof data?.isStreaming !== "boolean") return; // rpc/result-shape
        if (data.isStreaming === s.open) return t.ok();
        const edge = s.open ? "agent_end" : "agent_start";
        races.hold(c.id, edge, ev.t, (raced) => {
          if (raced) t.untestable(`${showCommand(cmd!)} was answered with isStreaming ${data.isStreaming} right before ${edge}: it raced the run's edge`);
          else t.fail(`isStreaming ${s.open} ${s.open ? "inside a run" : "after agent_end"}`, `${where(ev, c)} to ${showCommand(cmd!)} says isStreaming ${data.isStreaming}`, frameEvidence(ev));
        });
      },
      event: (ev, type, _v, c) => races.event(c.id, type, ev.t),
      close: (_ev, c) => races.close(c.id),
    });
    return {
      observe: all(runs.observe, r.observe),
      finish: () => {
        r.end();
        races.end();
        return t.outcome(`${t.count} get_state answer(s) matched the run state`, "no get_state was answered inside and after a run");
      },
    };
  }),
  serverCheck("pi-web/cmd/get-messages", (t) => {
    const runs = runViews();
    /**
     * Reads sent since a connection's last agent_end. Their judgement waits: a further run the
     * server opens by itself (§3 r12; a retry first drops the failed reply from the history)
     * means the read was not "after the run", so it is dropped; the next agent_start, close or
     * the end of the transcript confirms it.
     */
    interface Window {
      state: "open" | "confirmed" | "further-run";
      held: (() => void)[];
      why?: string;
    }
    const windows = new Map<string, Window>();
    const settle = (conn: string, state: "confirmed" | "further-run", why?: string) => {
      const w = windows.get(conn);
      if (!w) return;
      windows.delete(conn);
      w.state = state;
      if (why) w.why = why;
      if (state === "confirmed") for (const judge of w.held) judge();
      else if (w.held.length) t.untestable(`history was read between agent_end and the further run the server opened (${why})`);
      w.held = [];
    };
    const sent = new Map<Command, { messages: unknown[]; end: FrameEvent; started: number; window: Window; extrasWrong: boolean }>();
    /** Messages started in the current run, per connection. */
    const started = new Map<string, number>();
    const lastStarted = new Map<string, number>();
    /** The current run's message_end messages, and whether the last agent_end repeated them faithfully. */
    const ended = new Map<string, unknown[]>();
    const faithful = new Map<string, boolean>();
    const r = rpc({
      event: (ev, type, v, c) => {
        if (type === "agent_start") {
          // A read still unanswered when a run starts may have been served after that run (its
          // answer trails on a slow link): no yardstick for it.
          for (const [cmd, s] of sent) {
            if (cmd.conn.id !== c.id || s.window !== windows.get(c.id)) continue;
            sent.delete(cmd);
            t.untestable(`${showCommand(cmd)} was still unanswered when the next run started (${where(ev, c)}): its history may hold that run`);
          }
          settle(c.id, "confirmed");
          started.set(c.id, 0);
          ended.set(c.id, []);
        } else if (type === "message_start") started.set(c.id, (started.get(c.id) ?? 0) + 1);
        else if (type === "message_end") ended.get(c.id)?.push(v.message);
        else if (type === "agent_end") {
          settle(c.id, "confirmed");
          faithful.set(c.id, !ended.has(c.id) || jsonEqual(v.messages, ended.get(c.id)));
          ended.delete(c.id);
          lastStarted.set(c.id, started.get(c.id) ?? 0);
          windows.set(c.id, { state: "open", held: [] });
        } else if (type === "auto_retry_start" || type === "auto_compaction_start") settle(c.id, "further-run", type);
      },
      command: (cmd) => {
        if (cmd.type !== "get_messages" || !cmd.label?.startsWith("history:")) return;
        const v = runs.view(cmd.conn.id);
        const window = windows.get(cmd.conn.id);
        if (v.open || !v.lastEnd || v.lastEnd.epoch !== v.epoch || !window) {
          t.untestable(`${showCommand(cmd)} was not sent right after a finished run`);
          return;
        }
        if (!Array.isArray(v.lastEnd.messages)) return; // framing/server-schema
        sent.set(cmd, { messages: v.lastEnd.messages, end: v.lastEnd.ev, started: lastStarted.get(cmd.conn.id) ?? 0, window, extrasWrong: faithful.get(cmd.conn.id) === false });
      },
      response: (ev, resp, cmd, how, c) => {
        const s = cmd && sent.get(cmd);
        if (!s || !answered(how)) return;
        sent.delete(cmd!);
        const judge = () => {
          const history = isObject(resp.data) ? resp.data.messages : undefined;
          if (resp.success !== true || !Array.isArray(history)) {
            t.untestable(`${showCommand(cmd!)} did not return a history`);
            return;
          }
          // The run's messages end the history, in order; messages the run started but agent_end
          // leaves out may sit between them (event/extras-consistent judges that omission).
          const n = Math.max(s.messages.length, s.started);
          const tail = history.slice(Math.max(0, history.length - n));
          if (endsWithInOrder(tail, s.messages)) t.ok();
          // agent_end.messages did not repeat the run's messages (event/extras-consistent's failure): it is no yardstick.
          else if (s.extrasWrong) t.knockOn("pi-web/event/extras-consistent", where(s.end));
          else {
            const plain = history.slice(Math.max(0, history.length - s.messages.length));
            const diff = history.length < s.messages.length ? `the history has ${history.length} message(s), the run ${s.messages.length}` : jsonDiff(plain, s.messages);
            t.fail("a history ending with agent_end.messages", `${where(ev, c)} to ${showCommand(cmd!)}: ${diff}`, frameEvidence(ev, { note: `agent_end at seq ${s.end.seq}` }));
          }
        };
        if (s.window.state === "confirmed") judge();
        else if (s.window.state === "open") s.window.held.push(judge);
        else t.untestable(`history was read between agent_end and the further run the server opened (${s.window.why})`);
      },
      close: (_ev, c) => settle(c.id, "confirmed"),
    });
    return {
      observe: all(runs.observe, r.observe),
      finish: () => {
        r.end();
        for (const conn of [...windows.keys()]) settle(conn, "confirmed");
        return t.outcome(`${t.count} history read(s) ended with the run's messages`, "no history was read after a run");
      },
    };
  }),
  serverCheck("pi-web/cmd/clear-queue", { notApplicableWhen: [TOPIC.queue] }, (t) => {
    const queued = { steering: [] as string[], followUp: [] as string[] };
    const echoed = new Set<string>();
    const cleared = new Map<string, FrameEvent>();
    const r = rpc({
      response: (ev, resp, cmd, how, c) => {
        if (!cmd || !answered(how)) return;
        if (cmd.type === "prompt" && (cmd.label === M.steer("q2") || cmd.label === M.followUp("q2")) && resp.success === true && typeof cmd.value.message === "string") {
          (cmd.value.streamingBehavior === "steer" ? queued.steering : queued.followUp).push(cmd.value.message);
        }
        if (cmd.label !== M.clear("q2")) return;
        const data = isObject(resp.data) ? resp.data : undefined;
        if (resp.success !== true || !Array.isArray(data?.steering) || !Array.isArray(data?.followUp)) {
          t.fail("a success with {steering, followUp}", `${where(ev, c)}: ${excerpt(resp)}`, frameEvidence(ev));
          return;
        }
        const want = { steering: queued.steering.filter((s) => !echoed.has(s)), followUp: queued.followUp.filter((s) => !echoed.has(s)) };
        if (want.steering.length + want.followUp.length === 0) {
          // The agent may inject at its next opportunity, before clear_queue arrives: nothing left to clear.
          t.notApplicable("every queued text had been injected before clear_queue was answered, so there was nothing left to clear");
          return;
        }
        if (jsonEqual(data.steering, want.steering) && jsonEqual(data.followUp, want.followUp)) t.ok();
        else t.fail(`exactly ${excerpt(want)}`, `${where(ev, c)} returned ${excerpt({ steering: data.steering, followUp: data.followUp })}`, frameEvidence(ev));
        for (const s of [...(data.steering as unknown[]), ...(data.followUp as unknown[])]) if (typeof s === "string") cleared.set(s, ev);
      },
      event: (ev, type, v, c) => {
        if (type !== "message_start" || !isObject(v.message) || v.message.role !== "user") return;
        const text = textOf(v.message.content);
        echoed.add(text);
        const at = cleared.get(text);
        if (at) t.fail("cleared texts are never injected", `${where(ev, c)} injects ${JSON.stringify(text)}, which clear_queue returned at seq ${at.seq}`, frameEvidence(ev));
      },
      unanswered: (cmd, why, ev) => {
        if (cmd.label === M.clear("q2") && answerMissed(cmd, why, ev)) knockOnUnanswered(t, cmd);
      },
    });
    return endThen(r, () => t.outcome("clear_queue returned exactly the queued texts and none was injected afterwards", "no clear_queue was sent with texts queued"));
  }),
  serverCheck("pi-web/cmd/abort", (t, ctx) => {
    const { abortEndMs } = readParams(ctx.params);
    const runs = runViews();
    let idle: { cmd: Command; events: number } | undefined;
    interface Mid {
      cmd: Command;
      messageEnded?: boolean;
      answered?: boolean;
    }
    let mid: Mid | undefined;
    const endMid = (why: string) => {
      if (mid) t.fail(`agent_end within ${abortEndMs} ms of abort`, `${where(mid.cmd.frame, mid.cmd.conn)}: ${why}`, frameEvidence(mid.cmd.frame));
      mid = undefined;
    };
    const r = rpc({
      command: (cmd) => {
        if (idle && cmd.conn.id === idle.cmd.conn.id && cmd !== idle.cmd) {
          if (idle.events === 0) t.ok();
          idle = undefined;
        }
        if (cmd.type !== "abort") return;
        if (cmd.label === M.abortIdle) {
          if (runs.view(cmd.conn.id).open) t.untestable("a run was open when the idle abort was sent");
          else idle = { cmd, events: 0 };
        } else if (cmd.label === M.abortRun || cmd.label === M.abortQueue) {
          if (mid) endMid("no agent_end came before the next abort");
          if (runs.view(cmd.conn.id).open) mid = { cmd };
          else t.untestable(`the run had ended before ${showCommand(cmd)} was sent`);
        }
      },
      response: (ev, resp, cmd, how, c) => {
        if (!cmd || cmd.type !== "abort" || !answered(how)) return;
        if (mid?.cmd === cmd) mid.answered = true;
        if (resp.success !== true) {
          t.fail("a success", `${where(ev, c)} to ${showCommand(cmd)} is a failure: ${excerpt(resp.error)}`, frameEvidence(ev));
          if (idle?.cmd === cmd) idle = undefined;
        }
      },
      event: (ev, type, v, c) => {
        if (idle && c.id === idle.cmd.conn.id) {
          idle.events++;
          t.fail("no events after an idle abort", `${where(ev, c)} followed the idle abort`, frameEvidence(ev));
          idle = undefined;
        }
        if (!mid || c.id !== mid.cmd.conn.id) return;
        if (type === "message_end" && isObject(v.message) && v.message.role === "assistant" && !mid.messageEnded) {
          mid.messageEnded = true;
          const m = v.message;
          if (m.stopReason !== "aborted" && m.stopReason !== "error") {
            if (!mid.answered) {
              // The message ended before the abort was even answered: it may have finished before the
              // server read the abort (a race, not a finding).
              t.untestable("the running message ended before the abort took effect");
              mid = undefined;
              return;
            }
            t.fail('stopReason "aborted" (or "error")', `${where(ev, c)}: the abort was acknowledged, but the message running at abort ended ${excerpt(m.stopReason)}`, frameEvidence(ev));
          } else if (typeof m.errorMessage !== "string" || m.errorMessage === "") {
            t.fail("an errorMessage on the aborted message", `${where(ev, c)}: stopReason ${m.stopReason} without errorMessage`, frameEvidence(ev));
          }
        } else if (type === "agent_end") {
          const ms = ev.t - mid.cmd.frame.t;
          if (ms <= abortEndMs) {
            if (mid.messageEnded) t.ok();
            else t.fail("the running message ends aborted", `${where(ev, c)}: the run ended without an assistant message_end after the abort`, frameEvidence(ev));
            mid = undefined;
          } else endMid(`agent_end came ${Math.round(ms)} ms after the abort`);
        } else if (type === "agent_start") endMid("a new run started without agent_end");
      },
    });
    return {
      observe: all(runs.observe, r.observe),
      finish: (): Outcome => {
        r.end();
        if (idle && idle.events === 0) t.ok();
        if (mid) endMid("no agent_end followed");
        return t.outcome("aborts ended their runs in time and the idle abort was quiet", "no abort was sent");
      },
    };
  }),
  serverCheck("pi-web/cmd/abort-order", (t) => {
    const runs = runViews();
    let early: { cmd: Command; ev: FrameEvent; effective?: boolean } | undefined;
    const mid = new Set<Command>();
    /** Whether the message running at the last mid-run abort ended aborted/error. */
    let effective: boolean | undefined;
    const r = rpc({
      command: (cmd) => {
        if (cmd.type === "abort" && (cmd.label === M.abortRun || cmd.label === M.abortQueue) && runs.view(cmd.conn.id).open) {
          mid.add(cmd);
          effective = undefined;
        }
      },
      response: (ev, _resp, cmd, how, c) => {
        if (!cmd || !mid.has(cmd) || !answered(how)) return;
        mid.delete(cmd);
        if (runs.view(c.id).open) early = { cmd, ev };
        else t.ok();
      },
      event: (_ev, type, v, c) => {
        if (type === "message_end" && effective === undefined && isObject(v.message) && v.message.role === "assistant") {
          effective = v.message.stopReason === "aborted" || v.message.stopReason === "error";
        }
        if (!early || c.id !== early.cmd.conn.id) return;
        if (type === "agent_end") {
          // An abort that aborted nothing is cmd/abort's finding; its early answer says nothing about order.
          if (effective === false) t.untestable("the abort did not abort the run");
          else t.fail("the abort response after agent_end", `${where(early.ev, c)} answered ${showCommand(early.cmd)} before the run's agent_end`, frameEvidence(early.ev));
          early = undefined;
        } else if (type === "agent_start") {
          t.untestable("the aborted run never sent agent_end");
          early = undefined;
        }
      },
    });
    return {
      observe: all(runs.observe, r.observe),
      finish: () => {
        r.end();
        if (early) t.untestable("the aborted run never sent agent_end");
        return t.outcome(`${t.count} abort response(s) came after agent_end`, "no abort was answered during a run");
      },
    };
  }),
];
