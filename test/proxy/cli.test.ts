/** `agentwire proxy` as a user runs it: the first stdout line, the report on exit, usage errors. */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMock } from "../../src/core/run/protocol.js";
import type { RunResult } from "../../src/core/verdicts/result.js";
import { mcpChat } from "../../src/suites/mcp-chat/index.js";
import { openaiChat } from "../../src/suites/openai-chat/index.js";
import { piWeb } from "../../src/suites/pi-web/index.js";
import { runCli, startCli, waitExit } from "../helpers/cli.js";
import { quickMock } from "../helpers/quick-pacing.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await mcpChat.startMock({ host: "127.0.0.1", port: 0, ...quickMock("mcp-chat") });
});
afterAll(() => mock.close());

describe.concurrent("agentwire proxy (CLI)", () => {
  it("prints the client URL first, relays, and writes the reports when --max-exchanges is reached", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentwire-proxy-cli-"));
    const json = join(dir, "report.json");
    const { child, firstLine, output } = await startCli(["proxy", "mcp-chat", "--target", mock.url, "--max-exchanges", "2", "--reporter", "ndjson", "--reporter", "json", "--output", join(dir, "v.ndjson"), "--output", json, "--save-transcript", dir]);
    expect(firstLine).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const servers = (await (await fetch(`${firstLine}/servers`)).json()) as { id: string }[];
    expect(servers.length).toBeGreaterThan(0);
    await (await fetch(`${firstLine}/connect/${servers[0]!.id}`, { method: "POST", headers: { cookie: "session=very-secret-cookie" } })).text();
    expect(await waitExit(child, 20_000)).toBe(3);
    const report = JSON.parse(readFileSync(json, "utf8")) as { runs: RunResult[] } | RunResult[];
    const runs = Array.isArray(report) ? report : report.runs;
    expect(runs.map((r) => r.side)).toEqual(["server", "client"]);
    expect(runs[0]!.checks.find((c) => c.id === "mcp-chat/servers/list-shape")!.verdict).toBe("pass");
    const lines = readFileSync(join(dir, "v.ndjson"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { type: string });
    expect(lines.filter((l) => l.type === "verdict").length).toBe(mcpChat.checks.length);
    const transcript = readFileSync(runs[0]!.transcript!, "utf8");
    expect(transcript).toContain('"kind":"http-request"');
    expect(transcript).not.toContain("very-secret-cookie");
    expect(output().stderr).toContain("--max-exchanges 2");
    // Both sides share the transcript: it is announced once.
    expect(output().stderr.match(/transcript saved to /g)).toHaveLength(1);
  });

  it("prints the protocol's client URL form (openai-chat: /v1) and reports on SIGTERM", async () => {
    const target = await openaiChat.startMock({ host: "127.0.0.1", port: 0 });
    const { child, firstLine, output } = await startCli(["proxy", "openai-chat", "--target", target.url, "--reporter", "json"]);
    expect(firstLine).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect((await fetch(`${firstLine}/models`)).status).toBe(200);
    child.kill("SIGTERM");
    await waitExit(child, 20_000);
    await target.close();
    const runs = JSON.parse(output().stdout.split("\n").slice(1).join("\n")) as unknown;
    expect(JSON.stringify(runs)).toContain("openai-chat/models/list-shape");
  });

  it("pi-web: the first line is the ws:// URL; --duration ends the run and reports", async () => {
    const target = await piWeb.startMock({ host: "127.0.0.1", port: 0 });
    const { child, firstLine, output } = await startCli(["proxy", "pi-web", "--target", target.url, "--duration", "1", "--reporter", "ndjson"]);
    expect(firstLine).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws$/);
    expect(await waitExit(child, 20_000)).toBe(3);
    await target.close();
    const lines = output().stdout.trim().split("\n").slice(1).map((l) => JSON.parse(l) as { type: string; id?: string; verdict?: string });
    const skipped = lines.find((l) => l.id === "pi-web/conn/token-401");
    expect(skipped?.verdict).toBe("skip");
    expect(output().stderr).toContain("--duration 1 s");
  });

  it("a port in use: exit 2 with a clear message, and no transcript left behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentwire-proxy-busy-"));
    const port = Number(new URL(mock.url).port);
    const r = await runCli(["proxy", "mcp-chat", "--target", mock.url, "--port", String(port), "--save-transcript", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/port \d+ on 127\.0\.0\.1 is in use/);
    expect(readdirSync(dir).filter((f) => f.endsWith(".jsonl"))).toEqual([]);
  });

  it.each([
    [["proxy", "mcp-chat"], /--target is required/],
    [["proxy", "nope", "--target", "http://127.0.0.1:1"], /unknown protocol "nope"/],
    [["proxy", "mcp-chat", "--target", "ftp://x"], /--target must be http or https/],
    [["proxy", "mcp-chat", "--target", "not a url"], /is not a URL/],
    [["proxy", "mcp-chat", "--target", "http://127.0.0.1:1", "--port", "x"], /--port/],
    [["proxy", "mcp-chat", "--target", "http://127.0.0.1:1", "--reporter", "yaml"], /unknown reporter/],
    [["proxy", "mcp-chat", "--target", "http://127.0.0.1:1", "--profile", "nope"], /unknown profile/],
    [["proxy", "mcp-chat", "--target", "http://127.0.0.1:1", "--max-exchanges", "0"], /--max-exchanges/],
    [["proxy", "mcp-chat", "--target", "http://127.0.0.1:1", "--only", "nope/"], /no check of mcp-chat matches/],
    [["proxy", "openai-chat", "--target", "ws://127.0.0.1:1"], /--target must be http or https/],
  ])("%j exits 2 with a clear message", async (args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/internal error|at .*\.js:\d+/);
  });
});
