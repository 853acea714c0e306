/**
 * §8 client robustness cases: the example toolbar (examples/stagewise-toolbar.mjs, on @trpc/client) against the mock
 * under each scenario and framing that tests a toolbar. A good toolbar passing them proves the mock's cases exercise
 * the client checks: each case names the checks it must judge (pass, not skip), and the toolbar's own output shows it
 * kept the agent's state right (the reply printed once, not doubled by a snapshot) without looping (subscriptions
 * counted on the wire).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startClientSession } from "../../../src/core/run/runner.js";
import type { TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { stagewiseChat } from "../../../src/suites/stagewise-chat/index.js";

const EXAMPLE = fileURLToPath(new URL("../../../examples/stagewise-toolbar.mjs", import.meta.url));
const PACE = { firstDelayMs: 5, chunkDelayMs: 5 };
const ECHO = "Tell me about grid layout in a few words";

interface Case {
  name: string;
  scenario?: string;
  framing?: string;
  faults?: string[];
  message?: string;
  /** Client checks (short ids) that must pass, judged on this case's traffic. */
  pass: string[];
  /** The reply the toolbar printed, exactly: its state reduced right. */
  reply: string | RegExp;
  /** Chat subscriptions the toolbar sent, at most (no resubscribe loop) and at least. */
  subscriptions: [number, number];
}

const CASES: Case[] = [
  { name: "result-first: answers before their updates", framing: "result-first", pass: ["chat/client-active-chat-only", "tools/client-pending-approvals-only", "tools/client-toolbar-results-only"], reply: "Got the styles.", subscriptions: [1, 1] },
  {
    name: "drop-after-n: resubscribes with the last id after each drop; the snapshot replaces the text",
    scenario: "drop-after-n",
    message: ECHO,
    pass: ["chat/client-resubscribe", "chat/client-last-event-id", "chat/client-active-chat-only"],
    reply: `Echo: ${ECHO}`,
    subscriptions: [2, 12],
  },
  { name: "reconnect-notice: follows the agent's reconnect request", scenario: "reconnect-notice", message: ECHO, pass: ["chat/client-resubscribe", "chat/client-last-event-id"], reply: `Echo: ${ECHO}`, subscriptions: [2, 3] },
  { name: "restart: takes the restarted agent's snapshot, no resubscribe loop", scenario: "restart", message: ECHO, pass: ["chat/client-resubscribe", "chat/client-last-event-id", "chat/client-respects-working"], reply: `Echo: ${ECHO}`, subscriptions: [2, 3] },
  { name: "no-chats: creates a chat first", scenario: "no-chats", message: ECHO, pass: ["chat/client-respects-working", "chat/client-active-chat-only", "chat/client-valid-input"], reply: `Echo: ${ECHO}`, subscriptions: [1, 1] },
  { name: "multi-chat: writes to the active one of three chats", scenario: "multi-chat", message: ECHO, pass: ["chat/client-active-chat-only", "chat/client-respects-working"], reply: `Echo: ${ECHO}`, subscriptions: [1, 1] },
  { name: "tool-approval: approves the pending call once", scenario: "tool-approval", pass: ["tools/client-pending-approvals-only", "chat/client-metadata"], reply: "I'll write the file.Done: wrote b.css.", subscriptions: [1, 1] },
  { name: "toolbar-tool: reports the awaited call's result once", scenario: "toolbar-tool", pass: ["tools/client-toolbar-results-only"], reply: "Got the styles.", subscriptions: [1, 1] },
  {
    name: "drop-after-n with an approval: the pending call in a reload snapshot is approved once",
    scenario: "drop-after-n",
    message: "scenario:tool-approval write b.css",
    pass: ["tools/client-pending-approvals-only", "chat/client-resubscribe", "chat/client-last-event-id"],
    reply: "I'll write the file.Done: wrote b.css.",
    subscriptions: [2, 12],
  },
  {
    name: "drop-after-n with a toolbar tool: the awaited call in a reload snapshot is run once",
    scenario: "drop-after-n",
    message: "scenario:toolbar-tool read the styles",
    pass: ["tools/client-toolbar-results-only", "chat/client-resubscribe", "chat/client-last-event-id"],
    reply: "Got the styles.",
    subscriptions: [2, 12],
  },
  {
    name: "a gap in the event ids (fault seq-gap): resubscribes once and takes the snapshot",
    faults: ["seq-gap"],
    message: ECHO,
    pass: ["chat/client-last-event-id", "chat/client-respects-working"],
    reply: `Echo: ${ECHO}`,
    subscriptions: [2, 2],
  },
  { name: "busy-send: waits out the working agent before opening a chat", scenario: "busy-send", message: ECHO, pass: ["chat/client-respects-working"], reply: `Echo: ${ECHO}`, subscriptions: [1, 1] },
  { name: "server-ping: answers the agent's PING", framing: "server-ping", message: ECHO, pass: ["trpc/keepalive-pong"], reply: `Echo: ${ECHO}`, subscriptions: [1, 1] },
  { name: "fragmented frames parse", framing: "fragmented", message: ECHO, pass: ["chat/client-active-chat-only"], reply: `Echo: ${ECHO}`, subscriptions: [1, 1] },
  { name: "a surrogate pair cut between deltas joins again", framing: "split-surrogate", message: ECHO, pass: ["chat/client-active-chat-only"], reply: `Echo: ${ECHO} \u{1F3A8}`, subscriptions: [1, 1] },
  { name: "a ZWJ sequence cut between deltas joins again", framing: "zwj-split", message: ECHO, pass: ["chat/client-active-chat-only"], reply: `Echo: ${ECHO} \u{1F469}\u200D\u{1F4BB}`, subscriptions: [1, 1] },
  { name: "referential-meta: superjson's shared objects", framing: "referential-meta", pass: ["tools/client-pending-approvals-only", "tools/client-toolbar-results-only"], reply: "Got the styles.", subscriptions: [1, 1] },
  { name: "big-frame: an 8 MB first event", framing: "big-frame", message: ECHO, pass: ["chat/client-active-chat-only"], reply: `Echo: ${ECHO}`, subscriptions: [1, 1] },
  { name: "upstream-quirks: the published messaging quirks do not disturb a chat toolbar", framing: "upstream-quirks", message: ECHO, pass: ["chat/client-active-chat-only", "trpc/client-request-shape"],
    // The quirks' turn writes two text parts ("Echo", then the reply).
    reply: `EchoEcho: ${ECHO}`,
    subscriptions: [1, 1] },
];

/** Runs the example against a client session of the mock; resolves with its exit, output and the chat subscriptions it sent. */
async function play(c: Case) {
  const session = await startClientSession(stagewiseChat, {
    mock: { ...(c.scenario ? { scenario: c.scenario } : {}), ...(c.framing ? { framing: c.framing } : {}), ...(c.faults ? { faults: c.faults } : {}), settings: PACE },
    target: "examples/stagewise-toolbar.mjs",
  });
  let subscriptions = 0;
  session.bus.subscribe((e: TranscriptEvent) => {
    if (e.kind === "ws-frame" && e.direction === "in" && e.data.includes('"chat.getChatUpdates"')) subscriptions += (e.data.match(/"chat\.getChatUpdates"/g) ?? []).length;
  });
  const args = [EXAMPLE, "--idle", "1200", "--step-timeout", "8000", ...(c.message ? ["--message", c.message] : [])];
  const child = spawn(process.execPath, args, { env: { ...process.env, STAGEWISE_URL: session.url }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 25_000);
    // "close": the toolbar's last lines (its reply) may still be in the pipe when it exits.
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve(status);
    });
  });
  const result = await session.finish(code === 0 ? undefined : `exited with ${code}`);
  return { code, stdout, stderr, subscriptions, checks: result.checks };
}

describe.concurrent("§8 client robustness cases: the example toolbar on @trpc/client against the mock", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const r = await play(c);
      expect(r.code, r.stderr).toBe(0);
      const reply = /turn done with [^:]+: (".*") \(/.exec(r.stdout)?.[1];
      expect(reply, r.stdout).toBeDefined();
      const text = JSON.parse(reply!) as string;
      if (typeof c.reply === "string") expect(text).toBe(c.reply);
      else expect(text).toMatch(c.reply);
      // No client check fails (those the case does not exercise may stay incomplete); the case's own checks pass.
      const bad = r.checks.filter((x) => x.verdict === "fail" || x.verdict === "warn").map((x) => [x.id, x.verdict, x.message]);
      expect(bad).toEqual([]);
      for (const id of c.pass) expect(r.checks.find((x) => x.id === `stagewise-chat/${id}`)?.verdict, `${id}: ${r.checks.find((x) => x.id === `stagewise-chat/${id}`)?.message}`).toBe("pass");
      expect(r.subscriptions).toBeGreaterThanOrEqual(c.subscriptions[0]);
      expect(r.subscriptions).toBeLessThanOrEqual(c.subscriptions[1]);
    }, 40_000);
  }
});
