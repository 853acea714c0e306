import { afterEach, describe, expect, it } from "vitest";
import { createPiWebEngine, PI_WEB_FAULTS, startPiWebMock, type PiWebStartOptions } from "../../../src/mocks/pi-web/index.js";
import { Client, grammarProblems, label, mock, rawUpgrade, runEvents, shape, sleep, type Json } from "./helpers.js";

/** §7, fault → the check ids (short form) it must trip. */
const TABLE: Record<string, string[]> = {
  "ws-path-moved": ["conn/ws-upgrade"],
  "ws-any-path": ["conn/other-path-404"],
  "token-ignored": ["conn/token-401"],
  "origin-ignored": ["conn/origin-403"],
  "no-health": ["conn/health"],
  "binary-frames": ["framing/json-object-frames"],
  "batched-frames": ["framing/json-object-frames"],
  "snake-case-fields": ["framing/server-schema"],
  "unknown-event-type": ["framing/known-types"],
  "drop-response": ["rpc/response-per-command"],
  "response-id-mismatch": ["rpc/response-echo"],
  "id-mangled": ["rpc/response-echo"],
  "duplicate-response": ["rpc/single-response"],
  "duplicate-prompt-response": ["rpc/single-response", "rpc/response-unicast", "cmd/prompt-busy"],
  "error-without-message": ["rpc/result-shape"],
  "state-missing-session-id": ["rpc/result-shape"],
  "unknown-command-no-id": ["rpc/unknown-command"],
  "close-on-malformed": ["rpc/bad-input"],
  "missing-type-silent": ["rpc/bad-input"],
  "response-broadcast": ["rpc/response-unicast"],
  "prompt-no-run": ["cmd/prompt-accepted"],
  "busy-prompt-queued": ["cmd/prompt-busy"],
  "invalid-prompt-accepted": ["cmd/prompt-invalid"],
  "images-dropped": ["cmd/prompt-images"],
  "never-streaming": ["cmd/get-state-streaming"],
  "history-missing-run": ["cmd/get-messages"],
  "sessions-unsorted": ["cmd/list-sessions"],
  "scope-default-cwd": ["cmd/list-sessions-default-scope"],
  "switch-ignored": ["cmd/switch-session"],
  "switch-missing-creates": ["cmd/switch-session-missing"],
  "new-session-keeps-history": ["cmd/new-session"],
  "clear-queue-still-injects": ["cmd/clear-queue"],
  "abort-ignored": ["cmd/abort"],
  "abort-idle-error": ["cmd/abort"],
  "abort-early-response": ["cmd/abort-order"],
  "steer-new-run": ["queue/steer-injected"],
  "steer-runs-all-tools": ["queue/steer-skips-tools"],
  "follow-up-as-steer": ["queue/follow-up-at-end"],
  "abort-clears-queue": ["queue/abort-keeps-queue"],
  "no-agent-end-after-abort": ["event/agent-bracketing", "cmd/abort"],
  "nested-agent-start": ["event/agent-bracketing"],
  "switch-suppresses-agent-end": ["event/agent-bracketing"],
  "agent-end-empty-messages": ["event/extras-consistent"],
  "message-end-missing": ["event/message-nesting"],
  "error-as-response": ["event/error-run"],
  "delta-before-start": ["stream/block-grammar"],
  "content-index-from-1": ["stream/block-grammar"],
  "end-content-mismatch": ["stream/end-values"],
  "toolcall-args-mismatch": ["stream/toolcall-end"],
  "tool-use-as-stop": ["stream/stop-reason"],
  "buffered-stream": ["stream/incremental"],
  "tool-end-missing": ["tool/pairing"],
  "tool-result-missing": ["tool/round-trip"],
  "session-changed-late": ["session/changed"],
  "events-unicast": ["fanout/broadcast"],
  "dialog-reply-ignored": ["ext/dialog-resolves"],
  "last-reply-wins": ["ext/first-reply-wins"],
  "stray-reply-error": ["ext/stray-reply-ignored"],
  "history-orphan-tool-result": ["history/message-shapes"],
  "slow-queries": ["timing/query-latency"],
};

const open: { close(): Promise<void> }[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const m of open.splice(0)) await m.close();
});

/** A mock with `fault` active, and a connected client. */
async function faulty(fault: string, options: PiWebStartOptions = {}) {
  const m = await mock({ faults: [fault], ...options });
  open.push(m);
  const connect = async (query = "") => {
    const c = await Client.open(`${m.ws}/ws${query}`);
    clients.push(c);
    return c;
  };
  return { m, connect };
}

async function run(c: Client, scenario = "text", said = "hi"): Promise<Json[]> {
  const from = c.messages.length;
  c.send({ type: "prompt", id: `p${from}`, message: `scenario:${scenario} ${said}` });
  await c.waitFor((x) => x.type === "agent_end", 10_000, from);
  return c.messages.slice(from);
}

describe("pi-web fault catalogue (§7)", () => {
  it("PI_WEB_FAULTS is exactly the §7 table, with full check ids", () => {
    expect(Object.fromEntries(PI_WEB_FAULTS.map((f) => [f.name, f.violates]))).toEqual(
      Object.fromEntries(Object.entries(TABLE).map(([k, v]) => [k, v.map((id) => `pi-web/${id}`)])),
    );
    for (const f of PI_WEB_FAULTS) expect(f.description.length).toBeGreaterThan(10);
  });

  it("an unknown fault name throws, in the engine and in the server", async () => {
    expect(() => createPiWebEngine({ faults: ["no-such-fault"] })).toThrow(/Unknown fault "no-such-fault"\. Valid faults: /);
    await expect(startPiWebMock({ port: 0, faults: ["no-such-fault"] })).rejects.toThrow(/Unknown fault/);
  });
});

describe("pi-web faults change exactly what they should", () => {
  it("connection faults", async () => {
    const bare = (s: string) => `HTTP/1.1 ${s}\r\n\r\n`;
    const moved = await faulty("ws-path-moved");
    expect(await rawUpgrade(moved.m.url, "/ws", { Origin: moved.m.origin })).toBe(bare("404 Not Found"));
    expect(await rawUpgrade(moved.m.url, "/socket", { Origin: moved.m.origin })).toMatch(/^HTTP\/1\.1 101/);
    const any = await faulty("ws-any-path");
    expect(await rawUpgrade(any.m.url, "/elsewhere", { Origin: any.m.origin })).toMatch(/^HTTP\/1\.1 101/);
    const token = await faulty("token-ignored", { token: "t" });
    expect(await rawUpgrade(token.m.url, "/ws?token=wrong", { Origin: token.m.origin })).toMatch(/^HTTP\/1\.1 101/);
    const origin = await faulty("origin-ignored");
    expect(await rawUpgrade(origin.m.url, "/ws", { Origin: "http://evil.example" })).toMatch(/^HTTP\/1\.1 101/);
    expect(await rawUpgrade(origin.m.url, "/ws")).toMatch(/^HTTP\/1\.1 101/);
    const health = await faulty("no-health");
    expect((await fetch(`${health.m.url}/health`)).status).toBe(404);
    // Per connection too: ?fault= on the upgrade (or the /health query).
    const plain = await faulty("no-health");
    expect(await rawUpgrade(plain.m.url, "/x?fault=ws-any-path", { Origin: plain.m.origin })).toMatch(/^HTTP\/1\.1 101/);
  });

  it("framing faults: binary events, batched events, snake_case fields, unknown event types", async () => {
    const bin = await (await faulty("binary-frames")).connect();
    bin.send({ type: "prompt", id: "p", message: "hi" });
    for (let i = 0; i < 100 && !bin.frames.some((f) => f.binary && f.data.includes('"agent_end"')); i++) await sleep(10);
    expect(bin.frames.filter((f) => f.binary).map((f) => JSON.parse(f.data).type).at(-1)).toBe("agent_end");
    const binFrames = bin.frames.filter((f) => f.binary);
    expect(binFrames.length).toBeGreaterThan(5);
    expect(bin.frames.filter((f) => !f.binary).map((f) => JSON.parse(f.data).type)).toEqual(["response"]);

    const batched = await (await faulty("batched-frames")).connect();
    batched.send({ type: "prompt", id: "b", message: "hi" });
    await sleep(200);
    const joined = batched.frames.filter((f) => f.data.includes("\n"));
    expect(joined.length).toBeGreaterThan(0);
    expect(joined[0]!.data.split("\n").map((l) => JSON.parse(l).type)).toEqual(["agent_start", "turn_start"]);

    const snake = await (await faulty("snake-case-fields", { toolDelay: 1 })).connect();
    const ms = await run(snake, "tool");
    const end = ms.find((x) => x.type === "tool_execution_end")!;
    expect(end).toMatchObject({ tool_call_id: "call_1", is_error: false });
    expect(end).not.toHaveProperty("toolCallId");
    expect(ms.find((x) => x.type === "tool_execution_start")).toHaveProperty("toolCallId", "call_1");

    const unknown = await (await faulty("unknown-event-type")).connect();
    expect(shape(await run(unknown)).slice(1, 4)).toEqual(["agent_start", "turn_start", "agent_progress"]);
  });

  it("rpc faults: dropped, mismatched, mangled, duplicated and broadcast responses", async () => {
    const drop = await (await faulty("drop-response")).connect();
    drop.send({ type: "get_context_usage", id: "u" });
    expect((await drop.request({ type: "get_state" })).success).toBe(true);
    await sleep(50);
    expect(drop.messages.some((x) => x.id === "u")).toBe(false);

    const mismatch = await (await faulty("response-id-mismatch")).connect();
    mismatch.send({ type: "get_state", id: "req_1" });
    expect((await mismatch.waitFor((x) => x.type === "response")).id).toBe("req_1-1");

    const mangled = await (await faulty("id-mangled")).connect();
    expect((await mangled.request({ type: "get_state", id: "plain_1" })).id).toBe("plain_1");
    mangled.send({ type: "get_state", id: " café☃ " });
    expect((await mangled.waitFor((x) => x.type === "response" && x.id !== "plain_1")).id).toBe("cafe");

    const dup = await (await faulty("duplicate-response")).connect();
    await dup.request({ type: "get_state", id: "s" });
    await dup.request({ type: "get_messages", id: "m" });
    expect(dup.messages.map((x) => x.id)).toEqual(["s", "s", "m"]);

    const { connect } = await faulty("response-broadcast");
    const [a, b] = [await connect(), await connect()];
    await a.request({ type: "get_state", id: "mine" });
    await b.waitFor((x) => x.id === "mine");
  });

  it("duplicate-prompt-response: a busy prompt gets a broadcast failure, then a success", async () => {
    const { connect } = await faulty("duplicate-prompt-response", { chunkDelay: 2 });
    const [a, b] = [await connect(), await connect()];
    a.send({ type: "prompt", id: "p", message: "scenario:long go" });
    await a.waitFor((x) => x.type === "message_update");
    a.send({ type: "prompt", id: "busy", message: "again" });
    await a.waitFor((x) => x.id === "busy" && x.success);
    expect(a.messages.filter((x) => x.id === "busy").map((x) => x.success)).toEqual([false, true]);
    expect((await b.waitFor((x) => x.id === "busy")).success).toBe(false);
    expect((await a.request({ type: "get_state" })).data.pendingMessageCount).toBe(0);
  });

  it("result-shape, unknown-command and bad-input faults", async () => {
    const noError = await (await faulty("error-without-message")).connect();
    const f = await noError.request({ type: "nope" });
    expect(f.success).toBe(false);
    expect(f).not.toHaveProperty("error");
    const noSession = await (await faulty("state-missing-session-id")).connect();
    const s = await noSession.request({ type: "get_state" });
    expect(s.data).not.toHaveProperty("sessionId");
    expect(s.data).toHaveProperty("sessionFile");
    const noId = await (await faulty("unknown-command-no-id")).connect();
    noId.send({ type: "no_such_command", id: "u" });
    const u = await noId.waitFor((x) => x.type === "response");
    expect(u).toEqual({ type: "response", command: "no_such_command", success: false, error: "Unknown command: no_such_command" });
    expect((await noId.request({ type: "get_state", id: "known" })).id).toBe("known");
    const closes = await (await faulty("close-on-malformed")).connect();
    closes.send("[]");
    expect((await closes.request({ type: "get_state" })).success).toBe(true);
    closes.send('{"id":');
    expect((await closes.waitClosed()).code).toBe(1007);
    const silent = await (await faulty("missing-type-silent")).connect();
    silent.send({ id: "t1" });
    await silent.request({ type: "get_state", id: "after" });
    expect(silent.messages.map((x) => x.id)).toEqual(["after"]);
  });

  it("prompt faults: no run, busy queued, invalid accepted, images dropped", async () => {
    const noRun = await (await faulty("prompt-no-run")).connect();
    expect((await noRun.request({ type: "prompt", message: "hi" })).success).toBe(true);
    await sleep(100);
    expect(noRun.events()).toEqual([]);

    const queued = await (await faulty("busy-prompt-queued", { chunkDelay: 2 })).connect();
    queued.send({ type: "prompt", id: "p", message: "scenario:long go" });
    await queued.waitFor((x) => x.type === "message_update");
    expect((await queued.request({ type: "prompt", message: "again" })).success).toBe(true);
    expect((await queued.request({ type: "get_state" })).data.pendingMessageCount).toBe(1);
    await queued.request({ type: "abort" });

    const invalid = await (await faulty("invalid-prompt-accepted")).connect();
    expect(await invalid.request({ type: "prompt", id: "i", message: 42 })).toEqual({ type: "response", id: "i", command: "prompt", success: true });
    await sleep(50);
    expect(invalid.messages.filter((x) => x.id === "i")).toHaveLength(1);
    expect(invalid.events()).toEqual([]);

    const images = await (await faulty("images-dropped")).connect();
    const img = { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" };
    images.send({ type: "prompt", id: "img", message: "look", images: [img] });
    const echo = await images.waitFor((x) => x.type === "message_end" && x.message.role === "user");
    expect(echo.message.content).toEqual([{ type: "text", text: "look" }]);
  });

  it("state and history faults: never-streaming, history-missing-run, orphan toolResult", async () => {
    const never = await (await faulty("never-streaming", { chunkDelay: 2 })).connect();
    never.send({ type: "prompt", id: "p", message: "scenario:long go" });
    await never.waitFor((x) => x.type === "message_update");
    expect((await never.request({ type: "get_state" })).data.isStreaming).toBe(false);
    await never.request({ type: "abort" });

    const missing = await (await faulty("history-missing-run")).connect();
    await run(missing);
    const ms2 = await run(missing);
    const history = (await missing.request({ type: "get_messages" })).data.messages as Json[];
    expect(history).toHaveLength(2);
    expect(history).not.toEqual(expect.arrayContaining(ms2.at(-1)!.messages));

    const orphan = await (await faulty("history-orphan-tool-result")).connect();
    const end = (await run(orphan)).at(-1)!;
    const h = (await orphan.request({ type: "get_messages" })).data.messages as Json[];
    expect(h[0]).toMatchObject({ role: "toolResult", toolCallId: "call_orphan" });
    expect(h.slice(-end.messages.length)).toEqual(end.messages);
  });

  it("session faults: unsorted, default scope cwd, switch ignored, missing creates, new keeps history, changed late", async () => {
    const unsorted = await (await faulty("sessions-unsorted")).connect();
    const list = (await unsorted.request({ type: "list_sessions" })).data.sessions as Json[];
    expect(list.map((s) => s.modified)).toEqual(list.map((s) => s.modified).sort());

    const cwd = await (await faulty("scope-default-cwd")).connect();
    expect((await cwd.request({ type: "list_sessions" })).data.sessions).toHaveLength(2);
    expect((await cwd.request({ type: "list_sessions", scope: "all" })).data.sessions).toHaveLength(3);

    const ignored = await (await faulty("switch-ignored")).connect();
    const before = (await ignored.request({ type: "get_state" })).data.sessionId;
    const target = ((await ignored.request({ type: "list_sessions" })).data.sessions as Json[])[0]!;
    expect((await ignored.request({ type: "switch_session", sessionPath: target.path })).data).toEqual({ cancelled: false });
    expect((await ignored.request({ type: "get_state" })).data.sessionId).toBe(before);

    const creates = await (await faulty("switch-missing-creates")).connect();
    expect((await creates.request({ type: "switch_session", sessionPath: "/nope.jsonl" })).success).toBe(true);
    expect((await creates.request({ type: "get_state" })).data.sessionFile).toBe("/nope.jsonl");

    const keeps = await (await faulty("new-session-keeps-history")).connect();
    await run(keeps);
    const old = (await keeps.request({ type: "get_state" })).data;
    await keeps.request({ type: "new_session" });
    const now = (await keeps.request({ type: "get_state" })).data;
    expect(now.sessionId).not.toBe(old.sessionId);
    expect(now.messageCount).toBe(2);

    const late = await (await faulty("session-changed-late")).connect();
    late.send({ type: "new_session", id: "n" });
    await late.waitFor((x) => x.type === "session_changed");
    expect(late.messages.map(label)).toEqual(["response:new_session:true", "session_changed"]);
  });

  it("queue faults: still-injects, steer-new-run, steer-runs-all-tools, follow-up-as-steer, abort-clears-queue", async () => {
    const steerWhileCall1 = async (c: Client, kind: "steer" | "followUp", text: string) => {
      c.send({ type: "prompt", id: "q", message: "scenario:queue go" });
      await c.waitFor((x) => x.type === "tool_execution_start" && x.toolCallId === "call_1");
      await c.request({ type: "prompt", message: text, streamingBehavior: kind });
    };
    const userTexts = (ms: Json[]) => ms.filter((x) => x.type === "message_end" && x.message.role === "user").map((x) => x.message.content[0].text);

    const still = await (await faulty("clear-queue-still-injects", { toolDelay: 30 })).connect();
    await steerWhileCall1(still, "followUp", "f1");
    expect((await still.request({ type: "clear_queue" })).data).toEqual({ steering: [], followUp: ["f1"] });
    await still.waitFor((x) => x.type === "agent_end");
    expect(userTexts(still.messages)).toContain("f1");

    const newRun = await (await faulty("steer-new-run", { toolDelay: 30 })).connect();
    await steerWhileCall1(newRun, "steer", "s1");
    await newRun.nth("agent_end", 2);
    const first = runEvents(newRun.messages);
    expect(userTexts(first)).toEqual(["scenario:queue go"]);
    expect(first.filter((x) => x.type === "tool_execution_end").every((x) => !x.isError)).toBe(true);
    expect(newRun.count("agent_start")).toBe(2);

    const allTools = await (await faulty("steer-runs-all-tools", { toolDelay: 30 })).connect();
    await steerWhileCall1(allTools, "steer", "s1");
    await allTools.waitFor((x) => x.type === "agent_end");
    const r = runEvents(allTools.messages);
    expect(r.find((x) => x.type === "tool_execution_end" && x.toolCallId === "call_2")!.isError).toBe(false);
    expect(userTexts(r)).toEqual(["scenario:queue go", "s1"]);

    const asSteer = await (await faulty("follow-up-as-steer", { toolDelay: 30 })).connect();
    await steerWhileCall1(asSteer, "followUp", "f1");
    await asSteer.waitFor((x) => x.type === "agent_end");
    const s = runEvents(asSteer.messages);
    const firstTurnEnd = s.findIndex((x) => x.type === "turn_end");
    expect(label(s[firstTurnEnd + 2]!)).toBe("message_start:user");
    expect(s[firstTurnEnd + 3]!.message.content[0].text).toBe("f1");

    const clears = await (await faulty("abort-clears-queue", { toolDelay: 30 })).connect();
    await steerWhileCall1(clears, "followUp", "f1");
    await clears.request({ type: "abort" });
    expect((await clears.request({ type: "get_state" })).data.pendingMessageCount).toBe(0);
  });

  it("abort faults: ignored, idle error, early response, no agent_end", async () => {
    const ignored = await (await faulty("abort-ignored", { chunkDelay: 1 })).connect();
    ignored.send({ type: "prompt", id: "p", message: "scenario:text some words to stream" });
    await ignored.waitFor((x) => x.type === "message_update");
    expect((await ignored.request({ type: "abort" })).success).toBe(true);
    const end = await ignored.waitFor((x) => x.type === "message_end" && x.message.role === "assistant");
    expect(end.message.stopReason).toBe("stop");

    const idle = await (await faulty("abort-idle-error")).connect();
    expect(await idle.request({ type: "abort", id: "a" })).toMatchObject({ success: false, error: expect.any(String) });

    const early = await (await faulty("abort-early-response", { chunkDelay: 2 })).connect();
    early.send({ type: "prompt", id: "p", message: "scenario:abort go" });
    await early.waitFor((x) => x.type === "message_update");
    early.send({ type: "abort", id: "a" });
    await early.waitFor((x) => x.type === "agent_end");
    const l = early.messages.map((x) => (x.id === "a" ? "abort-response" : label(x)));
    expect(l.indexOf("abort-response")).toBeLessThan(l.indexOf("agent_end"));

    const noEnd = await (await faulty("no-agent-end-after-abort", { chunkDelay: 2 })).connect();
    noEnd.send({ type: "prompt", id: "p", message: "scenario:abort go" });
    await noEnd.waitFor((x) => x.type === "message_update");
    expect((await noEnd.request({ type: "abort" })).success).toBe(true);
    expect(noEnd.messages.map(label).slice(-3)).toEqual(["message_end:assistant", "turn_end", "response:abort:true"]);
    expect(noEnd.count("agent_end")).toBe(0);
  });

  it("event faults: nested agent_start, switch suppresses agent_end, empty agent_end, user message_end missing, error as response", async () => {
    const nested = await (await faulty("nested-agent-start")).connect();
    const n = await run(nested);
    expect(shape(n).slice(1, 4)).toEqual(["agent_start", "turn_start", "agent_start"]);
    expect(grammarProblems(n.slice(1))).toContain("#2 agent_start: agent_start inside a run");

    const suppress = await (await faulty("switch-suppresses-agent-end", { chunkDelay: 2 })).connect();
    suppress.send({ type: "prompt", id: "p", message: "scenario:long go" });
    await suppress.waitFor((x) => x.type === "message_update");
    await suppress.request({ type: "new_session" });
    await sleep(30);
    expect(suppress.count("agent_end")).toBe(0);
    expect(suppress.messages.map(label).slice(-2)).toEqual(["session_changed", "response:new_session:true"]);

    const empty = await (await faulty("agent-end-empty-messages")).connect();
    expect((await run(empty)).at(-1)!.messages).toEqual([]);

    const noEnd = await (await faulty("message-end-missing")).connect();
    const ms = await run(noEnd);
    expect(shape(ms).slice(1, 5)).toEqual(["agent_start", "turn_start", "message_start:user", "message_start:assistant"]);
    expect(ms.at(-1)!.messages.map((x: Json) => x.role)).toEqual(["assistant"]);

    const asResponse = await (await faulty("error-as-response")).connect();
    expect(await asResponse.request({ type: "prompt", id: "e", message: "scenario:error hi" })).toMatchObject({
      success: false,
      error: "Mock provider error: 500",
    });
    await sleep(50);
    expect(asResponse.events()).toEqual([]);
    expect((await asResponse.request({ type: "prompt", message: "fine" })).success).toBe(true);
  });

  it("stream faults trip the grammar where expected, and only there", async () => {
    const problems = async (fault: string, scenario: string, options: PiWebStartOptions = {}) => {
      const c = await (await faulty(fault, { toolDelay: 1, ...options })).connect();
      return { ms: await run(c, scenario), problems: grammarProblems(runEvents(await run(c, scenario))) };
    };
    expect((await problems("delta-before-start", "text")).problems[0]).toMatch(/update:text_delta: text_delta before its start/);
    expect((await problems("content-index-from-1", "text")).problems[0]).toMatch(/block index 1 out of order/);
    expect((await problems("end-content-mismatch", "text")).problems).toEqual([
      expect.stringMatching(/update:text_end: end content differs from the deltas/),
      expect.stringMatching(/message_end:assistant: content\[0\] differs from its block end/),
    ]);
    const args = await problems("toolcall-args-mismatch", "tool");
    expect(args.problems).toEqual([expect.stringMatching(/toolCall\.arguments differ from the deltas/)]);
    expect((await problems("tool-use-as-stop", "tool")).problems).toEqual([expect.stringMatching(/stopReason stop with tool calls/)]);
    expect((await problems("tool-end-missing", "tool")).problems).toEqual(["call call_1: no end", "call call_1: no matching toolResult"]);
    const noResult = await problems("tool-result-missing", "tool");
    expect(noResult.problems).toEqual(["call call_1: no matching toolResult"]);
    expect(noResult.ms.filter((x) => x.message?.role === "toolResult")).toEqual([]);
  });

  it("buffered-stream: every update of a message in one burst at its end", async () => {
    const { connect } = await faulty("buffered-stream", { chunkDelay: 5 });
    const c = await connect();
    const times: number[] = [];
    c.socket.on("message", (d) => {
      if (String(d).includes('"message_update"')) times.push(performance.now());
    });
    c.send({ type: "prompt", id: "p", message: "scenario:text a longer sentence to stream" });
    await c.waitFor((x) => x.type === "agent_end");
    expect(times.length).toBeGreaterThan(5);
    // Streamed, the 18 updates would span ~90 ms (5 ms apart); buffered they come together.
    expect(times.at(-1)! - times[0]!).toBeLessThan(30);
  });

  it("fan-out and dialog faults: events-unicast, dialog-reply-ignored, last-reply-wins, stray-reply-error", async () => {
    const uni = await faulty("events-unicast");
    const [a, b] = [await uni.connect(), await uni.connect()];
    await run(a);
    await sleep(30);
    expect(b.messages).toEqual([]);

    const ignored = await (await faulty("dialog-reply-ignored")).connect();
    ignored.send({ type: "prompt", id: "x", message: "scenario:ext-dialogs go" });
    const confirm = await ignored.waitFor((x) => x.method === "confirm");
    ignored.send({ type: "extension_ui_response", id: confirm.id, confirmed: true });
    await sleep(100);
    expect(ignored.messages.some((x) => x.method === "select")).toBe(false);

    const last = await (await faulty("last-reply-wins")).connect();
    last.send({ type: "prompt", id: "x", message: "scenario:ext-dialogs go" });
    const c2 = await last.waitFor((x) => x.method === "confirm");
    last.send({ type: "extension_ui_response", id: c2.id, confirmed: true });
    last.send({ type: "extension_ui_response", id: c2.id, confirmed: false });
    for (const method of ["select", "input", "editor"]) {
      const r = await last.waitFor((x) => x.method === method);
      last.send({ type: "extension_ui_response", id: r.id, cancelled: true });
    }
    await last.waitFor((x) => x.type === "agent_end");
    expect(last.messages.filter((x) => x.type === "message_end").at(-1)!.message.content[0].text).toMatch(/^confirm=false /);

    const stray = await (await faulty("stray-reply-error")).connect();
    stray.send({ type: "extension_ui_response", id: "nope", value: "x" });
    expect(await stray.waitFor((x) => x.type === "response")).toMatchObject({
      id: "nope",
      command: "extension_ui_response",
      success: false,
    });
  });

  it("slow-queries: query commands take 3 s, others do not", async () => {
    const c = await (await faulty("slow-queries")).connect();
    const t0 = performance.now();
    await c.request({ type: "clear_queue" });
    expect(performance.now() - t0).toBeLessThan(500);
    await c.request({ type: "get_state" });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(2900);
  });

  it("slow-queries: the slowQueryDelay knob sets how long a query is held", async () => {
    const c = await (await faulty("slow-queries", { settings: { slowQueryDelay: 200 } })).connect();
    const t0 = performance.now();
    await c.request({ type: "get_state" });
    const ms = performance.now() - t0;
    expect(ms).toBeGreaterThanOrEqual(190);
    expect(ms).toBeLessThan(2500);
  });
});
