/** The reference mock conforms to the openai-chat server suite, under every profile. */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import { runSuite } from "../../../src/core/run/runner.js";
import { TranscriptBus, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { OPENAI_CHAT_SERVER_CHECKS } from "../../../src/suites/openai-chat/checks/index.js";
import { openaiChat } from "../../../src/suites/openai-chat/index.js";
import { byId, explain, serverSide } from "../../helpers/run-results.js";
import { chatStreamExchange, chunkEvent } from "../../helpers/openai-transcript.js";
import { judge } from "../../helpers/synthetic-transcript.js";

/** Passing, an INFO report, or a rule about something that did not happen (§3.15). */
const ok = (level: string, verdict: string, id: string) =>
  verdict === "pass" || (level === "INFO" && verdict === "info") || (id === "openai-chat/errors/in-stream-shape" && verdict === "skip");
const bad = (c: { level: string; verdict: string; id: string }) => !ok(c.level, c.verdict, c.id);

describe("openai-chat suite against the built-in mock", () => {
  it("passes every server check (the embedded mock's key runs the auth probes too)", async () => {
    const r = await runSuite(openaiChat);
    const checks = serverSide(r);
    expect(checks).toHaveLength(OPENAI_CHAT_SERVER_CHECKS.length);
    expect(checks.filter(bad), explain(checks, bad)).toEqual([]);
    expect(r.exitCode).toBe(0);
    expect(byId(checks, "openai-chat/auth/rejects-unauthenticated").message).toMatch(/no Authorization → 401, a wrong bearer key → 401/);
    expect(byId(checks, "openai-chat/errors/in-stream-shape").message).toMatch(/no stream carried an error/);
    expect(byId(checks, "openai-chat/tool-call/streaming-parity").message).toMatch(/both answers call read_file; arguments are equal/);
    expect(byId(checks, "openai-chat/stream/profile").message).toMatch(/forced-stream: .*calls: read_file in \d+ fragment/);
  });

  it("passes under --strict: a branch the mock did not take (no in-stream error) is not applicable, never incomplete", async () => {
    const r = await runSuite(openaiChat, { strict: true });
    const checks = serverSide(r);
    expect(checks.filter((c) => c.verdict === "incomplete" || c.verdict === "fail"), explain(checks)).toEqual([]);
    expect(byId(checks, "openai-chat/errors/in-stream-shape").message).toMatch(/^not applicable: no stream carried an error/);
    expect(r.exitCode).toBe(0);
  });

  it("a stream that ends at EOF without [DONE] leaves the rules about what follows [DONE] not applicable", () => {
    const body = { model: "m", messages: [{ role: "user", content: "hi" }], stream: true };
    const events = chatStreamExchange({ label: "text-stream", body, writes: [{ t: 1, text: chunkEvent({ role: "assistant", content: "Hi" }) }, { t: 2, text: chunkEvent({}, "stop") }], endAt: 3 });
    const results = judge(OPENAI_CHAT_SERVER_CHECKS.filter((c) => c.id.includes("/done/")), events);
    expect(results.map((c) => [c.id, c.outcome])).toEqual([
      ["openai-chat/done/present", "fail"],
      ["openai-chat/done/last-event", "skip"],
      ["openai-chat/done/connection-closes", "skip"],
    ]);
    expect(results[1]!.message).toBe("not applicable: text-stream ended at EOF without [DONE]");
  });

  it.concurrent.each(["seed", "openai-compatible", "continue-2026", "continue-cli-2026"])("passes under profile %s", async (profile) => {
    const r = await runSuite(openaiChat, { profile });
    const checks = serverSide(r);
    expect(checks.filter(bad), explain(checks, bad)).toEqual([]);
    expect(r.profile).toBe(profile);
  });

  it("offers the CLI catalogue's tools under continue-cli-2026 and judges their arguments by its schemas", async () => {
    const r = await runSuite(openaiChat, { profile: "continue-cli-2026", only: ["tool-call/honours-tool-choice", "tool-call/arguments-valid-for-tool"] });
    expect(byId(r.checks, "openai-chat/tool-call/honours-tool-choice").message).toMatch(/forced-stream → Read;.*no-arg-stream → Exit/);
    expect(byId(r.checks, "openai-chat/tool-call/arguments-valid-for-tool").verdict).toBe("pass");
  });

  it("openai-compatible relaxes the levels §5 names", async () => {
    const r = await runSuite(openaiChat, { profile: "openai-compatible", only: ["finish/", "done/present", "envelope/"] });
    expect(byId(r.checks, "openai-chat/finish/matches-tool-calls").level).toBe("SHOULD");
    expect(byId(r.checks, "openai-chat/done/present").level).toBe("INFO");
    expect(byId(r.checks, "openai-chat/envelope/fields").level).toBe("INFO");
    expect(byId(r.checks, "openai-chat/finish/exactly-once").level).toBe("MUST");
  });

  it("probes in the documented order: models, then P2, P6, P4, P11, P10, P7, P8, P9, P12, P5, P3, P1", async () => {
    const seen: string[] = [];
    const bus = new TranscriptBus();
    bus.subscribe((e: TranscriptEvent) => {
      if (e.kind === "http-request") seen.push(`${e.method} ${e.path} ${e.label} ${e.headers["authorization"] ? "auth" : "no-auth"} ${e.headers["accept"]}`);
    });
    const mock = await openaiChat.startMock({ host: "127.0.0.1", port: 0, suite: true });
    try {
      await openaiChat.runProbes({
        url: mock.url,
        bus,
        timeouts: openaiChat.timeouts,
        // As the runner does for its embedded mock: send the key the mock chose.
        headers: mock.token ? { Authorization: `Bearer ${mock.token}` } : {},
        ...(mock.token ? { token: mock.token } : {}),
        profile: DEFAULT_PROFILE,
        params: { ...openaiChat.defaultParams },
        maxBytes: 1 << 20,
        signal: new AbortController().signal,
        progress: () => undefined,
      });
    } finally {
      await mock.close();
    }
    const chat = (label: string, accept = "application/json", auth = "auth") => `POST /v1/chat/completions ${label} ${auth} ${accept}`;
    expect(seen).toEqual([
      "GET /v1/models models auth application/json",
      ...["malformed-json", "empty-object", "model-only", "messages-string", "role-wizard", "tool-without-name"].map((n) => chat(`bad-input:${n}`)),
      chat("forced-stream", "text/event-stream"),
      chat("text-stream", "text/event-stream"),
      chat("follow-up-sync"),
      chat("parallel-stream", "text/event-stream"),
      chat("forced-sync"),
      chat("required-stream", "text/event-stream"),
      chat("no-arg-stream", "text/event-stream"),
      chat("continue-shape"),
      chat("text-sync"),
      chat("unknown-model", "text/event-stream"),
      chat("auth-missing", "application/json", "no-auth"),
      chat("auth-wrong"),
    ]);
  });

  it("reports a text-only backend as not exercising the tool rules, never as passing them", async () => {
    const r = await runSuite(openaiChat, { mock: { scenario: "text-only" } });
    const checks = serverSide(r);
    for (const id of ["tool-call/first-delta-complete", "tool-call/arguments-join-to-object", "tool-call/arguments-valid-for-tool", "tool-call/parallel-distinct-indexes", "tool-call/no-arg-empty-object", "tool-call/streaming-parity"]) {
      expect(byId(checks, `openai-chat/${id}`).verdict, id).toBe("incomplete");
    }
    // Ignoring a forced tool_choice is the one rule that fails (after one retry per forced probe).
    expect(checks.filter((c) => c.outcome === "fail").map((c) => c.id)).toEqual(["openai-chat/tool-call/honours-tool-choice"]);
    expect(byId(checks, "openai-chat/tool-call/honours-tool-choice").message).toMatch(/forced-stream#2: no tool call/);
    expect(r.exitCode).toBe(3);
  });

  it("judges an in-stream error when one happens (scenario error-mid-stream)", async () => {
    const r = await runSuite(openaiChat, { mock: { scenario: "error-mid-stream" }, only: ["errors/in-stream-shape", "done/present", "finish/"] });
    expect(byId(r.checks, "openai-chat/errors/in-stream-shape").verdict).toBe("pass");
    // Streams that end with an error are exempt from the [DONE] and finish rules.
    expect(r.checks.filter((c) => c.outcome === "fail"), explain(r.checks)).toEqual([]);
  });

  it("runs the opt-in per-tool probes (P13) for every offered tool", async () => {
    const labels = new Set<string>();
    const r = await runSuite(openaiChat, { params: { perTool: true }, only: ["tool-call/"] });
    for (const c of r.checks) if (c.outcome === "fail") labels.add(c.id);
    expect([...labels]).toEqual([]);
    expect(byId(r.checks, "openai-chat/tool-call/honours-tool-choice").message).toMatch(/per-tool:run_terminal_command → run_terminal_command/);
    expect(byId(r.checks, "openai-chat/tool-call/honours-tool-choice").message).not.toMatch(/per-tool:request_rule/);
  });
});
