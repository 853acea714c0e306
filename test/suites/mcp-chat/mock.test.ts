/** The reference mock conforms to the server suite, with its default and its other settings. */
import { describe, expect, it } from "vitest";
import { runSuite } from "../../../src/core/run/runner.js";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import { TranscriptBus, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { MCP_CHAT_SERVERS } from "../../../src/mocks/mcp-chat/index.js";
import { mcpChat } from "../../../src/suites/mcp-chat/index.js";
import { byId, explain, serverSide } from "../../helpers/run-results.js";

const ok = (level: string, verdict: string) => verdict === "pass" || (level === "INFO" && verdict === "info");

describe("mcp-chat suite against the built-in mock", () => {
  it("passes every server check (INFO checks report)", async () => {
    const r = await runSuite(mcpChat);
    const checks = serverSide(r);
    expect(checks).toHaveLength(45);
    expect(checks.filter((c) => !ok(c.level, c.verdict)), explain(checks, (c) => !ok(c.level, c.verdict))).toEqual([]);
    expect(r.exitCode).toBe(0);
    expect(byId(checks, "mcp-chat/tools/call-profile").message).toMatch(/1 tool call\(s\).*0 with args \{\}/);
    expect(byId(checks, "mcp-chat/chat/disconnected-rejected").message).toMatch(/form \(b\)/);
  });

  it("probes in the documented order, every request with Origin, and ends disconnected", async () => {
    const labels: string[] = [];
    const origins = new Set<string | undefined>();
    let lastStatus: string | undefined;
    const bus = new TranscriptBus();
    bus.subscribe((e: TranscriptEvent) => {
      if (e.kind === "http-request") {
        labels.push(e.label);
        origins.add(e.headers["origin"]);
      }
      if (e.kind === "body-end" && e.label.startsWith("status-")) lastStatus = e.text;
    });
    const mock = await mcpChat.startMock({ host: "127.0.0.1", port: 0 });
    try {
      await mcpChat.runProbes({
        url: mock.url,
        bus,
        timeouts: mcpChat.timeouts,
        headers: {},
        profile: DEFAULT_PROFILE,
        params: { ...mcpChat.defaultParams },
        maxBytes: 1 << 20,
        signal: new AbortController().signal,
        progress: () => undefined,
      });
    } finally {
      await mock.close();
    }
    expect(labels).toEqual([
      "servers",
      "preflight:/servers",
      "preflight:/connect/{server_id}",
      "preflight:/status",
      "preflight:/disconnect",
      "preflight:/chat/stream",
      "preflight:/chat",
      "foreign-preflight:/chat/stream",
      "foreign-request:/status",
      "disconnect-reset",
      "status-after-reset",
      "disconnect-idle",
      "connect",
      "status-after-connect",
      "connect-unknown",
      "status-after-unknown",
      "connect-b",
      "status-after-connect-b",
      "reconnect-b",
      "status-after-reconnect",
      "connect-for-chat",
      "chat-stream",
      "bad-input:{}",
      'bad-input:{"message":42}',
      'bad-input:{"message":null}',
      'bad-input:{"message":["hi"]}',
      "bad-input:malformed-json",
      "chat-sync-probe",
      "chat-sync",
      "disconnect",
      "status-after-disconnect",
      "chat-disconnected",
    ]);
    expect([...origins]).toEqual(["http://localhost:3000", "http://evil.example"]);
    expect(JSON.parse(lastStatus ?? "{}")).toMatchObject({ connected: false });
  });

  it("passes under the budget-master profile, pacing chat probes", async () => {
    const r = await runSuite(mcpChat, { profile: "budget-master", params: { chatIntervalMs: 150 } });
    const checks = serverSide(r);
    expect(checks.filter((c) => !ok(c.level, c.verdict)), explain(checks, (c) => !ok(c.level, c.verdict))).toEqual([]);
    expect(byId(checks, "mcp-chat/disconnect/clears-state").level).toBe("INFO");
    expect(byId(checks, "mcp-chat/text/final-answer-only").level).toBe("INFO");
    // Nine chat POSTs at least 150 ms apart.
    expect(r.durationMs).toBeGreaterThan(8 * 150);
  });

  // The contract allows each of these; the checks about the branch the target did not take are
  // skipped with the reason, and the run passes under --strict.
  const NO_TOOL = /^not applicable: chat-stream ended with \[DONE\] without a tool call/;
  it.each<[string, object, Record<string, RegExp>]>([
    ["409 while disconnected", { settings: { notConnected: "http-409" } }, { "mcp-chat/tools/all-ended-before-error": /^not applicable: chat while disconnected was refused with HTTP 409/ }],
    ["no /chat", { settings: { chatSync: false } }, { "mcp-chat/chat-sync/shape": /^not applicable: POST \/chat is absent \(404 to \{\}\)/ }],
    [
      "one listed server",
      { settings: { servers: [MCP_CHAT_SERVERS[0]] } },
      Object.fromEntries(["state/single-connection", "state/reconnect-same-id"].map((id) => [`mcp-chat/${id}`, /^not applicable: GET \/servers lists one server \(weather\); switching and reconnecting need two$/])),
    ],
    [
      "servers without tools, answered without a tool call",
      { scenario: "text-only", settings: { servers: MCP_CHAT_SERVERS.map((s) => ({ ...s, tools: [] })) } },
      {
        "mcp-chat/connect/tool-shape": /^not applicable: POST \/connect\/weather answered tools: \[\] \(a server may have no tools\)$/,
        ...Object.fromEntries(["tools/unique-ids", "tools/end-matches-start", "tools/name-in-tool-list", "tools/call-profile", "text/final-answer-only", "timing/streams-incrementally"].map((id) => [`mcp-chat/${id}`, NO_TOOL])),
      },
    ],
    ["parallel tools", { scenario: "parallel-tools" }, {}],
    ["two tools", { scenario: "two-tools" }, {}],
    [
      "a text-only answer",
      { scenario: "text-only" },
      Object.fromEntries(["tools/unique-ids", "tools/end-matches-start", "tools/name-in-tool-list", "tools/call-profile", "text/final-answer-only", "timing/streams-incrementally"].map((id) => [`mcp-chat/${id}`, NO_TOOL])),
    ],
  ])("passes under --strict with %s (only the listed checks skip, saying why)", async (_name, mock, skips) => {
    const r = await runSuite(mcpChat, { mock, strict: true });
    const checks = serverSide(r);
    const bad = (c: (typeof checks)[number]) => (c.id in skips ? c.verdict !== "skip" || !skips[c.id]!.test(c.message) : !ok(c.level, c.verdict));
    expect(checks.filter(bad), explain(checks, bad)).toEqual([]);
    expect(r.exitCode).toBe(0);
  });
});

describe("mcp-chat suite when the chat itself fails", () => {
  it("says the answer rules had nothing to judge because the stream ended with [ERROR]", async () => {
    const r = await runSuite(mcpChat, { mock: { scenario: "stream-error" } });
    const checks = serverSide(r);
    expect(checks.filter((c) => c.outcome === "fail"), explain(checks, (c) => c.outcome === "fail")).toEqual([]);
    for (const id of ["tools/all-ended-before-done", "text/answer-present"]) {
      const c = byId(checks, `mcp-chat/${id}`);
      expect(`${c.verdict}: ${c.message}`, id).toMatch(/^incomplete: not exercised: chat-stream ended with "\[ERROR\] Tool execution failed: upstream timeout": the chat failed/);
    }
    expect(byId(checks, "mcp-chat/chat-sync/shape").message).toMatch(/^not exercised: POST \/chat → 502 .*: the chat failed/);
    expect(r.exitCode).toBe(3);
  });
});
