/**
 * Hostile targets end in verdicts within the waits: a /state that answers garbage, one that
 * hangs, one that flips between two histories, and one that never settles.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { runSuite } from "../../../src/core/run/runner.js";
import { continueRemote } from "../../../src/suites/continue-remote/index.js";
import { byId } from "../../helpers/run-results.js";

async function against(
  handler: (req: IncomingMessage, res: ServerResponse, n: number) => void,
  opts: { profile?: string; params?: Record<string, unknown> } = {},
) {
  let n = 0;
  const server = createServer((req, res) => handler(req, res, ++n));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const said: string[] = [];
  const started = performance.now();
  try {
    const r = await runSuite(continueRemote, {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      timeout: 1000,
      ...(opts.profile ? { profile: opts.profile } : {}),
      params: { pollIntervalMs: 10, turnTimeoutMs: 1000, getExitWaitMs: 10, ...opts.params },
      progress: (m) => said.push(m),
    });
    return { r, ms: performance.now() - started, said };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

const json = (res: ServerResponse, status: number, body: string) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(body);
};

describe("continue-remote suite against hostile targets", () => {
  it("a /state that answers garbage fails wire/state-json and stops early", async () => {
    const { r, ms } = await against((_req, res) => json(res, 200, "{not json"));
    expect(ms).toBeLessThan(10_000);
    expect(byId(r.checks, "continue-remote/wire/state-json").verdict).toBe("fail");
    expect(byId(r.checks, "continue-remote/processing/true-while-handling").message).toMatch(/the probes stopped early/);
    expect(r.exitCode).toBe(1);
  });

  // 10,000 levels in 60 KB: deeper than a recursive compare (or JSON.stringify) can go.
  it("a history entry nested 10,000 levels deep is judged, and no check crashes", async () => {
    const deep = `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`;
    const { r, ms } = await against((_req, res) =>
      json(res, 200, `{"chatHistory":[{"role":"user","content":${deep}}],"isProcessing":false,"messageQueueLength":0}`),
    );
    expect(ms).toBeLessThan(20_000);
    const crashed = r.checks.filter((c) => c.message.startsWith("internal error"));
    expect(crashed.map((c) => `${c.id}: ${c.message.slice(0, 200)}`)).toEqual([]);
    expect(JSON.stringify(r.checks)).not.toMatch(/Maximum call stack|\n\s+at /);
    const schema = byId(r.checks, "continue-remote/state/entry-schema");
    expect(schema.verdict).toBe("fail");
    expect(schema.message).toMatch(/content: must be string/);
    expect(schema.evidence[0]?.excerpt).toBe("[nested too deeply to show]");
  });

  it("a /state that hangs ends at the request timeout, every check incomplete", async () => {
    const { r, ms } = await against((req, res) => {
      if (!req.url?.startsWith("/state")) json(res, 404, '{"error":"no"}');
    });
    expect(ms).toBeLessThan(10_000);
    expect(r.checks.filter((c) => c.side === "server").every((c) => c.verdict === "incomplete")).toBe(true);
  });

  it("a history that flips between two versions fails poll/append-only", async () => {
    const { r, ms } = await against((_req, res, n) =>
      json(res, 200, JSON.stringify({ chatHistory: n % 2 ? [{ role: "user", content: "a" }] : [{ role: "user", content: "b" }, { role: "assistant", content: "c" }], isProcessing: false })),
    );
    expect(ms).toBeLessThan(20_000);
    expect(byId(r.checks, "continue-remote/poll/append-only")).toMatchObject({ verdict: "fail", message: expect.stringMatching(/shrank from 2 to 1|entry 0/) });
  });

  // Busy from the start and forever: the first wait for rest runs out, and no later one is made.
  it.each([
    ["seed", { chatHistory: [{ role: "user", content: "started with a prompt" }], isProcessing: true, messageQueueLength: 0 }],
    [
      "cn-session",
      {
        session: {
          sessionId: "stuck",
          title: "stuck",
          workspaceDirectory: "/tmp",
          history: [{ message: { role: "user", content: "started with a prompt" }, contextItems: [] }],
        },
        isProcessing: true,
        messageQueueLength: 0,
        pendingPermission: null,
      },
    ],
  ] as const)("a server stuck busy (%s) costs one turn timeout, not one per phase", async (profile, state) => {
    const turnTimeoutMs = 2000;
    // No POST /exit: this server would not stop, and the kit would spend its 2 s exit deadline finding out.
    const { r, ms, said } = await against(stuckServer(state), { profile, params: { turnTimeoutMs, noExit: true } });
    // Before, every later phase waited out the turn timeout again (four or five of them).
    expect(ms).toBeLessThan(3 * turnTimeoutMs);
    const done = byId(r.checks, "continue-remote/processing/false-when-done");
    expect(done.verdict).toBe("fail");
    expect(done.message).toMatch(/^the idle phase still saw isProcessing:true after \d+ ms/);
    expect(done.message).not.toMatch(/violations/);
    // The phases that start a turn from rest were not run: what they feed is a named knock-on, never a pass.
    const starved = [
      "processing/message-not-lost",
      "processing/user-entry-verbatim",
      "processing/turn-ends-with-assistant",
      "queue/position-while-processing",
      "queue/fifo",
      "permission/approve",
      "timing/intermediate-visible",
    ];
    for (const id of starved) {
      const c = byId(r.checks, `continue-remote/${id}`);
      expect(`${c.verdict}: ${c.message}`, id).toBe("skip: not judged: continue-remote/processing/false-when-done failed on the idle phase");
    }
    expect(said).toContain("continue-remote: the server never settled (idle phase); not run: turn, queue, interrupt");
    // Its history grows while it works: the before/after comparisons, made on a busy server, are not judged.
    const moving = ["bad-input/server-survives", "security/simple-request-no-effect", ...(profile === "cn-session" ? ["pause/semantics"] : [])];
    for (const id of moving) {
      const c = byId(r.checks, `continue-remote/${id}`);
      expect(`${c.verdict}: ${c.message}`, id).toBe("skip: not judged: continue-remote/processing/false-when-done failed on the idle phase");
    }
  });

  it("a permission request that never clears (isProcessing false) costs one turn timeout, not one per phase", async () => {
    const turnTimeoutMs = 2000;
    const state = {
      chatHistory: [{ role: "user", content: "started with a prompt" }],
      isProcessing: false,
      messageQueueLength: 0,
      pendingPermission: { requestId: "perm-stuck", toolName: "Bash", toolArgs: { command: "ls" } },
    };
    const { r, ms, said } = await against(stuckServer(state), { params: { turnTimeoutMs, noExit: true } });
    // Before, the turn, queue and interrupt phases each waited out the turn timeout again.
    expect(ms).toBeLessThan(3 * turnTimeoutMs);
    expect(said.some((m) => /the server never settled \(after-bad-input phase\); not run: turn, queue, interrupt/.test(m)), said.join("\n")).toBe(true);
    for (const id of ["processing/message-not-lost", "processing/user-entry-verbatim", "processing/turn-ends-with-assistant", "queue/fifo", "permission/approve"]) {
      expect(byId(r.checks, `continue-remote/${id}`).verdict, id).not.toBe("pass");
    }
  });
});

/**
 * A server whose /state is always busy: each read adds an entry to its history, as a working agent's
 * output grows. It queues valid messages, pauses when asked (it is busy) and refuses the rest.
 */
function stuckServer(template: object) {
  const state = structuredClone(template) as { chatHistory?: unknown[]; session?: { history: unknown[] } };
  let queued = 0;
  const history = state.chatHistory ?? state.session!.history;
  const entry = state.chatHistory ? () => ({ role: "assistant", content: "working" }) : () => ({ message: { role: "assistant", content: "working" }, contextItems: [] });
  return (req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d));
    req.on("end", () => {
      const path = req.url?.split("?")[0];
      if (req.method === "GET" && path === "/state") {
        history.push(entry());
        return json(res, 200, JSON.stringify(state));
      }
      if (req.method === "POST" && path === "/pause") return json(res, 200, '{"success":true,"message":"paused"}');
      if (req.method !== "POST" || path !== "/message") return json(res, 404, '{"error":"not found"}');
      let message: unknown;
      try {
        message = (JSON.parse(body) as { message?: unknown }).message;
      } catch {}
      const ok = typeof message === "string" && message !== "" && req.headers["content-type"]?.startsWith("application/json");
      if (ok) json(res, 200, JSON.stringify({ queued: true, position: ++queued }));
      else json(res, 400, '{"error":"message must be a non-empty string"}');
    });
  };
}
