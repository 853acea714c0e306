/**
 * `agentwire mock` options that choose what the mock plays: --catalogue (openai-chat, `none`
 * included, also as --set) and --profile, documented in --help and effective with or without
 * --check-client.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { describe, expect, it } from "vitest";
import { runCli, runCliInProcess, startCli, waitExit } from "../helpers/cli.js";

async function stop(child: import("node:child_process").ChildProcess): Promise<number | null> {
  child.kill("SIGINT");
  return waitExit(child, 20_000);
}

/** One command over a fresh pi-web connection (the mock's ws:// URL); resolves with its response. */
async function piCommand(url: string, command: Record<string, unknown>): Promise<Record<string, any>> {
  const ws = new WebSocket(url, { headers: { origin: new URL(url.replace(/^ws/, "http")).origin } });
  try {
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    const answer = new Promise<Record<string, any>>((resolve) =>
      ws.on("message", (data) => {
        const m = JSON.parse(String(data));
        if (m.type === "response" && m.id === command.id) resolve(m);
      }),
    );
    ws.send(JSON.stringify(command));
    return await answer;
  } finally {
    ws.close();
  }
}

/** A client (given the mock's /v1 base URL) that offers the seed tool read_file with the wrong parameters. */
async function offerMisshapedReadFile(baseUrl: string): Promise<void> {
  const res = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer k" },
    body: JSON.stringify({
      model: "agentwire-mock",
      stream: true,
      messages: [{ role: "user", content: "hello" }],
      tools: [{ type: "function", function: { name: "read_file", parameters: { type: "object", properties: { path: { type: "number" } } } } }],
    }),
  });
  await res.text();
}

describe("agentwire mock: --catalogue and --profile", () => {
  it("lists --profile and --catalogue in its help", async () => {
    const r = await runCliInProcess(["mock", "--help"]);
    expect(r.code).toBe(0);
    const help = r.stdout.replace(/\s+/g, " ");
    expect(help).toMatch(/--profile <name> play a known implementation/);
    expect(help).toMatch(/--catalogue <name> .*seed \| continue-2026 \| continue-cli-2026 \| none/);
  });

  it("openai-chat takes every catalogue, none included, as --catalogue or --set", async () => {
    for (const args of [
      ["--catalogue", "seed"],
      ["--catalogue", "continue-2026"],
      ["--catalogue", "continue-cli-2026"],
      ["--catalogue", "none"],
      ["--set", "catalogue=none"],
    ]) {
      const { child, firstLine } = await startCli(["mock", "openai-chat", "--port", "0", ...args]);
      expect(firstLine).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const models = await fetch(`${firstLine}/models`);
      expect(models.status).toBe(200);
      await stop(child);
    }
  });

  it("--check-client judges the client's tools against the catalogue the mock was given", async () => {
    const verdictUnder = async (args: string[]) => {
      const report = join(mkdtempSync(join(tmpdir(), "agentwire-mock-")), "client.json");
      const { child, firstLine } = await startCli(["mock", "openai-chat", "--port", "0", "--check-client", "--report", report, ...args]);
      await offerMisshapedReadFile(firstLine);
      await stop(child);
      const r = JSON.parse(readFileSync(report, "utf8"));
      return r.checks.find((c: { id: string }) => c.id === "openai-chat/client/tools-match-catalogue");
    };
    expect((await verdictUnder(["--catalogue", "seed"])).verdict).toBe("fail");
    // No catalogue: nothing to judge the tool against.
    const none = await verdictUnder(["--catalogue", "none"]);
    expect(none.verdict).not.toBe("fail");
    expect(none.verdict).not.toBe("pass");
    expect(none.message).toMatch(/catalogue/);
    expect((await verdictUnder(["--set", "catalogue=none"])).verdict).toBe(none.verdict);
  });

  it("a profile the mock cannot play is refused without --check-client, and judges with it", async () => {
    const r = await runCliInProcess(["mock", "mcp-chat", "--port", "0", "--profile", "budget-master"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the mcp-chat mock has no budget-master mode/);
    const report = join(mkdtempSync(join(tmpdir(), "agentwire-mock-")), "client.json");
    const judged = await startCli(["mock", "mcp-chat", "--port", "0", "--profile", "budget-master", "--check-client", "--report", report]);
    await stop(judged.child);
    expect(JSON.parse(readFileSync(report, "utf8")).profile).toBe("budget-master");
  });

  it("pi-web --profile pi-fork-0.54 plays the fork without --check-client, and judges under it with", async () => {
    const switchMissing = { type: "switch_session", id: "s1", sessionPath: "/no/such/session.jsonl" };
    const plain = await startCli(["mock", "pi-web", "--port", "0"]);
    expect((await piCommand(plain.firstLine, switchMissing)).success).toBe(false);
    await stop(plain.child);
    // The fork creates a session for a path it does not know (its quirk).
    const fork = await startCli(["mock", "pi-web", "--port", "0", "--profile", "pi-fork-0.54"]);
    expect((await piCommand(fork.firstLine, switchMissing)).success).toBe(true);
    await stop(fork.child);

    const report = join(mkdtempSync(join(tmpdir(), "agentwire-mock-")), "client.json");
    const judged = await startCli(["mock", "pi-web", "--port", "0", "--profile", "pi-fork-0.54", "--check-client", "--report", report]);
    expect((await piCommand(judged.firstLine, switchMissing)).success).toBe(true);
    await stop(judged.child);
    expect(JSON.parse(readFileSync(report, "utf8")).profile).toBe("pi-fork-0.54");
  });
});

describe("agentwire mock pi-web --allow-origin", () => {
  it("takes an origin as a browser sends it, and refuses anything else before the mock starts", async () => {
    const mock = await startCli(["mock", "pi-web", "--port", "0", "--allow-origin", "http://localhost:5173"]);
    try {
      const ws = new WebSocket(mock.firstLine, { headers: { origin: "http://localhost:5173" } });
      await new Promise<void>((resolve, reject) => (ws.once("open", () => resolve()), ws.once("error", reject)));
      ws.close();
    } finally {
      await stop(mock.child);
    }
    for (const bad of ["notanorigin", "http://localhost:5173/", "localhost:5173"]) {
      const r = await runCli(["mock", "pi-web", "--port", "0", "--allow-origin", bad]);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(/^agentwire: --allow-origin ".*" is not an origin as a browser sends it/);
    }
  });
});

describe("agentwire mock --token", () => {
  it("continue-remote requires it as a Bearer token; test-client hands it to the client", async () => {
    const mock = await startCli(["mock", "continue-remote", "--port", "0", "--token", "s3cret"]);
    try {
      expect((await fetch(`${mock.firstLine}/state`)).status).toBe(401);
      expect((await fetch(`${mock.firstLine}/state`, { headers: { authorization: "Bearer s3cret" } })).status).toBe(200);
    } finally {
      await stop(mock.child);
    }
    // The mock's turn ten times quicker, the client polling every 100 ms: the same verdicts, sooner.
    const quick = ["--set", "speed=0.1", "--", process.execPath, "examples/continue-remote-client.mjs", "--poll-interval", "100"];
    const r = await runCliInProcess(["test-client", "continue-remote", "--quiet", "--token", "s3cret", ...quick]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it("a mock without a credential says so, and names only a setting it has", async () => {
    const mcp = await runCliInProcess(["mock", "mcp-chat", "--port", "0", "--token", "s3cret"]);
    expect(mcp.stderr).toBe("agentwire: --token: the mcp-chat mock takes no credential (the protocol defines none); --set requireBearer=true makes it ask for any Bearer token\n");
    const stagewise = await runCliInProcess(["mock", "stagewise-chat", "--port", "0", "--token", "s3cret"]);
    expect(stagewise.stderr).toBe("agentwire: --token: the stagewise-chat mock takes no credential (the protocol defines none)\n");
    expect([mcp.code, stagewise.code]).toEqual([2, 2]);
  });
});
