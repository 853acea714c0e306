import { afterEach, describe, expect, it } from "vitest";
import { PI_WEB_BUSY_ERROR, type PiWebStartOptions } from "../../../src/mocks/pi-web/index.js";
import { Client, grammarProblems, label, mock, runEvents, shape, sleep, type Json } from "./helpers.js";

const open: { close(): Promise<void> }[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const m of open.splice(0)) await m.close();
});

async function setup(options: PiWebStartOptions = {}, query = "") {
  const m = await mock(options);
  open.push(m);
  const connect = async (q = query) => {
    const c = await Client.open(`${m.ws}/ws${q}`);
    clients.push(c);
    return c;
  };
  return { m, connect, c: await connect() };
}

const after = (ms: Json[], pred: (m: Json) => boolean) => ms.slice(ms.findIndex(pred));

describe("queueing (§3 rules 6–11)", () => {
  it("a busy prompt without streamingBehavior fails; with it, it is queued (pendingMessageCount) and starts no run", async () => {
    const { c } = await setup({ chunkDelay: 2 });
    c.send({ type: "prompt", id: "p1", message: "scenario:long go" });
    await c.waitFor((x) => x.type === "message_update");
    expect(await c.request({ type: "prompt", message: "again" })).toMatchObject({ success: false, error: PI_WEB_BUSY_ERROR });
    const state = await c.request({ type: "get_state" });
    expect(state.data).toMatchObject({ isStreaming: true, pendingMessageCount: 0 });
    expect((await c.request({ type: "prompt", message: "later", streamingBehavior: "followUp" })).success).toBe(true);
    expect((await c.request({ type: "get_state" })).data.pendingMessageCount).toBe(1);
    await c.waitFor((x) => x.type === "agent_end");
    expect(c.count("agent_start")).toBe(1);
    const run = runEvents(c.messages);
    expect(grammarProblems(run)).toEqual([]);
    // The follow-up came where the agent would have stopped, in the same run.
    const tail = shape(after(run, (x) => x.type === "turn_end"));
    expect(tail.slice(0, 4)).toEqual(["turn_end", "turn_start", "message_start:user", "message_end:user"]);
    const echo = run.filter((x) => x.type === "message_end" && x.message.role === "user").at(-1)!;
    expect(echo.message.content).toEqual([{ type: "text", text: "later" }]);
    expect(run.filter((x) => x.type === "message_end").at(-1)!.message.content[0].text).toBe("Follow-up: later");
    expect((await c.request({ type: "get_state" })).data).toMatchObject({ isStreaming: false, pendingMessageCount: 0 });
  });

  it("a steer queued during call_1 skips call_2, then the steer is echoed and answered in the same run", async () => {
    const { c } = await setup({ toolDelay: 40 });
    c.send({ type: "prompt", id: "q", message: "scenario:queue go", images: [] });
    await c.waitFor((x) => x.type === "tool_execution_start" && x.toolCallId === "call_1");
    const img = { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" };
    expect((await c.request({ type: "prompt", message: "Focus on auth only", streamingBehavior: "steer", images: [img] })).success).toBe(true);
    await c.waitFor((x) => x.type === "agent_end");
    const run = runEvents(c.messages);
    expect(grammarProblems(run)).toEqual([]);
    const s = shape(after(run, (x) => x.type === "tool_execution_end" && x.toolCallId === "call_1"));
    expect(s).toEqual([
      "tool_execution_end",
      "message_start:toolResult",
      "message_end:toolResult",
      "tool_execution_start",
      "tool_execution_end",
      "message_start:toolResult",
      "message_end:toolResult",
      "turn_end",
      "turn_start",
      "message_start:user",
      "message_end:user",
      "message_start:assistant",
      "update:text_start",
      expect.stringMatching(/^update:text_delta×\d+$/),
      "update:text_end",
      "message_end:assistant",
      "turn_end",
      "agent_end",
    ]);
    const skipped = run.find((x) => x.type === "tool_execution_end" && x.toolCallId === "call_2")!;
    expect(skipped).toMatchObject({ isError: true, result: { content: [{ type: "text", text: "Skipped due to queued user message." }] } });
    expect(run.filter((x) => x.type === "tool_execution_update" && x.toolCallId === "call_2")).toEqual([]);
    const steer = run.filter((x) => x.type === "message_end" && x.message.role === "user").at(-1)!.message;
    expect(steer.content).toEqual([{ type: "text", text: "Focus on auth only" }, img]);
    expect(run.at(-2)!.message.content[0].text).toBe("Steering received: Focus on auth only");
    const history = (await c.request({ type: "get_messages" })).data.messages as Json[];
    expect(history.slice(-run.at(-1)!.messages.length)).toEqual(run.at(-1)!.messages);
  });

  it("follow-ups wait for the end and come one per turn; clear_queue returns and drops what is left", async () => {
    const { c } = await setup({ toolDelay: 40 });
    c.send({ type: "prompt", id: "q", message: "scenario:queue go" });
    await c.waitFor((x) => x.type === "tool_execution_start" && x.toolCallId === "call_1");
    for (const t of ["one", "two"]) await c.request({ type: "prompt", message: t, streamingBehavior: "followUp" });
    await c.waitFor((x) => x.type === "agent_end");
    const run = runEvents(c.messages);
    expect(grammarProblems(run)).toEqual([]);
    const replies = run.filter((x) => x.type === "message_end" && x.message.role === "assistant").map((x) => x.message.content.at(-1)?.text);
    expect(replies.slice(1)).toEqual(["Both tools finished.", "Follow-up: one", "Follow-up: two"]);
    expect(run.filter((x) => x.type === "tool_execution_end").every((x) => x.isError === false)).toBe(true);

    c.send({ type: "prompt", id: "q2", message: "scenario:queue again" });
    await c.waitFor((x) => x.type === "tool_execution_start" && x.id === undefined, 5000, c.messages.length);
    await c.request({ type: "prompt", message: "s1", streamingBehavior: "steer" });
    await c.request({ type: "prompt", message: "f1", streamingBehavior: "followUp" });
    await c.request({ type: "prompt", message: "f2", streamingBehavior: "followUp" });
    const from = c.messages.length;
    const cleared = await c.request({ type: "clear_queue" });
    expect(cleared.data).toEqual({ steering: ["s1"], followUp: ["f1", "f2"] });
    expect((await c.request({ type: "get_state" })).data.pendingMessageCount).toBe(0);
    await c.waitFor((x) => x.type === "agent_end", 5000, from);
    const texts = c.messages.slice(from).filter((x) => x.type === "message_end" && x.message.role === "user");
    expect(texts).toEqual([]);
  });
});

describe("abort (§3 rule 18)", () => {
  it("mid-stream: text_end, message_end aborted, turn_end, agent_end, then the response; the queue stays", async () => {
    const { c } = await setup({ chunkDelay: 2 });
    c.send({ type: "prompt", id: "p", message: "scenario:abort go" });
    await c.nth("message_update", 5);
    await c.request({ type: "prompt", message: "kept", streamingBehavior: "followUp" });
    const from = c.messages.length;
    c.send({ type: "abort", id: "a1" });
    await c.waitFor((x) => x.id === "a1");
    const tail = c.messages.slice(from);
    const s = shape(tail).filter((l) => !l.startsWith("update:text_delta"));
    expect(s).toEqual(["update:text_end", "message_end:assistant", "turn_end", "agent_end", "response:abort:true"]);
    const end = tail.find((x) => x.type === "message_end")!.message;
    expect(end).toMatchObject({ stopReason: "aborted", errorMessage: "Request was aborted" });
    expect(grammarProblems(runEvents(c.messages))).toEqual([]);
    expect((await c.request({ type: "get_state" })).data).toMatchObject({ isStreaming: false, pendingMessageCount: 1 });
    expect((await c.request({ type: "clear_queue" })).data).toEqual({ steering: [], followUp: ["kept"] });
  });

  it("abort-open-block: no text_end for the open block", async () => {
    const { c } = await setup({ chunkDelay: 2 });
    c.send({ type: "prompt", id: "p", message: "scenario:abort-open-block go" });
    await c.nth("message_update", 5);
    await c.request({ type: "abort" });
    expect(c.messages.filter((x) => x.assistantMessageEvent?.type === "text_end")).toEqual([]);
    expect(c.messages.find((x) => x.type === "message_end" && x.message.role === "assistant")!.message.stopReason).toBe("aborted");
    expect(c.count("agent_end")).toBe(1);
  });

  it("during tools (queue): running and pending calls end 'Command aborted', then an empty aborted message", async () => {
    const { c } = await setup({ toolDelay: 100 });
    c.send({ type: "prompt", id: "p", message: "scenario:queue go" });
    await c.waitFor((x) => x.type === "tool_execution_update" && x.toolCallId === "call_1");
    await c.request({ type: "abort" });
    const run = runEvents(c.messages);
    expect(grammarProblems(run)).toEqual([]);
    const ends = run.filter((x) => x.type === "tool_execution_end");
    expect(ends.map((e) => [e.toolCallId, e.isError, e.result.content[0].text])).toEqual([
      ["call_1", true, "Command aborted"],
      ["call_2", true, "Command aborted"],
    ]);
    expect(shape(after(run, (x) => x.type === "turn_end"))).toEqual([
      "turn_end",
      "turn_start",
      "message_start:assistant",
      "message_end:assistant",
      "turn_end",
      "agent_end",
    ]);
    expect(run.at(-3)!.message).toMatchObject({ content: [], stopReason: "aborted", errorMessage: "Request was aborted" });
  });
});

describe("sessions (§3 rules 20–24)", () => {
  it("switch_session: session_changed before the response, fields match get_state, history loaded", async () => {
    const { c } = await setup();
    const list = (await c.request({ type: "list_sessions" })).data.sessions as Json[];
    const target = list.find((s) => s.messageCount === 4)!;
    const from = c.messages.length;
    c.send({ type: "switch_session", id: "sw", sessionPath: target.path });
    await c.waitFor((x) => x.id === "sw");
    const [changed, response] = c.messages.slice(from);
    expect(response).toEqual({ type: "response", id: "sw", command: "switch_session", success: true, data: { cancelled: false } });
    expect(changed).toEqual({
      type: "session_changed",
      reason: "switch",
      sessionId: target.id,
      messageCount: 4,
      leafId: expect.stringMatching(/^[0-9a-f]{8}$/),
      sessionFile: target.path,
      sessionName: "README tour",
    });
    const state = (await c.request({ type: "get_state" })).data;
    expect(state).toMatchObject({ sessionId: changed!.sessionId, messageCount: 4, sessionFile: target.path, sessionName: "README tour" });
    const history = (await c.request({ type: "get_messages" })).data.messages as Json[];
    expect(history.map((x) => x.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(history[1].content.map((x: Json) => x.type)).toEqual(["thinking", "toolCall"]);
    expect((await c.request({ type: "get_context_usage" })).data.usage.tokens).toBeGreaterThan(0);
  });

  it("new_session after a run: a new id, no messages; the old session becomes listed", async () => {
    const { c } = await setup();
    const before = (await c.request({ type: "get_state" })).data;
    c.send({ type: "prompt", id: "p", message: "hello" });
    await c.waitFor((x) => x.type === "agent_end");
    const listed = (await c.request({ type: "list_sessions" })).data.sessions as Json[];
    expect(listed[0]).toMatchObject({ id: before.sessionId, messageCount: 2, firstMessage: "hello" });
    const from = c.messages.length;
    c.send({ type: "new_session", id: "n", parentSession: before.sessionFile });
    await c.waitFor((x) => x.id === "n");
    const [changed, response] = c.messages.slice(from);
    expect(changed).toMatchObject({ type: "session_changed", reason: "new", messageCount: 0, leafId: null });
    expect(response!.data).toEqual({ cancelled: false });
    const after = (await c.request({ type: "get_state" })).data;
    expect(after.sessionId).not.toBe(before.sessionId);
    expect(after).toMatchObject({ sessionId: changed!.sessionId, messageCount: 0, sessionFile: changed!.sessionFile });
    expect((await c.request({ type: "get_messages" })).data.messages).toEqual([]);
    expect((await c.request({ type: "get_context_usage" })).data.usage).toEqual({ tokens: 0, contextWindow: 32000, percent: 0 });
  });

  it("new_session mid-run: default ends the run (agent_end) first; pi-fork-0.54 drops the rest of it", async () => {
    const { c } = await setup({ chunkDelay: 2 });
    c.send({ type: "prompt", id: "p", message: "scenario:long go" });
    await c.nth("message_update", 3);
    await c.request({ type: "prompt", message: "dropped", streamingBehavior: "followUp" });
    await c.request({ type: "new_session" });
    const s = c.messages.map(label);
    expect(s.indexOf("agent_end")).toBeGreaterThan(-1);
    expect(s.indexOf("agent_end")).toBeLessThan(s.indexOf("session_changed"));
    expect((await c.request({ type: "get_state" })).data.pendingMessageCount).toBe(0);

    const fork = await setup({ chunkDelay: 2, profile: "pi-fork-0.54" });
    fork.c.send({ type: "prompt", id: "p", message: "scenario:long go" });
    await fork.c.nth("message_update", 3);
    await fork.c.request({ type: "new_session" });
    await sleep(50);
    const f = fork.c.messages.map(label);
    expect(f).not.toContain("agent_end");
    expect(f).not.toContain("message_end:assistant");
    expect(f.at(-2)).toBe("session_changed");
    expect((await fork.c.request({ type: "get_state" })).data.isStreaming).toBe(false);
  });

  it("pi-fork-0.54 quirks: busy prompt double response, missing switch creates, default scope cwd", async () => {
    const { c, connect } = await setup({ chunkDelay: 2, profile: "pi-fork-0.54" });
    const other = await connect();
    c.send({ type: "prompt", id: "p", message: "scenario:long go" });
    await c.waitFor((x) => x.type === "message_update");
    c.send({ type: "prompt", id: "busy", message: "again" });
    await c.waitFor((x) => x.id === "busy" && x.success === true);
    expect(c.messages.filter((x) => x.id === "busy").map((x) => x.success)).toEqual([false, true]);
    await other.waitFor((x) => x.id === "busy");
    expect(other.messages.filter((x) => x.id === "busy").map((x) => x.success)).toEqual([false]);
    await c.request({ type: "abort" });
    const missing = await c.request({ type: "switch_session", sessionPath: "/tmp/new.jsonl" });
    expect(missing).toMatchObject({ success: true, data: { cancelled: false } });
    expect((await c.request({ type: "get_state" })).data).toMatchObject({ sessionFile: "/tmp/new.jsonl", messageCount: 0 });
    const dflt = (await c.request({ type: "list_sessions" })).data.sessions as Json[];
    expect(dflt.every((s) => s.cwd === "/mock/cwd")).toBe(true);
    const invalid = await c.request({ type: "prompt", message: 42 });
    expect(invalid.success).toBe(true);
    await c.waitFor((x) => x.id === invalid.id && x.success === false);
  });

  it("switch-mid-run: session_changed ends the run without agent_end", async () => {
    const { c } = await setup({ chunkDelay: 1 });
    const before = (await c.request({ type: "get_state" })).data.sessionId;
    c.send({ type: "prompt", id: "p", message: "scenario:switch-mid-run go" });
    const changed = await c.waitFor((x) => x.type === "session_changed");
    await sleep(30);
    expect(changed).toMatchObject({ reason: "new", messageCount: 0 });
    expect(changed.sessionId).not.toBe(before);
    expect(c.messages.map(label).filter((l) => l.startsWith("update:"))).toHaveLength(3);
    expect(c.count("agent_end")).toBe(0);
    expect((await c.request({ type: "get_state" })).data).toMatchObject({ isStreaming: false, sessionId: changed.sessionId });
  });
});

describe("extension UI (§3 rules 26–27)", () => {
  it("ext-dialogs: each dialog after the previous resolves; the first reply wins, from any socket", async () => {
    const { c, connect } = await setup();
    const other = await connect();
    c.send({ type: "prompt", id: "x", message: "scenario:ext-dialogs go" });
    const next = async (method: string) => {
      const req = await other.waitFor((x) => x.type === "extension_ui_request" && x.method === method);
      await c.waitFor((x) => x.id === req.id);
      return req;
    };
    expect(await c.waitFor((x) => x.type === "response")).toMatchObject({ id: "x", success: true });
    const confirm = await next("confirm");
    const methods = () => c.messages.filter((x) => x.type === "extension_ui_request").map((x) => x.method);
    expect(methods()).toEqual(["notify", "setStatus", "confirm"]);
    expect(c.messages.find((x) => x.method === "notify")).toMatchObject({ message: "Mock extension starting", notifyType: "info" });
    expect(confirm).toMatchObject({ title: "Proceed?", message: "Run the dialog demo?" });
    await sleep(30);
    expect(methods()).toHaveLength(3); // blocked until answered
    other.send({ type: "extension_ui_response", id: confirm.id, confirmed: true });
    c.send({ type: "extension_ui_response", id: confirm.id, confirmed: false }); // second reply: ignored
    const select = await next("select");
    expect(select).toMatchObject({ title: "Pick one", options: ["alpha", "beta", "gamma"], timeout: 30000 });
    c.send({ type: "extension_ui_response", id: select.id, value: "beta" });
    const input = await next("input");
    expect(input).toMatchObject({ title: "Your name", placeholder: "name" });
    c.send({ type: "extension_ui_response", id: input.id, cancelled: true });
    const editor = await next("editor");
    expect(editor).toMatchObject({ title: "Edit text", prefill: "draft" });
    c.send({ type: "extension_ui_response", id: editor.id, value: "edited" });
    await c.waitFor((x) => x.type === "agent_end");
    expect(methods()).toEqual(["notify", "setStatus", "confirm", "select", "input", "editor", "set_editor_text", "setWidget", "setTitle"]);
    expect(c.messages.find((x) => x.method === "setWidget")).toMatchObject({ widgetKey: "mock", widgetLines: ["line 1"], widgetPlacement: "belowEditor" });
    const reply = c.messages.filter((x) => x.type === "message_end").at(-1)!.message.content[0].text;
    expect(reply).toBe("confirm=true select=beta input=none editor=edited");
    expect(c.messages.filter((x) => x.command === "extension_ui_response")).toEqual([]);
    expect(other.messages.filter((x) => x.type === "response")).toEqual([]);
  });

  it("a confirm answered with value means false; ext-timeout gives up silently", async () => {
    const { c } = await setup();
    c.send({ type: "prompt", id: "x", message: "scenario:ext-dialogs go" });
    const confirm = await c.waitFor((x) => x.method === "confirm");
    c.send({ type: "extension_ui_response", id: confirm.id, value: "yes" });
    for (const method of ["select", "input", "editor"]) {
      const r = await c.waitFor((x) => x.method === method);
      c.send({ type: "extension_ui_response", id: r.id, cancelled: true });
    }
    await c.waitFor((x) => x.type === "agent_end");
    expect(c.messages.filter((x) => x.type === "message_end").at(-1)!.message.content[0].text).toBe(
      "confirm=false select=none input=none editor=none",
    );
    const from = c.messages.length;
    const t0 = Date.now();
    c.send({ type: "prompt", id: "t", message: "scenario:ext-timeout go" });
    const sel = await c.waitFor((x) => x.method === "select", 5000, from);
    expect(sel.timeout).toBe(500);
    await c.waitFor((x) => x.type === "agent_end", 5000, from);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(450);
    expect(c.messages.slice(from).map(label)).toEqual([
      "response:prompt:true",
      "extension_ui_request",
      ...runEvents(c.messages.slice(from)).map(label),
    ]);
    expect(c.messages.filter((x) => x.type === "message_end").at(-1)!.message.content[0].text).toBe("select=none");
  });

  it("--confirm-new-session: false or cancel → {cancelled:true} and no event; true → new session", async () => {
    const { c } = await setup({ confirmNewSession: true });
    for (const answer of [{ confirmed: false }, { cancelled: true }]) {
      c.send({ type: "new_session", id: `n${JSON.stringify(answer)}` });
      const req = await c.waitFor((x) => x.method === "confirm" && !c.messages.some((y) => y.type === "response" && y.id === `n${JSON.stringify(answer)}`), 5000, c.messages.length - 1);
      expect(req).toMatchObject({ title: "New session", message: "Start a new session?" });
      c.send({ type: "extension_ui_response", id: req.id, ...answer });
      const r = await c.waitFor((x) => x.id === `n${JSON.stringify(answer)}`);
      expect(r.data).toEqual({ cancelled: true });
    }
    expect(c.count("session_changed")).toBe(0);
    c.send({ type: "new_session", id: "yes" });
    const req = await c.waitFor((x) => x.method === "confirm", 5000, c.messages.length - 1);
    c.send({ type: "extension_ui_response", id: req.id, confirmed: true });
    expect((await c.waitFor((x) => x.id === "yes")).data).toEqual({ cancelled: false });
    expect(c.count("session_changed")).toBe(1);
  });
});

describe("fan-out, drops and resync (§3 rules 1–2)", () => {
  it("every socket sees the same events in the same order; responses reach only the requester", async () => {
    const { c, connect } = await setup({ toolDelay: 5 });
    const passive = await connect();
    c.send({ type: "prompt", id: "f", message: "scenario:tool go" });
    await c.waitFor((x) => x.type === "agent_end");
    await passive.waitFor((x) => x.type === "agent_end");
    expect(passive.events()).toEqual(c.events());
    expect(passive.messages.filter((x) => x.type === "response")).toEqual([]);
    await c.request({ type: "new_session" });
    await passive.waitFor((x) => x.type === "session_changed");
    expect(passive.messages.filter((x) => x.type === "response")).toEqual([]);
  });

  it("a client dropping mid-stream changes nothing for the run; a new client resyncs with get_state / get_messages", async () => {
    const { m, c, connect } = await setup({ chunkDelay: 1 });
    const watcher = await connect();
    c.send({ type: "prompt", id: "d", message: "scenario:long go" });
    await c.nth("message_update", 20);
    c.socket.terminate();
    await sleep(20);
    const late = await connect();
    await late.waitFor((x) => x.type === "message_update");
    // Nothing is replayed: the late socket joins mid-message.
    expect(late.messages[0]!.type).toBe("message_update");
    expect(late.messages.map(label)).not.toContain("message_start:assistant");
    const state = (await late.request({ type: "get_state" })).data;
    expect(state.isStreaming).toBe(true);
    expect((await (await fetch(`${m.url}/health`)).json()).clients).toBe(2);
    await watcher.waitFor((x) => x.type === "agent_end", 15_000);
    const end = await late.waitFor((x) => x.type === "agent_end", 15_000);
    expect(grammarProblems(runEvents(watcher.messages))).toEqual([]);
    expect(late.events().length).toBeLessThan(watcher.events().length);
    expect(late.events()).toEqual(watcher.events().slice(-late.events().length));
    const history = (await late.request({ type: "get_messages" })).data.messages as Json[];
    expect(history.slice(-end.messages.length)).toEqual(end.messages);
    expect((await late.request({ type: "get_state" })).data).toMatchObject({ isStreaming: false, messageCount: history.length });
  });

  it("foreign-run and connect-notify (?scenario=): events nobody on this socket asked for", async () => {
    const { c } = await setup({}, "?scenario=foreign-run");
    const end = await c.waitFor((x) => x.type === "agent_end");
    expect(end.messages[0].content[0].text).toBe("Hello from another client");
    expect(c.messages.filter((x) => x.type === "response")).toEqual([]);
    const { c: d } = await setup({}, "?scenario=connect-notify");
    expect(await d.waitFor((x) => x.type === "extension_ui_request")).toMatchObject({ method: "notify", notifyType: "info" });
    const { c: e } = await setup({ scenario: "connect-notify" });
    expect(await e.waitFor((x) => x.type === "extension_ui_request")).toMatchObject({ method: "notify" });
  });

  it("reorder-responses (?scenario=): back-to-back commands are answered in reverse order", async () => {
    const { c } = await setup({}, "?scenario=reorder-responses");
    for (const id of ["r1", "r2", "r3"]) c.send({ type: "get_state", id });
    await c.waitFor((x) => x.id === "r1");
    expect(c.messages.map((x) => x.id)).toEqual(["r3", "r2", "r1"]);
  });

  it("server-shutdown: commands go unanswered, every socket closes 1001, a reconnect resyncs", async () => {
    const { c, connect } = await setup({ chunkDelay: 20 });
    const other = await connect();
    c.send({ type: "prompt", id: "s", message: "scenario:server-shutdown go" });
    await c.waitFor((x) => x.type === "message_update");
    c.send({ type: "get_state", id: "pending" });
    expect(await c.waitClosed()).toEqual({ code: 1001, reason: "server shutting down" });
    expect((await other.waitClosed()).code).toBe(1001);
    expect(c.messages.some((x) => x.id === "pending")).toBe(false);
    const again = await connect();
    const state = (await again.request({ type: "get_state" })).data;
    expect(state.isStreaming).toBe(false);
    expect((await again.request({ type: "get_messages" })).data.messages.map((x: Json) => x.role)).toEqual(["user"]);
  });
});
