/**
 * The probes that drive a pi-web server. One shared agent session (§3 r1), so everything runs
 * serially on one main connection; a second, passive connection listens from the first run on
 * (fan-out, unicast). Every outgoing message carries a label from labels.ts; checks key on those
 * labels, never on timing alone.
 *
 * Sequence: health → upgrades (/ws, other paths, token, Origin) → idle abort and first queries →
 * bad input and odd ids → runs per scenario (each followed by get_messages) with an invalid
 * prompt, images and, during the long answer, queries and a busy prompt → queue runs (steer,
 * follow-up, clear, abort) → abort mid-run → extension dialogs and stray replies → sessions
 * (list, new, switch, missing switch, new mid-run, list again once the new session has a reply)
 * → settle → close.
 *
 * Prompts start with `scenario:<name> ` for the reference mock; a real agent reads the rest as an
 * ordinary instruction. Where it ran a scenario to its end without the behaviour (no tool call, no
 * provider failure, no dialog), a NOTE.notApplicable tells the checks about it that they do not
 * apply; where it could not be driven at all, they end incomplete.
 */
import { untilStopped } from "../../core/probes/probe-session.js";
import type { ProbeContext } from "../../core/run/protocol.js";
import { sleep } from "../../core/mock/timing.js";
import type { RequestResult, WsConnection, WsMessage } from "../../core/transport/ws-exchange.js";
import { C, M, NOTE, TOPIC, type Topic } from "./labels.js";
import { readParams, type PiWebParams } from "./params.js";
import { isType, isUpdate, ProbeClient, typeOf } from "./probe-client.js";

/** A 1×1 transparent PNG. */
export const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** Odd ids the echo probe sends (rpc/response-echo): unicode with a raw U+2028, 200 characters, quotes, spaces. */
export const ODD_IDS: Record<string, string> = {
  unicode: "ïd-漢字-🙂-\u2028-é",
  long: `id-${"0123456789".repeat(20)}`.slice(0, 200),
  quotes: `q"u'o\\te`,
  spaces: " spaced id ",
};

export async function runProbes(ctx: ProbeContext): Promise<void> {
  const params = readParams(ctx.params);
  const c = new ProbeClient(ctx, params);
  await untilStopped(
    () => sequence(c, params),
    () => c.closeAll(),
  );
}

interface RunResult {
  accepted: boolean;
  started: boolean;
  ended: boolean;
  response?: RequestResult;
  /** A tool call was seen (a toolCall part or tool_execution_start), retries included. */
  toolCalled?: boolean;
  /** An assistant message ended with stopReason "error" (a provider failure), retries included. */
  providerError?: boolean;
}

async function sequence(c: ProbeClient, p: PiWebParams): Promise<void> {
  const t = c.ctx.timeouts;
  const firstEventMs = Math.min(p.firstEventMs, t.firstEvent);
  const abortEndMs = Math.min(p.abortEndMs, t.stream);
  const dialogMs = Math.min(p.dialogTimeoutMs, t.idle);
  const retryMs = Math.min(p.retryGraceMs, t.close);
  /** Accepted prompts in a row that started no run (a target without a model, or prompt-no-run). */
  let noRunInRow = 0;

  /**
   * Sends a prompt and follows its run: agent_start, then (optionally) `during`, then agent_end.
   * An agent_end closing a run that ended in a provider error is followed, for a short grace, by a
   * possible auto_retry_start and its run.
   */
  const run = async (
    label: string,
    message: unknown,
    o: {
      images?: unknown[];
      during?: (conn: WsConnection) => Promise<void>;
      /** After `during`, give up on agent_end once the server is silent this long (aborts). */
      quietAfterDuring?: number;
    } = {},
  ): Promise<RunResult> => {
    if (noRunInRow >= 2) {
      if (noRunInRow++ === 2) c.note(NOTE.runsSkipped, "two accepted prompts in a row started no run: the remaining runs are skipped");
      return { accepted: false, started: false, ended: false };
    }
    if (runsOver()) return { accepted: false, started: false, ended: false };
    await c.awaitIdle(abortEndMs);
    const conn = await c.ensureMain();
    const started = c.waitFor(conn, isType("agent_start"), { total: firstEventMs });
    let lastStop: unknown;
    let toolCalled = false;
    let providerError = false;
    /** A retry announced since the last agent_end: it may arrive in the same read as agent_end, before a wait for it starts. */
    let retrySeen = false;
    const watchStops = conn.onMessage((m) => {
      const type = typeOf(m);
      if (type === "agent_end") retrySeen = false;
      else if (type === "auto_retry_start" || type === "agent_start") retrySeen = true;
      if (type === "tool_execution_start") toolCalled = true;
      if (type !== "message_end") return;
      const msg = (m.json as { message?: { role?: unknown; stopReason?: unknown; content?: unknown } }).message;
      if (msg?.role !== "assistant") return;
      lastStop = msg.stopReason;
      if (msg.stopReason === "error") providerError = true;
      if (Array.isArray(msg.content) && msg.content.some((p) => (p as { type?: unknown } | null)?.type === "toolCall")) toolCalled = true;
    });
    /** A wait for the run's end gave up on the stream limit (a wait left behind once the run is judged may still do so: it is not counted). */
    let hitLimit = false;
    const overLimit = () => (hitLimit = true);
    const ended = c.waitFor(conn, isType("agent_end"), { total: t.stream, idle: t.idle, onLimit: overLimit });
    try {
      const response = await c.request(label, { type: "prompt", message, ...(o.images ? { images: o.images } : {}) });
      const accepted = response.ok && response.response?.success === true;
      if (!accepted) return { accepted, started: false, ended: false, response };
      if (!(await started)) {
        noRunInRow++;
        return { accepted, started: false, ended: false, response };
      }
      noRunInRow = 0;
      if (o.during) await o.during(conn);
      let end =
        o.quietAfterDuring === undefined
          ? await ended
          : await Promise.race([ended, c.waitFor(conn, () => false, { total: t.stream, idle: o.quietAfterDuring, onLimit: overLimit })]);
      // A provider error may be retried after agent_end (auto_retry_start, then a further run).
      while (end && lastStop === "error") {
        lastStop = undefined;
        const next = c.waitFor(conn, isType("agent_end"), { total: t.stream, idle: t.idle, onLimit: overLimit });
        const retry = retrySeen || (await c.waitFor(conn, isType("auto_retry_start", "agent_start"), { total: retryMs }));
        if (!retry) break;
        end = await next;
      }
      if (!end && hitLimit) c.neverEnded(`${label}: no agent_end within the ${t.stream} ms stream limit`);
      return { accepted, started: true, ended: !!end, response, toolCalled, providerError };
    } finally {
      watchStops();
    }
  };

  /**
   * Whether runs are over because one never ended within the stream limit (see ProbeClient.endless):
   * said once, in a note the checks repeat and a progress line.
   */
  let endlessNoted = false;
  const runsOver = (): boolean => {
    if (c.endless === undefined) return false;
    if (!endlessNoted) {
      endlessNoted = true;
      const why = `${c.endless}: the remaining runs are not attempted`;
      c.note(NOTE.runsSkipped, why);
      c.ctx.progress(`pi-web: ${why}`);
    }
    return true;
  };

  /** The first delta of a run, or its end when it streams none. */
  const streamingOrEnded = (m: WsMessage) => isUpdate("text_delta", "thinking_delta")(m) || typeOf(m) === "agent_end";

  /** Whether the run is still going a moment after a trigger (a burst may have ended it). */
  const stillRunning = async (): Promise<boolean> => {
    await sleep(50, c.ctx.signal);
    return c.busy;
  };

  /**
   * When every run meant to show a behaviour ran to its end without it, the target took another
   * path the contract allows: the checks about that behaviour are told so (not applicable).
   */
  const unless = (topic: Topic, rs: RunResult[], shown: (r: RunResult) => boolean, reason: string) => {
    if (rs.length > 0 && rs.every((r) => r.ended) && !rs.some(shown)) c.note(NOTE.notApplicable, { topic, reason });
  };

  /** A run followed by get_messages (cmd/get-messages). */
  const scenario = async (name: string, message: string, o: Parameters<typeof run>[2] = {}) => {
    const r = await run(M.prompt(name), message, o);
    if (r.ended) await c.request(M.history(name), { type: "get_messages" });
    return r;
  };

  await c.group("health", "GET /health (no credentials)", async () => {
    const r = await c.get(M.health, "/health");
    if (r.status === undefined && c.unreachable(r)) c.stop(`target unreachable: ${r.error}`);
  });

  await c.group("upgrade", "upgrades: /ws, other paths, missing and wrong token, foreign and missing Origin", async () => {
    c.note(NOTE.auth, { token: c.target.token !== undefined });
    c.note(NOTE.timeouts, { request: c.requestTimeout });
    await c.ensureMain();
    const probe = async (label: string, o: Parameters<ProbeClient["open"]>[1]) => {
      const r = await c.open(label, o);
      if (r.ok) await r.conn.close(1000, "", t.close);
    };
    for (const path of p.otherPaths) await probe(C.otherPath(path), { path });
    if (c.target.token !== undefined) {
      await probe(C.noToken, { token: null });
      await probe(C.wrongToken, { token: `${c.target.token}-wrong` });
    }
    await probe(C.foreignOrigin, { origin: p.foreignOrigin });
    await probe(C.noOrigin, { origin: null });
  });

  await c.group("idle", "abort while idle, then get_state, get_context_usage, get_messages", async () => {
    const conn = await c.ensureMain();
    await c.request(M.abortIdle, { type: "abort" });
    await c.quiet(p.quietMs);
    await Promise.all([
      c.request(M.stateInitial, { type: "get_state" }, { conn }),
      c.request(M.usageInitial, { type: "get_context_usage" }, { conn }),
      c.request(M.messagesInitial, { type: "get_messages" }, { conn }),
    ]);
  });

  await c.group("bad-input", "malformed JSON, [], 42, a typeless object, an unknown command, odd ids", async () => {
    const conn = await c.ensureMain();
    for (const [label, raw] of [
      [M.badMalformed, '{"id":'],
      [M.badArray, "[]"],
      [M.badNumber, "42"],
    ] as const) {
      conn.sendRaw(raw, { label });
      await c.quiet(p.quietMs);
      if (!conn.isOpen) break;
    }
    if (conn.isOpen) {
      await c.request(M.badTypeless, { id: c.nextId() });
      await c.request(M.unknownCommand, { type: "no_such_command" });
      await c.request(M.stateAfterBad, { type: "get_state" });
    }
    // An idle abort answers at once and changes nothing: a cheap command to echo odd ids with.
    for (const [kind, id] of Object.entries(ODD_IDS)) await c.request(M.echo(kind), { id, type: "abort" });
    await c.request(M.echo("none"), { type: "abort" }, { id: false });
  });

  await c.group("runs", "a second client listens; a run per scenario, each followed by get_messages", async () => {
    const passive = await c.open(C.passive);
    if (passive.ok) c.passive = passive.conn;
    await scenario("text", p.prompt || p.promptText);
    await scenario("thinking", p.promptThinking);
    const tools = [await scenario("tool", p.promptTool), await scenario("two-tools", p.promptTwoTools)];
    unless(TOPIC.tools, tools, (r) => !!r.toolCalled, "the target answered both tool prompts without calling a tool (a model may answer directly)");
    const errors = [await scenario("error", p.promptError), await scenario("error-retry", p.promptErrorRetry)];
    unless(
      TOPIC.providerError,
      errors,
      (r) => !!r.providerError,
      'the two prompts meant to provoke a provider failure were answered without one (no assistant message ended with stopReason "error")',
    );
    await scenario("ext-error", p.promptExtError);
    const images = await run(M.images, p.promptImages, { images: [{ type: "image", mimeType: "image/png", data: PNG_1X1 }] });
    if (images.ended) await c.request(M.history("images"), { type: "get_messages" });
  });

  await c.group("invalid-prompt", "a prompt with message:42", async () => {
    await c.awaitIdle(abortEndMs);
    const conn = await c.ensureMain();
    const started = c.waitFor(conn, isType("agent_start"), { total: p.quietMs });
    await c.request(M.invalidPrompt, { type: "prompt", message: 42 });
    // An accepted invalid prompt may start a run: let it finish before going on.
    if ((await started) && !runsOver()) {
      const limit = () => c.neverEnded(`${M.invalidPrompt}: the run it started had no agent_end within the ${t.stream} ms stream limit`);
      await c.waitFor(conn, isType("agent_end"), { total: t.stream, idle: t.idle, onLimit: limit });
    } else await c.quiet(p.quietMs);
  });

  await c.group("long", "the long answer; during it: queries and a prompt without streamingBehavior", async () => {
    let busyAccepted = false;
    const r = await run(M.prompt("long"), p.promptLong, {
      during: async (conn) => {
        await c.waitFor(conn, streamingOrEnded, { total: firstEventMs });
        if (!(await stillRunning())) return;
        const [, , , , busy] = await Promise.all([
          c.request(M.midRun("state"), { type: "get_state" }, { conn }),
          c.request(M.midRun("messages"), { type: "get_messages" }, { conn }),
          c.request(M.midRun("usage"), { type: "get_context_usage" }, { conn }),
          c.request(M.midRun("sessions"), { type: "list_sessions", scope: "all" }, { conn }),
          c.request(M.busyPrompt, { type: "prompt", message: `${p.promptText} (sent while busy)` }, { conn }),
        ]);
        busyAccepted = busy.response?.success === true;
      },
    });
    if (r.ended) {
      const conn = await c.ensureMain();
      // A busy prompt the server accepted (a quirk, or a run that had just ended) may start a run of its own.
      if (busyAccepted && (await c.waitFor(conn, isType("agent_start"), { total: retryMs }))) await c.awaitIdle(abortEndMs);
      await Promise.all([c.request(M.stateAfterRun, { type: "get_state" }, { conn }), c.request(M.history("long"), { type: "get_messages" }, { conn })]);
    }
  });

  /** A queue run: the queue scenario; `during` runs once the first tool call started. */
  const queueRun = async (name: string, during: (conn: WsConnection) => Promise<void>, quietAfterDuring?: number) => {
    /**
     * A queued prompt accepted only after the run's agent_end (on a slow link the run was over when it arrived): the
     * server took it as a new prompt, and the history is read once that run is over too.
     */
    let lateAccepted: WsConnection | undefined;
    const r = await run(M.queuePrompt(name), p.promptQueue, {
      ...(quietAfterDuring !== undefined ? { quietAfterDuring } : {}),
      during: async (conn) => {
        let ended = false;
        const off = conn.onMessage((m) => {
          const type = typeOf(m);
          if (type === "agent_end") ended = true;
          else if (ended && type === "response" && (m.json as { command?: unknown }).command === "prompt") lateAccepted = conn;
        });
        try {
          // A target that calls no tool runs to its end: the queue rules then stay untested.
          const first = await c.waitFor(conn, isType("tool_execution_start", "agent_end"), { total: t.stream, idle: t.idle });
          if (first && typeOf(first) === "tool_execution_start") await during(conn);
        } finally {
          off();
        }
      },
    });
    if (r.ended && lateAccepted) {
      await c.awaitIdle(abortEndMs);
      if (await c.waitFor(lateAccepted, isType("agent_start"), { total: retryMs })) await c.awaitIdle(abortEndMs);
    }
    if (r.ended) await c.request(M.history(`queue-${name}`), { type: "get_messages" });
    return r;
  };
  const queued = (name: string, kind: "steer" | "followUp", conn: WsConnection) =>
    c.request(kind === "steer" ? M.steer(name) : M.followUp(name), { type: "prompt", message: `${kind === "steer" ? p.steerText : p.followUpText} (${name})`, streamingBehavior: kind }, { conn });

  await c.group("queue", "steer, follow-up, clear_queue and abort with messages queued during tool calls", async () => {
    const runs: RunResult[] = [];
    runs.push(await queueRun("q1", (conn) => queued("q1", "steer", conn).then(() => undefined)));
    runs.push(await queueRun("q4", (conn) => queued("q4", "followUp", conn).then(() => undefined)));
    runs.push(await queueRun("q2", async (conn) => {
      await queued("q2", "steer", conn);
      await queued("q2", "followUp", conn);
      await c.request(M.clear("q2"), { type: "clear_queue" }, { conn });
    }));
    runs.push(await queueRun("q3", async (conn) => {
      if (!(await stillRunning())) return;
      await queued("q3", "followUp", conn);
      await c.request(M.queueState("q3-before"), { type: "get_state" }, { conn });
      const ended = c.waitFor(conn, isType("agent_end"), { total: abortEndMs });
      await c.request(M.abortQueue, { type: "abort" }, { conn });
      await ended;
      await c.request(M.queueState("q3-after"), { type: "get_state" }, { conn });
      await c.request(M.clear("q3"), { type: "clear_queue" }, { conn });
    }, abortEndMs));
    unless(TOPIC.queue, runs, (r) => !!r.toolCalled, "the target ran no tool during the queue prompts, so nothing could be queued while a tool ran");
  });

  await c.group("abort", "abort during a streaming answer", async () => {
    await run(M.abortPrompt, p.promptAbort, {
      quietAfterDuring: abortEndMs,
      during: async (conn) => {
        await c.waitFor(conn, streamingOrEnded, { total: firstEventMs });
        // A run that streamed in one burst may be over already: then there is nothing to abort.
        if (await stillRunning()) await c.request(M.abortRun, { type: "abort" }, { conn });
      },
    });
    await c.request(M.stateAfterAbort, { type: "get_state" });
  });

  await c.group("ext", "an extension command with dialogs (answered, one twice), then stray replies", async () => {
    await c.awaitIdle(abortEndMs);
    const conn = await c.ensureMain();
    let fireAndForget: string | undefined;
    let dialogs = 0;
    const off = conn.onMessage((m) => {
      const j = m.json as { type?: unknown; id?: unknown; method?: unknown; options?: unknown } | undefined;
      if (!j || j.type !== "extension_ui_request" || typeof j.id !== "string") return;
      const id = j.id;
      const reply = (label: string, answer: Record<string, unknown>) => {
        dialogs++;
        conn.send({ type: "extension_ui_response", id, ...answer }, { label });
      };
      switch (j.method) {
        case "confirm":
          reply(M.reply("confirm"), { confirmed: true });
          break;
        case "select": {
          const options = Array.isArray(j.options) ? j.options.filter((o): o is string => typeof o === "string") : [];
          reply(M.reply("select"), { value: options[1] ?? options[0] ?? "agentwire" });
          // A second reply: the first one must win. On the same socket, so the server reads them in
          // the order they were sent; across two sockets it may read either first (the other one
          // being ready sooner, say with a pong pending), and "first" would then be unknowable.
          reply(M.secondReply, { value: options[2] ?? `${options[0] ?? "agentwire"}-second` });
          break;
        }
        case "input":
          reply(M.reply("input"), { value: "agentwire" });
          break;
        case "editor":
          reply(M.reply("editor"), { value: "edited by agentwire" });
          break;
        default:
          fireAndForget ??= id;
      }
    });
    try {
      // The dialog command runs like a prompt: not sent once runs are over.
      if (!runsOver()) {
        let hitLimit = false;
        const ended = c.waitFor(conn, isType("agent_end"), { total: t.stream, idle: dialogMs, onLimit: () => (hitLimit = true) });
        const r = await c.request(M.dialogPrompt, { type: "prompt", message: p.dialogCommand });
        const end = r.ok ? await ended : undefined;
        if (r.ok && !end && hitLimit) c.neverEnded(`${M.dialogPrompt}: no agent_end within the ${t.stream} ms stream limit`);
        // A target without that extension command runs it as an ordinary prompt.
        if (end && dialogs === 0) c.note(NOTE.notApplicable, { topic: TOPIC.dialogs, reason: "the dialog command opened no dialog (the target ran it as an ordinary prompt: it has no such extension command)" });
      }
    } finally {
      off();
    }
    if (!conn.isOpen) return;
    conn.send({ type: "extension_ui_response", id: `agentwire-unknown-${Math.random().toString(36).slice(2, 10)}`, value: "stray" }, { label: M.strayUnknown });
    if (fireAndForget) conn.send({ type: "extension_ui_response", id: fireAndForget, value: "stray" }, { label: M.strayFireAndForget });
    await c.quiet(p.quietMs);
    await c.request(M.stateAfterStray, { type: "get_state" });
  });

  await c.group("sessions", "list_sessions (all, default, cwd), new_session, switch_session (listed, missing), new_session mid-run", async () => {
    await c.awaitIdle(abortEndMs);
    const all = await c.request(M.sessionsAll, { type: "list_sessions", scope: "all" });
    await c.request(M.sessionsDefault, { type: "list_sessions" });
    await c.request(M.sessionsCwd, { type: "list_sessions", scope: "cwd" });
    await c.request(M.stateBeforeNew, { type: "get_state" });
    await c.request(M.newSession, { type: "new_session" });
    const conn = await c.ensureMain();
    const [fresh] = await Promise.all([c.request(M.stateAfterNew, { type: "get_state" }, { conn }), c.request(M.messagesAfterNew, { type: "get_messages" }, { conn })]);

    const current = dataOf(fresh)?.sessionFile;
    const sessions = (dataOf(all)?.sessions ?? []) as { path?: unknown; messageCount?: unknown }[];
    const listed = Array.isArray(sessions) ? sessions.filter((s) => typeof s.path === "string" && s.path !== current) : [];
    const target = listed.find((s) => typeof s.messageCount === "number" && s.messageCount > 0) ?? listed[0];
    if (typeof target?.path === "string") {
      await c.request(M.switchListed, { type: "switch_session", sessionPath: target.path });
      await Promise.all([c.request(M.stateAfterSwitch, { type: "get_state" }, { conn }), c.request(M.messagesAfterSwitch, { type: "get_messages" }, { conn })]);
      const dir = target.path.includes("/") ? target.path.slice(0, target.path.lastIndexOf("/") + 1) : "";
      await c.request(M.switchMissing, { type: "switch_session", sessionPath: `${dir}agentwire-missing-${Math.random().toString(36).slice(2, 10)}.jsonl` });
      await c.request(M.stateAfterMissing, { type: "get_state" });
    }

    // new_session while a run streams: the run ends (agent_end), or — pi-fork-0.54 — is cut off.
    await run(M.midRunPrompt, p.promptAbort, {
      quietAfterDuring: abortEndMs,
      during: async (conn) => {
        await c.waitFor(conn, streamingOrEnded, { total: firstEventMs });
        if (await stillRunning()) await c.request(M.newMidRun, { type: "new_session" }, { conn });
      },
    });
    await c.request(M.stateAfterNewMidRun, { type: "get_state" });
    // A run after the cut one: a run the session change left open shows as a nested agent_start.
    // Its reply also gets the new session stored, so even a server that started with none now
    // lists two (the first session and this one): the order of a listing can be judged.
    const afterNew = await scenario("after-new", p.prompt || p.promptText);
    if (afterNew.ended) await c.request(M.sessionsAfterNew, { type: "list_sessions", scope: "all" });
  });

  await c.group("settle", "wait for late or duplicate responses, then close both clients", async () => {
    await c.quiet(t.close);
  });
}

function dataOf(r: RequestResult): Record<string, unknown> | undefined {
  const d = r.response?.data;
  return d && typeof d === "object" && !Array.isArray(d) ? (d as Record<string, unknown>) : undefined;
}
