/**
 * The probes that drive a stagewise-chat agent. One main connection holds subscription A (chat
 * since the start) and the side subscriptions, and sends every mutation; fresh subscriptions B on
 * another connection take snapshots at rest, after mutations and at random points mid-stream, for
 * the checks to compare with A. Every frame carries a label from labels.ts; checks key on those.
 *
 * Sequence: discovery → upgrades (main, silent, foreign Origin) → subscriptions → raw frames
 * (PING, bad JSON, no input, unknown path, wrong kind, toolCalling) → messaging → idle chat
 * mutations and the rejections they allow (unknown ids, invalid input, a non-active chat) → a turn
 * with mid-turn rejections and snapshots → tool turns (approve, reject, stop while pending) → stop
 * mid-turn → deleting messages and the second chat → resubscriptions (known, unknown and bad
 * lastEventId, concurrent, after a drop) → the non-loopback address → the server's PING.
 */
import { untilStopped } from "../../core/probes/probe-session.js";
import os from "node:os";
import type { ProbeContext } from "../../core/run/protocol.js";
import type { WsConnection } from "../../core/transport/ws-exchange.js";
import type { ChatMessage, ToolCallPart, UserMessageMetadata } from "../../generated/stagewise-chat.js";
import type { ChatState } from "../../stagewise/chat-state.js";
import { C, DISCOVERY_MS, M, NOTE, TOPIC, X } from "./labels.js";
import { readParams, type StagewiseParams } from "./params.js";
import { isObject, resultOf } from "./checks/support.js";
import { envelope, ProbeClient } from "./probe-client.js";

/** Browser metadata as the toolbar sends it with every message (§2). */
export const METADATA: UserMessageMetadata = {
  currentUrl: "http://localhost:3000/",
  currentTitle: "agentwire probe page",
  currentZoomLevel: 1,
  viewportResolution: { width: 1280, height: 800 },
  devicePixelRatio: 1,
  userAgent: "agentwire",
  locale: "en-US",
  selectedElements: [],
};

/** The three procedures of the published toolCalling capability (must be gone). */
export const TOOL_CALLING_PATHS = ["toolCalling.getAvailableTools", "toolCalling.onToolCall", "toolCalling.reportToolResult"];

/** How far past the PING limit the silent connection is kept open (ms). */
const PING_WAIT_SLACK_MS = 50;

const UNKNOWN = "agentwire-unknown-id";

export async function runProbes(ctx: ProbeContext): Promise<void> {
  const params = readParams(ctx.params);
  const c = new ProbeClient(ctx, params);
  const extra: WsConnection[] = [];
  await untilStopped(
    () => sequence(c, params, extra),
    () => Promise.all([...extra, c.main].map((conn) => c.close(conn))),
  );
}

const text = (t: string) => [{ type: "text", text: t }];

const pendingApprovals = (s: ChatState): ToolCallPart[] => {
  const calls: ToolCallPart[] = [];
  const settled = new Set<string>();
  for (const m of s.messages) {
    for (const p of m.content as { type: string; toolCallId?: string }[]) {
      if (p.type === "tool-call" && (p as ToolCallPart).requiresApproval) calls.push(p as ToolCallPart);
      if ((p.type === "tool-approval" || p.type === "tool-result") && p.toolCallId) settled.add(p.toolCallId);
    }
  }
  return calls.filter((call) => !settled.has(call.toolCallId));
};

const toolCallsOf = (s: ChatState): ToolCallPart[] =>
  s.messages.flatMap((m: ChatMessage) => (m.content as { type: string }[]).filter((p): p is ToolCallPart => p.type === "tool-call"));

async function sequence(c: ProbeClient, p: StagewiseParams, extra: WsConnection[]): Promise<void> {
  const t = c.ctx.timeouts;
  const behaviourMs = Math.min(p.behaviourMs, t.stream);
  const quiet = p.quietMs;
  const prompt = p.prompt || p.promptText;
  const toolPrompt = p.toolPrompt || p.toolPromptText;
  // The private router of stagewise-internal-2025-08 took switch and delete inputs as a bare id.
  const chatRef = (chatId: string) => (p.chatIdAsString ? chatId : { chatId });
  const working = (want: boolean, ms: number) => c.waitA((s) => s.isWorking === want, ms);
  /**
   * The agent at rest before a mutation that needs it. A turn still running past the kit's waits is no broken rule
   * (§4: behaviour unseen in time is not exercised): what needs rest is then not sent, and the rules on it say so.
   */
  let restless = false;
  const atRest = async (): Promise<boolean> => {
    if (await working(false, p.stopMs)) return true;
    if (!restless) c.ctx.progress(`stagewise-chat: the agent was still working after the kit's waits; what needs it at rest is not sent`);
    restless = true;
    return false;
  };

  c.note(NOTE.target, { host: c.target.host, port: c.target.port });

  await c.group("discovery", "discovery: GET the info path with the page's Origin", async () => {
    const asked = performance.now();
    const r = await c.get(X.info, p.infoPath);
    if (c.unreachable(r)) c.stop(`the target is not reachable: ${r.error ?? "no answer"}`);
    // A late answer may be the kit's own late read (the busiest moment of a run on a loaded machine):
    // asked once more, the rule judges that answer too. A server that was slow stays failed, since
    // its first answer is judged as well (wire/info-shape), and only a late read is excused.
    else if (performance.now() - asked > DISCOVERY_MS) await c.get(X.info, p.infoPath);
  });

  let silent: WsConnection | undefined;
  const silentOpened = performance.now();
  await c.group("connect", "upgrades: main, a silent connection, a foreign Origin", async () => {
    await c.ensureMain();
    const s = await c.open(C.silent);
    if (s.ok) extra.push((silent = s.conn));
    const foreign = await c.open(C.foreignOrigin, { origin: p.foreignOrigin });
    if (foreign.ok) await c.close(foreign.conn);
  });

  const main = await c.ensureMain();
  let chatless = false;
  let messagingId = 0;
  await c.group("subscribe", "subscriptions: availability, state, messaging, and A's snapshot", async () => {
    const side = new Set<number>();
    let sideAnswers = 0;
    const off = main.onMessage((m) => {
      if (isObject(m.json) && side.has(m.json.id as number) && resultOf(m.json).kind === "data") sideAnswers++;
    });
    side.add(c.subscribe(main, M.subAvailability, "availability.getAvailability", undefined));
    side.add(c.subscribe(main, M.subState, "state.getState", undefined));
    messagingId = c.subscribe(main, M.subMessaging, "messaging.getMessage", undefined);
    side.add(messagingId);
    const ready = await c.waitA(() => c.aReady, Math.min(Math.max(p.updateWaitMs, 2_000), t.request));
    await c.quiet(quiet);
    off();
    if (!ready) {
      // The kit's own cap (a message too large, a flood) cut the connection: not an agent without chat.
      c.stopIfCut(main);
      if (!sideAnswers) c.stop("the agent answered no subscription (no chat snapshot, no availability, state or message)");
      // An agent without the chat capability (the published package): the other capabilities are still judged.
      chatless = true;
      c.note(NOTE.notApplicable, { topic: TOPIC.chat, reason: "the agent has no chat capability (chat.getChatUpdates sent no snapshot)" });
    }
  });
  /** A group that needs the chat capability. */
  const chatGroup = <T>(name: string, description: string, fn: () => Promise<T>): Promise<T | undefined> =>
    chatless ? Promise.resolve(undefined) : c.group(name, description, fn);

  const fresh = await c.group("fresh", "a second connection for fresh snapshots (B)", async () => {
    const r = await c.open(C.fresh);
    if (!r.ok) c.stop(`a second connection was refused: ${r.status ?? r.error}`);
    extra.push(r.conn);
    return r.conn;
  });
  const snapshotB = (why: string) => c.snapshot(fresh, M.subB(why));

  await c.group("raw", "raw frames: PING, bad JSON, no input, unknown path, wrong kind, toolCalling", async () => {
    const r = await c.open(C.raw);
    if (!r.ok) return;
    const raw = r.conn;
    extra.push(raw);
    const pong = raw.until((m) => m.frame.data === "PONG", Math.min(5_000, t.request));
    raw.sendRaw("PING", { label: M.ping });
    await pong;
    const wait = Math.min(p.updateWaitMs, t.request);
    const parseError = () => raw.until((m) => typeof m.json === "object" && m.json !== null && (m.json as { id?: unknown }).id === null, wait);
    let waitBad = parseError();
    raw.sendRaw('{"id":1,"method":"mutation","params":{"path":"chat.stop"', { label: M.badJson });
    await waitBad;
    waitBad = parseError();
    // A procedure with a harmless failure mode, should the input be read after all.
    raw.send({ id: c.nextId(), method: "mutation", params: { path: c.chat("updateChatTitle") } }, { label: M.noInput });
    await waitBad;
    // Sent together: an agent that ignores them costs one wait, not five.
    await Promise.all([
      c.mutate(M.unknownPath, "chat.agentwireNoSuchProcedure", undefined, { conn: raw, timeout: p.updateWaitMs * 2 }),
      c.mutate(M.wrongKind, c.chat("stop"), undefined, {
        conn: raw,
        timeout: p.updateWaitMs * 2,
        raw: { method: "query", params: { path: c.chat("stop"), input: envelope(undefined) } },
      }),
      ...TOOL_CALLING_PATHS.map((path) => c.mutate(M.toolCalling(path), path, undefined, { conn: raw, timeout: p.updateWaitMs * 2 })),
    ]);
    // The socket stays usable after all that: a subscription still answers.
    const id = c.subscribe(raw, M.afterBad, "state.getState", undefined);
    await raw.until(
      (m) =>
        typeof m.json === "object" &&
        m.json !== null &&
        (m.json as { id?: unknown }).id === id &&
        "result" in (m.json as object) &&
        (m.json as { result: { type?: unknown } | null }).result?.type === "data",
      wait,
    );
    await c.close(raw);
  });

  await c.group("messaging", "messaging: sendUserMessage valid and invalid", async () => {
    const message = {
      id: "agentwire-m1",
      contentItems: text("hello from agentwire"),
      createdAt: new Date(),
      metadata: METADATA,
      pluginContent: {},
      sentByPlugin: false,
    };
    await c.mutate(M.messagingSend, "messaging.sendUserMessage", message);
    await c.mutate(M.messagingInvalid, "messaging.sendUserMessage", { id: "agentwire-m2", contentItems: "not a list" });
    if (!chatless) return;
    // Without chat the prompt goes through messaging, as the published toolbar sends it; its reply
    // streams on messaging.getMessage until the agent falls quiet.
    await c.mutate(M.messagingPrompt, "messaging.sendUserMessage", { ...message, id: "agentwire-m3", contentItems: text(prompt), createdAt: new Date() });
    const start = performance.now();
    while (performance.now() - start < behaviourMs) {
      const m = await main.until((x) => isObject(x.json) && x.json.id === messagingId, Math.min(1_500, t.request));
      if (!m) break;
    }
    const id = c.subscribe(fresh, M.subMessagingB("after-turn"), "messaging.getMessage", undefined);
    await c.quiet(quiet * 2);
    c.stopSubscription(fresh, id, M.stop("messaging"));
  });

  // ---- chats, idle ----
  const original = c.a.activeChatId;
  let second: string | undefined;
  await chatGroup("chats", "chats: stop while idle, create, title, switch, switch to the active chat", async () => {
    await c.mutate(M.ok("stop-idle"), c.chat("stop"), undefined);
    const created = await c.mutate(M.ok("create"), c.chat("createChat"), { title: "agentwire probe" });
    const id = ProbeClient.value(created);
    if (created.result && errorReason(created) === "rejected-by-agent") {
      c.note(NOTE.notApplicable, { topic: TOPIC.createRefused, reason: "the agent refused createChat (rejected-by-agent)" });
    }
    if (typeof id !== "string") return;
    const shown = await c.waitA((s) => s.activeChatId === id, p.updateWaitMs);
    if (!shown && !c.a.chats.some((chat) => chat.id === id)) {
      // A chat nobody was told of (chat/create-chat's finding) is no ground for switches or a non-active send.
      c.note(NOTE.knockOn, { check: "stagewise-chat/chat/create-chat", where: `chat "${id}" (returned by createChat, never announced)` });
      return;
    }
    second = id;
    await snapshotB("after-create");
    await c.mutate(M.ok("title"), c.chat("updateChatTitle"), { chatId: id, title: "agentwire renamed" });
    await c.waitA((s) => s.chats.some((chat) => chat.id === id && chat.title === "agentwire renamed"), p.updateWaitMs);
    if (original) {
      const switched = await c.mutate(M.ok("switch"), c.chat("switchChat"), chatRef(original));
      if (switched.result && errorReason(switched) === "rejected-by-agent") {
        c.note(NOTE.notApplicable, { topic: TOPIC.switchRefused, reason: "the agent refused switchChat (rejected-by-agent), so the chat the kit created stayed active" });
      }
      await c.waitA((s) => s.activeChatId === original && s.pendingFullSync === null, p.updateWaitMs);
      await c.mutate(M.ok("switch-to-active"), c.chat("switchChat"), chatRef(original));
      await c.quiet(quiet);
    }
    await snapshotB("after-switch");
  });

  await chatGroup("reject-idle", "rejections while idle: unknown ids, invalid input, a non-active chat", async () => {
    const active = c.a.activeChatId ?? UNKNOWN;
    const rejections: [string, string, string, unknown][] = [
      ["chat-not-found", "switch", "switchChat", chatRef(UNKNOWN)],
      ["chat-not-found", "delete", "deleteChat", chatRef(UNKNOWN)],
      ["chat-not-found", "title", "updateChatTitle", { chatId: UNKNOWN, title: "x" }],
      ["chat-not-found", "send", "sendMessage", { chatId: UNKNOWN, content: text("hi"), metadata: METADATA }],
      ["message-not-found", "delete-messages", "deleteMessageAndSubsequent", { chatId: active, messageId: UNKNOWN }],
      ["tool-call-not-found", "approve", "approveToolCall", { chatId: active, toolCallId: UNKNOWN, approved: true, metadata: METADATA }],
      ["tool-call-not-found", "report", "reportToolResult", { chatId: active, toolCallId: UNKNOWN, output: "x" }],
      ["invalid-input", "create-empty-title", "createChat", { title: "" }],
      ["invalid-input", "send-empty-content", "sendMessage", { chatId: active, content: [], metadata: METADATA }],
      ["invalid-input", "send-no-metadata", "sendMessage", { chatId: active, content: text("hi") }],
      [
        "invalid-input",
        "send-approval-part",
        "sendMessage",
        { chatId: active, content: [{ type: "tool-approval", toolCallId: "t1", approved: true }], metadata: METADATA },
      ],
      ["invalid-input", "approve-no-metadata", "approveToolCall", { chatId: active, toolCallId: UNKNOWN, approved: true }],
      ["invalid-input", "switch-no-chat-id", "switchChat", {}],
      ["invalid-input", "title-too-long", "updateChatTitle", { chatId: active, title: "x".repeat(300) }],
    ];
    if (second && second !== active) rejections.push(["chat-not-active", "send", "sendMessage", { chatId: second, content: text("hi"), metadata: METADATA }]);
    for (const [reason, what, proc, input] of rejections) {
      await c.mutate(M.reject(reason, what), c.chat(proc), input);
      await c.quiet(quiet);
    }
    await snapshotB("after-rejections");
  });

  // ---- a turn ----
  const turn = async (label: string, message: string, during?: () => Promise<void>): Promise<{ started: boolean; ended: boolean; messageId?: string }> => {
    if (!(await atRest())) return { started: false, ended: false };
    const chatId = c.a.activeChatId;
    if (!chatId) return { started: false, ended: false };
    const started = working(true, behaviourMs);
    const sent = await c.mutate(M.ok(label), c.chat("sendMessage"), { chatId, content: text(message), metadata: METADATA });
    const messageId = ProbeClient.value(sent);
    if (!sent.ok || !(await started)) return { started: false, ended: false, ...(typeof messageId === "string" ? { messageId } : {}) };
    if (during) await during();
    const ended = await working(false, behaviourMs);
    return { started: true, ended, ...(typeof messageId === "string" ? { messageId } : {}) };
  };

  let firstUserMessage: string | undefined;
  await chatGroup("turn", "a turn, with rejections and fresh snapshots mid-stream", async () => {
    // A second subscriber follows the whole turn (chat/seq-global compares its ids with A's).
    const kept = await c.snapshot(fresh, M.subB("during-turn"), { keep: true });
    const r = await turn("send", prompt, async () => {
      const other = second && second !== c.a.activeChatId ? second : undefined;
      const gated: [string, string, unknown][] = [["create", "createChat", undefined]];
      // Only a message A holds: an unknown id would test the lookup, not the gate (none without the user's echo: chat/send-message's finding).
      const firstMessage = c.a.messages[0]?.id;
      if (firstMessage) gated.push(["delete-messages", "deleteMessageAndSubsequent", { chatId: c.a.activeChatId, messageId: firstMessage }]);
      if (other) gated.push(["switch", "switchChat", chatRef(other)], ["delete", "deleteChat", chatRef(other)]);
      for (const [what, proc, input] of gated) {
        if (!c.a.isWorking) break;
        await c.mutate(M.reject("agent-working", what), c.chat(proc), input);
      }
      if (c.a.isWorking && other) await c.mutate(M.ok("title-while-working"), c.chat("updateChatTitle"), { chatId: other, title: "agentwire while working" });
      for (let i = 0; i < p.midStreamSnapshots && c.a.isWorking; i++) {
        await c.quiet(Math.floor(Math.random() * 60));
        await snapshotB(`mid-stream-${i + 1}`);
      }
    });
    firstUserMessage = r.messageId;
    if (kept) c.stopSubscription(fresh, kept.id, M.stop("during-turn"));
    await c.quiet(quiet);
    await snapshotB("after-turn");
    // A messaging subscriber joining at rest (messaging/no-replay, messaging/reduced-equals-fresh): only once the turn ended.
    if (r.ended) {
      const id = c.subscribe(fresh, M.subMessagingB("after-turn"), "messaging.getMessage", undefined);
      await c.quiet(quiet * 2);
      c.stopSubscription(fresh, id, M.stop("messaging"));
    }
  });

  // ---- tools ----
  /** Awaited toolbar calls not yet run. */
  const unrun = (s: ChatState) =>
    toolCallsOf(s).filter(
      (call) => call.runtime === "toolbar" && !reported.has(call.toolCallId) && !pendingApprovals(s).some((p) => p.toolCallId === call.toolCallId),
    );
  /** Runs toolbar calls as they come, until an approval is pending (true) or the turn ends (false). */
  async function untilApproval(): Promise<boolean> {
    for (;;) {
      if (!(await c.waitA((s) => pendingApprovals(s).length > 0 || unrun(s).length > 0 || !s.isWorking, behaviourMs))) return false;
      if (unrun(c.a).length) {
        await toolbarCalls();
        continue;
      }
      return pendingApprovals(c.a).length > 0;
    }
  }
  /** Runs every toolbar tool call still awaited: reports its result once. */
  const reported = new Set<string>();
  async function toolbarCalls(): Promise<void> {
    for (const call of toolCallsOf(c.a)) {
      if (call.runtime !== "toolbar" || reported.has(call.toolCallId)) continue;
      if (call.requiresApproval && pendingApprovals(c.a).some((p) => p.toolCallId === call.toolCallId)) continue;
      reported.add(call.toolCallId);
      await c.mutate(M.ok("report"), c.chat("reportToolResult"), { chatId: c.a.activeChatId, toolCallId: call.toolCallId, output: { styles: "color: blue" } });
    }
  }
  await chatGroup("tools", "tool turns: approve, approve again, reject, report an unawaited result", async () => {
    let pending: ToolCallPart | undefined;
    const r = await turn("send-tool", toolPrompt, async () => {
      if (!(await untilApproval())) return;
      pending = pendingApprovals(c.a)[0];
      if (!pending) return;
      const chatId = c.a.activeChatId;
      await snapshotB("pending-approval");
      await c.mutate(M.ok("approve"), c.chat("approveToolCall"), { chatId, toolCallId: pending.toolCallId, approved: true, metadata: METADATA });
      await c.mutate(M.reject("tool-call-not-pending", "approve-again"), c.chat("approveToolCall"), {
        chatId,
        toolCallId: pending.toolCallId,
        approved: true,
        metadata: METADATA,
      });
      // Toolbar calls that follow the approval run as they come.
      while (await c.waitA((s) => unrun(s).length > 0 || !s.isWorking, behaviourMs)) {
        if (!unrun(c.a).length) break;
        await toolbarCalls();
      }
    });
    if (r.started && !pending) {
      c.note(NOTE.notApplicable, { topic: TOPIC.approval, reason: "the tool prompt brought no tool call that needs approval" });
      return;
    }
    if (!pending) return;
    await snapshotB("after-tool-turn");
    const chatId = c.a.activeChatId;
    if (pending.runtime !== "toolbar") {
      await c.mutate(M.reject("tool-call-not-pending", "report-unawaited"), c.chat("reportToolResult"), {
        chatId,
        toolCallId: pending.toolCallId,
        output: "unasked",
      });
    }
    // The other answer: a refusal.
    await turn("send-tool-reject", toolPrompt, async () => {
      if (!(await untilApproval())) return;
      const call = pendingApprovals(c.a)[0];
      if (call)
        await c.mutate(M.ok("approve-reject"), c.chat("approveToolCall"), {
          chatId: c.a.activeChatId,
          toolCallId: call.toolCallId,
          approved: false,
          reason: "not now",
          metadata: METADATA,
        });
    });
    // Stop while an approval is pending.
    await turn("send-tool-stop", toolPrompt, async () => {
      if (!(await untilApproval())) return;
      if (pendingApprovals(c.a).length) await c.mutate(M.ok("stop-pending"), c.chat("stop"), undefined);
    });
    await c.quiet(quiet);
    await snapshotB("after-stop-pending");
  });

  if (!reported.size) c.note(NOTE.notApplicable, { topic: TOPIC.toolbarTool, reason: 'no tool call ran in the toolbar (runtime "toolbar")' });

  await chatGroup("stop", "stop mid-turn", async () => {
    await turn("send-stop", prompt, async () => {
      await c.quiet(50);
      if (c.a.isWorking) await c.mutate(M.ok("stop-mid"), c.chat("stop"), undefined);
    });
    await snapshotB("after-stop");
  });

  await chatGroup("delete", "delete messages, then the second chat", async () => {
    if (!(await atRest())) return;
    const chatId = c.a.activeChatId;
    const from = firstUserMessage && c.a.messages.some((m) => m.id === firstUserMessage) ? firstUserMessage : c.a.messages.find((m) => m.role === "user")?.id;
    if (chatId && from) {
      await c.mutate(M.ok("delete-messages"), c.chat("deleteMessageAndSubsequent"), { chatId, messageId: from });
      await c.waitA((s) => !s.messages.some((m) => m.id === from), p.updateWaitMs);
    }
    if (second && second !== c.a.activeChatId) {
      await c.mutate(M.ok("delete"), c.chat("deleteChat"), chatRef(second));
      await c.waitA((s) => !s.chats.some((chat) => chat.id === second), p.updateWaitMs);
    }
    await c.quiet(quiet);
    await snapshotB("after-delete");
  });

  await chatGroup("resubscribe", "resubscriptions: lastEventId known, unknown, malformed; concurrent; after a drop", async () => {
    const head = c.aSeq;
    await c.snapshot(fresh, M.resume("known"), { lastEventId: String(head ?? 0) });
    await c.snapshot(fresh, M.resume("unknown"), { lastEventId: "999999999" });
    await c.snapshot(fresh, M.resume("malformed"), { lastEventId: "x" });
    await Promise.all([c.snapshot(fresh, M.resume("concurrent-1")), c.snapshot(fresh, M.resume("concurrent-2"))]);
    // The toolbar drops and comes back with the last id it saw.
    const r = await c.open(C.resume);
    if (r.ok) {
      extra.push(r.conn);
      await c.snapshot(r.conn, M.resume("after-drop"), { lastEventId: String(head ?? 0) });
    }
  });

  await c.group("security", "the target on a non-loopback address", async () => {
    const lan = lanAddress();
    if (!lan) {
      c.note(NOTE.lan, { reason: "this machine has no non-loopback IPv4 address" });
      return;
    }
    const loopback = c.target.host === "127.0.0.1" || c.target.host === "localhost" || c.target.host === "::1" || c.target.host === "[::1]";
    c.note(NOTE.lan, { address: lan, loopbackTarget: loopback });
    if (loopback) await c.get(X.infoLan, p.infoPath, `http://${lan}:${c.target.port}`).catch(() => undefined);
  });

  await c.group("keepalive", "the server's PING on a silent connection", async () => {
    // A little past the limit: a timer may fire a millisecond early, and a wait that ends short of
    // the limit cannot judge a PING that never came.
    if (silent && p.slow) await silent.until((m) => m.frame.data === "PING", Math.max(0, p.pingAfterMs + PING_WAIT_SLACK_MS - (performance.now() - silentOpened)));
    c.note(NOTE.silent, { waitedMs: Math.round(performance.now() - silentOpened), slow: p.slow, pingAfterMs: p.pingAfterMs });
  });
}

function errorReason(r: { result?: import("./checks/support.js").Result }): unknown {
  const e = r.result?.kind === "error" ? r.result.error : undefined;
  return e && typeof e.data === "object" && e.data !== null ? (e.data as { reason?: unknown }).reason : undefined;
}

/** A non-loopback IPv4 address of this machine, if any. */
function lanAddress(): string | undefined {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  return undefined;
}
