/** §2.2 and §3 rules 1–4: every command gets one correlated response of the right shape. */
import { endThen, excerpt, type CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { M, NOTE } from "../labels.js";
import { forkAllowances } from "../params.js";
import { all, frameEvidence, isKnownCommand, isObject, messageOf, onNote, rpc, serverCheck, showCommand, shutDown, where, type Command, type FrameEvent, type Json } from "./support.js";

/** The client's request timeout (seed: "Requests time out after 30 seconds"). */
export const CONTRACT_TIMEOUT_MS = 30_000;

export const responseSchema = (command: string): string => `${command.replace(/_/g, "-")}-response`;

const isPromptFailure = (r: Json): boolean => r.success === false && (r.command === "prompt" || r.command === undefined);

/** The late prompt failure the fork broadcasts (§3 r6), when the profile accepts it. */
function lateFailureAllowed(params: Readonly<Record<string, unknown>>, cmd: Command | undefined, resp: Json): boolean {
  return forkAllowances(params).latePromptFailure && cmd?.type === "prompt" && isPromptFailure(resp);
}

export const RPC_CHECKS: CheckDef[] = [
  serverCheck("pi-web/rpc/response-per-command", (t) => {
    let timeout = CONTRACT_TIMEOUT_MS;
    const r = rpc({
      response: (ev, _resp, cmd, how) => {
        if (!cmd || !isKnownCommand(cmd.type) || (how !== "exact" && how !== "inexact")) return;
        const ms = ev.t - cmd.frame.t;
        if (ms <= CONTRACT_TIMEOUT_MS) t.ok();
        else t.failLate(ev.t, ms - CONTRACT_TIMEOUT_MS, `a response within ${CONTRACT_TIMEOUT_MS} ms`, `${showCommand(cmd)} was answered after ${Math.round(ms)} ms`, frameEvidence(ev));
      },
      unanswered: (cmd, why, ev) => {
        if (!isKnownCommand(cmd.type)) return;
        const sent = `${where(cmd.frame, cmd.conn)}`;
        // A server going away or restarting cuts off what it had not answered yet: no broken rule.
        if (why === "closed-by-server" && shutDown(ev)) {
          t.untestable(`${sent}: the server shut down (close ${ev.code}${ev.reason ? ` "${ev.reason}"` : ""}) before answering`);
        } else if (why === "closed-by-server") t.fail("a response before the socket closes", `${sent}: the server closed the socket without answering`, frameEvidence(cmd.frame));
        else if (cmd.timedOut !== undefined) {
          const cap = cmd.timedOut < CONTRACT_TIMEOUT_MS ? ` (the kit's timeout, capped by --timeout; the contract allows ${CONTRACT_TIMEOUT_MS} ms)` : "";
          t.fail(`a response within ${Math.min(timeout, CONTRACT_TIMEOUT_MS)} ms`, `${sent}: no response within ${cmd.timedOut} ms${cap}`, frameEvidence(cmd.frame));
        } else t.untestable(`${sent}: the kit stopped waiting before a response or its timeout`);
      },
    });
    const observe = all(
      r.observe,
      onNote(NOTE.timeouts, (v) => {
        if (isObject(v) && typeof v.request === "number") timeout = v.request;
      }),
    );
    return {
      observe,
      finish: () => {
        r.end();
        return t.outcome(`${t.count} command(s) were answered in time`, "no command was sent");
      },
    };
  }),
  serverCheck("pi-web/rpc/response-echo", (t) => {
    let odd = 0;
    const r = rpc({
      response: (ev, resp, cmd, how, c) => {
        if (!cmd || !isKnownCommand(cmd.type) || (how !== "exact" && how !== "inexact")) return;
        if (cmd.label?.startsWith("echo:")) odd++;
        const sentId = cmd.hasId ? (typeof cmd.rawId === "string" ? JSON.stringify(cmd.rawId) : excerpt(cmd.rawId)) : "(none)";
        const gotId = "id" in resp ? JSON.stringify(resp.id) : "(none)";
        if (how === "inexact" || ("id" in resp) !== cmd.hasId || (cmd.hasId && resp.id !== cmd.rawId)) {
          t.fail(`id ${sentId} echoed as sent`, `${where(ev, c)} answers ${showCommand(cmd)} with id ${gotId}`, frameEvidence(ev));
        } else if (resp.command !== cmd.type) {
          t.fail(`command ${JSON.stringify(cmd.type)}`, `${where(ev, c)} answers ${showCommand(cmd)} with command ${excerpt(resp.command)}`, frameEvidence(ev));
        } else t.ok();
      },
    });
    return endThen(r, () => t.outcome(`${t.count} response(s) echoed id and command (${odd} with odd or absent ids)`, "no command was answered"));
  }),
  serverCheck("pi-web/rpc/single-response", (t, ctx) => {
    const extra = new Map<Command, number>();
    /** Prompts whose second answer the profile accepted, so the pass message can name them. */
    const relaxed: Command[] = [];
    const r = rpc({
      response: (ev, resp, cmd, how, c) => {
        if (!cmd || !isKnownCommand(cmd.type)) return;
        if (how === "exact" || how === "inexact") {
          t.ok();
          return;
        }
        if (how !== "duplicate") return;
        const first = cmd.answers[0]!;
        const m = messageOf(first);
        const firstResp: Json = m.kind === "object" ? m.value : {};
        const allowedTwice = (x: Json) => lateFailureAllowed(ctx.params, cmd, x);
        // pi-fork-0.54: one success plus one failure for a prompt (either order).
        const n = (extra.get(cmd) ?? 0) + 1;
        extra.set(cmd, n);
        if (n === 1 && (allowedTwice(resp) ? firstResp.success === true : allowedTwice(firstResp) && resp.success === true)) {
          relaxed.push(cmd);
          return;
        }
        t.fail("one response per command", `${where(ev, c)} is response #${cmd.answerCount} to ${showCommand(cmd)} (id ${JSON.stringify(cmd.id)})`, frameEvidence(ev));
      },
    });
    return {
      observe: r.observe,
      finish: () => {
        r.end();
        const single = t.count - relaxed.length;
        const also = relaxed.length
          ? `; ${relaxed.length} prompt(s) got a success plus one failure, which the ${ctx.profile.name} profile accepts (${relaxed.map(showCommand).join(", ")})`
          : "";
        return t.outcome(`${single} command(s) got one response each${also}`, "no command was answered");
      },
    };
  }),
  serverCheck("pi-web/rpc/result-shape", (t, ctx) => {
    const r = rpc({
      response: (ev, resp, cmd, how, c) => {
        if (!cmd || !isKnownCommand(cmd.type) || how === "foreign" || how === "reply" || how === "unmatched") return;
        let name: string;
        if (resp.success === true) name = responseSchema(cmd.type);
        else if (resp.success === false) name = "error-response";
        else return; // framing/server-schema judges the envelope
        // The `command` echo is rpc/response-echo's: the schema's constant is met with the command's type.
        const v = ctx.validate(name, { ...resp, command: cmd.type });
        if (v.ok) t.ok();
        else t.fail(`a valid ${name}.schema.json`, `${where(ev, c)} to ${showCommand(cmd)}: ${formatSchemaErrors(v.errors)}`, frameEvidence(ev));
      },
    });
    return endThen(r, () => t.outcome(`${t.count} response(s) had the shape of their command`, "no command was answered"));
  }),
  serverCheck("pi-web/rpc/unknown-command", (t) => {
    const r = rpc({
      response: (ev, resp, cmd, how, c) => {
        if (!cmd || cmd.type === "" || isKnownCommand(cmd.type) || (how !== "exact" && how !== "inexact")) return;
        const problems: string[] = [];
        // The id must be there; whether it is byte-identical is rpc/response-echo's question.
        if (typeof resp.id !== "string") problems.push(`no id (the command had ${JSON.stringify(cmd.id)})`);
        if (resp.command !== cmd.type) problems.push(`command ${"command" in resp ? excerpt(resp.command) : "(none)"} instead of ${JSON.stringify(cmd.type)}`);
        if (resp.success !== false) problems.push(`success ${excerpt(resp.success)}`);
        if (problems.length === 0) t.ok();
        else t.fail(`a failure echoing id ${JSON.stringify(cmd.id)} and command ${JSON.stringify(cmd.type)}`, `${where(ev, c)}: ${problems.join(", ")}`, frameEvidence(ev));
      },
      unanswered: (cmd, why) => {
        if (cmd.type === "" || isKnownCommand(cmd.type)) return;
        if (why === "closed-by-kit" && cmd.timedOut === undefined) t.untestable(`${showCommand(cmd)}: the kit stopped waiting`);
        else t.fail("a failure response", `${where(cmd.frame, cmd.conn)} (${cmd.type}) got no response${why === "closed-by-server" ? " before the server closed the socket" : ""}`, frameEvidence(cmd.frame));
      },
    });
    return endThen(r, () => t.outcome(`${t.count} unknown command(s) got failures echoing id and command`, "no unknown command was sent"));
  }),
  serverCheck("pi-web/rpc/bad-input", (t) => {
    /** Connections that have been sent a bad frame, with the label of the last one. */
    const bad = new Map<string, FrameEvent>();
    let confirmed = 0;
    const r = rpc({
      command: (cmd) => {
        if (cmd.label === M.stateAfterBad) bad.delete(cmd.conn.id);
      },
      response: (ev, resp, cmd, how, c) => {
        if (!cmd) return;
        if (cmd.label === M.stateAfterBad && (how === "exact" || how === "inexact")) confirmed++;
        if (cmd.label !== M.badTypeless || (how !== "exact" && how !== "inexact")) return;
        if (typeof resp.id === "string" && resp.success === false) t.ok();
        else t.fail(`a failure with id ${JSON.stringify(cmd.id)}`, `${where(ev, c)}: id ${"id" in resp ? JSON.stringify(resp.id) : "(none)"}, success ${excerpt(resp.success)}`, frameEvidence(ev));
      },
      unanswered: (cmd, why) => {
        if (cmd.label !== M.badTypeless) return;
        if (why === "closed-by-kit" && cmd.timedOut === undefined) t.untestable("the kit stopped waiting for the typeless object's answer");
        else t.fail(`a failure with id ${JSON.stringify(cmd.id)}`, `${where(cmd.frame, cmd.conn, "typeless object")} got no response`, frameEvidence(cmd.frame));
      },
      close: (ev, c) => {
        const last = bad.get(c.id);
        if (!last) return;
        bad.delete(c.id);
        if (ev.by === "server") t.fail("the socket stays open", `the server closed ${c.label} (code ${ev.code ?? "none"}${ev.reason ? ` "${ev.reason}"` : ""}) after ${where(last, c)}`, frameEvidence(last, { note: `close ${ev.code ?? ""}` }));
      },
    });
    const observe = all(r.observe, (ev) => {
      if (ev.kind === "ws-frame" && ev.direction === "out" && ev.label?.startsWith("bad:")) bad.set(ev.connection, ev);
    });
    return {
      observe,
      finish: () => {
        r.end();
        if (t.failures === 0 && confirmed > 0) t.ok();
        return t.outcome("bad frames left the socket open and the typeless object got a failure with its id", "no bad input was sent, or the socket's survival was never confirmed");
      },
    };
  }),
  serverCheck("pi-web/rpc/response-unicast", (t, ctx) => {
    const open = new Set<string>();
    let answered = 0;
    const r = rpc({
      open: (_ev, c) => {
        if (c.label === "passive") open.add(c.id);
      },
      close: (_ev, c) => open.delete(c.id),
      response: (ev, resp, cmd, how, c) => {
        if (how === "foreign") {
          if (forkAllowances(ctx.params).latePromptFailure && isPromptFailure(resp)) return;
          t.fail("responses only to the requester", `${where(ev, c)} carries id ${JSON.stringify(resp.id)} of a command another socket sent`, frameEvidence(ev));
          return;
        }
        if ((how === "exact" || how === "inexact") && cmd && [...open].some((id) => id !== c.id)) answered++;
      },
    });
    return {
      observe: r.observe,
      finish: () => {
        r.end();
        if (t.failures === 0 && answered > 0) t.ok();
        return t.outcome(`${answered} response(s) sent while a second client listened reached only their requester`, "no command was answered while a second client was connected");
      },
    };
  }),
];
