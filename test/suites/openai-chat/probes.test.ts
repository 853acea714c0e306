/** Probe behaviour: the request budget, the base URL, the model, retries, and the token's secrecy. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import { formatJson } from "../../../src/core/reporters/json.js";
import { runSuite } from "../../../src/core/run/runner.js";
import { TranscriptBus, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { startOpenaiChatMock } from "../../../src/mocks/openai-chat/index.js";
import { openaiChat } from "../../../src/suites/openai-chat/index.js";
import { byId, serverSide } from "../../helpers/run-results.js";

/** Runs the probes against a fresh built-in mock and returns what was sent. */
async function probe(params: Record<string, unknown>, opts: { suffix?: string; mock?: Parameters<typeof openaiChat.startMock>[0] } = {}) {
  const events: TranscriptEvent[] = [];
  const bus = new TranscriptBus();
  bus.subscribe((e: TranscriptEvent) => {
    if (e.kind === "http-request" || e.kind === "note") events.push(e);
  });
  const mock = await openaiChat.startMock({ host: "127.0.0.1", port: 0, suite: true, ...opts.mock });
  try {
    await openaiChat.runProbes({
      url: mock.url + (opts.suffix ?? ""),
      bus,
      timeouts: openaiChat.timeouts,
      // As the runner does for its embedded mock: send the key the mock chose.
      headers: mock.token ? { Authorization: `Bearer ${mock.token}` } : {},
      ...(mock.token ? { token: mock.token } : {}),
      profile: DEFAULT_PROFILE,
      params: { ...openaiChat.defaultParams, ...params },
      maxBytes: 1 << 20,
      signal: new AbortController().signal,
      progress: () => undefined,
    });
  } finally {
    await mock.close();
  }
  const requests = events.filter((e): e is Extract<TranscriptEvent, { kind: "http-request" }> => e.kind === "http-request");
  const notes = events.filter((e): e is Extract<TranscriptEvent, { kind: "note" }> => e.kind === "note");
  return { requests, notes, posts: requests.filter((r) => r.method === "POST") };
}

describe("openai-chat probes", () => {
  it("--max-requests caps the POSTs in order of value and names what was not sent", async () => {
    const { posts, notes, requests } = await probe({ maxRequests: 8 });
    expect(requests[0]!.label).toBe("models");
    expect(posts.map((p) => p.label)).toEqual([
      ...["malformed-json", "empty-object", "model-only", "messages-string", "role-wizard", "tool-without-name"].map((n) => `bad-input:${n}`),
      "forced-stream",
      "text-stream",
    ]);
    const budget = notes.find((n) => n.name === "budget-exhausted")!.value as { max: number; unsent: string[] };
    expect(budget.max).toBe(8);
    expect(budget.unsent).toEqual(["follow-up-sync", "parallel-stream", "forced-sync", "required-stream", "no-arg-stream", "continue-shape", "text-sync", "unknown-model", "auth-missing", "auth-wrong"]);
  });

  it("leaves the checks fed by unsent probes incomplete, saying why", async () => {
    const r = await runSuite(openaiChat, { params: { maxRequests: 8 } });
    const checks = serverSide(r);
    expect(checks.filter((c) => c.verdict === "fail")).toEqual([]);
    expect(byId(checks, "openai-chat/errors/bad-input-400").verdict).toBe("pass");
    const parity = byId(checks, "openai-chat/tool-call/streaming-parity");
    expect(parity.verdict).toBe("incomplete");
    expect(parity.message).toMatch(/--max-requests 8 was reached; not sent: follow-up-sync, parallel-stream, .* and \d+ more/);
    expect(r.exitCode).toBe(3);
  });

  it("appends /v1 to a URL with an empty path, and keeps a given /v1", async () => {
    const bare = await probe({ maxRequests: 1 });
    const given = await probe({ maxRequests: 1 }, { suffix: "/v1" });
    expect(bare.requests.map((r) => r.path)).toEqual(["/v1/models", "/v1/chat/completions"]);
    expect(given.requests.map((r) => r.path)).toEqual(["/v1/models", "/v1/chat/completions"]);
  });

  it("uses --model when given, else the first id of GET /models", async () => {
    const listed = await probe({ maxRequests: 3 });
    const given = await probe({ maxRequests: 3, model: "gpt-4.1-agentwire" });
    const model = (r: { body?: string }) => (JSON.parse(r.body ?? "{}") as { model?: string }).model;
    // bad-input:model-only is {"model": M}.
    expect(model(listed.posts[2]!)).toBe("agentwire-mock");
    expect(model(given.posts[2]!)).toBe("gpt-4.1-agentwire");
    expect(given.notes.find((n) => n.name === "model")!.value).toEqual({ model: "gpt-4.1-agentwire", source: "param" });
  });

  it("forces tool_choice, spells the call out, and repeats a forced probe that got no call (--retries)", async () => {
    const [once, twice] = await Promise.all([probe({ retries: 0 }, { mock: { scenario: "text-only", host: "127.0.0.1", port: 0 } }), probe({}, { mock: { scenario: "text-only", host: "127.0.0.1", port: 0 } })]);
    const labels = (x: typeof once) => x.posts.map((p) => p.label).filter((l) => l.startsWith("forced-stream"));
    expect(labels(once)).toEqual(["forced-stream"]);
    expect(labels(twice)).toEqual(["forced-stream", "forced-stream#2"]);
    const body = JSON.parse(twice.posts.find((p) => p.label === "forced-stream")!.body!) as Record<string, unknown>;
    expect(body).toMatchObject({ tool_choice: { type: "function", function: { name: "read_file" } }, parallel_tool_calls: false, stream: true, stream_options: { include_usage: true }, max_tokens: 512 });
    expect(JSON.stringify(body.messages)).toContain('call read_file {\\"filepath\\":\\"README.md\\"}');
  });

  it("never writes the token into the saved transcript or the JSON report", async () => {
    const secret = "sk-agentwire-secret-7f3a9c1e";
    const mock = await startOpenaiChatMock({ host: "127.0.0.1", port: 0, apiKey: secret });
    const dir = mkdtempSync(join(tmpdir(), "agentwire-oc-"));
    try {
      const r = await runSuite(openaiChat, { url: `${mock.url}/v1`, token: secret, saveTranscript: dir });
      // The token was really used: authenticated probes worked and the auth probes ran.
      expect(byId(serverSide(r), "openai-chat/auth/rejects-unauthenticated").verdict).toBe("pass");
      expect(byId(serverSide(r), "openai-chat/sse/content-type").verdict).toBe("pass");
      const files = readdirSync(dir);
      expect(files).toHaveLength(1);
      const transcript = readFileSync(join(dir, files[0]!), "utf8");
      expect(transcript).toContain('"authorization":"Bearer [redacted]"');
      expect(transcript).not.toContain(secret);
      expect(formatJson(r)).not.toContain(secret);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await mock.close();
    }
  });
});
