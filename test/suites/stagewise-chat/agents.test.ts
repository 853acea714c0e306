/**
 * The server suite against agents built on the kit's adapter: the example agent run as a separate
 * process (as its README says), and an agent with a toolbar tool and a refusing createChat hook.
 * Every check passes, or is skipped or reported with a reason; the server's PING needs 35 s of
 * silence, which a quick run does not wait for.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../../src/core/verdicts/result.js";
import { runSuite } from "../../../src/core/run/runner.js";
import { createAgentServer, reject } from "../../../src/stagewise/index.js";
import { stagewiseChat } from "../../../src/suites/stagewise-chat/index.js";
import { byId, explain, serverSide } from "../../helpers/run-results.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const PING = "stagewise-chat/trpc/keepalive-ping";
const ok = (c: CheckResult) =>
  c.verdict === "pass" || c.verdict === "skip" || (c.level === "INFO" && c.verdict === "info") || (c.id === PING && c.verdict === "incomplete");
// slow: false — these agents ping after 30 s of silence, which a quick run does not wait for.
const quick = { params: { quietMs: 100, slow: false }, timeout: 10_000 };

const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.kill("SIGTERM")));

async function startExample(): Promise<string> {
  const proc = spawn(process.execPath, ["examples/stagewise-agent.mjs"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  children.push(proc);
  return new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the agent printed no URL: ${out}`)), 10_000);
    proc.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) (clearTimeout(timer), resolve(match[1]!));
    });
    proc.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    proc.once("exit", (code) => reject(new Error(`the agent exited with ${String(code)}: ${out}`)));
  });
}

describe.concurrent("stagewise-chat suite against adapter-built agents", () => {
  it("passes against examples/stagewise-agent.mjs given by --url", async () => {
    const url = await startExample();
    const r = await runSuite(stagewiseChat, { url, ...quick });
    const checks = serverSide(r);
    expect(checks).toHaveLength(59);
    expect(
      checks.filter((c) => !ok(c)),
      explain(checks, (c) => !ok(c)),
    ).toEqual([]);
    // The judged core of the contract really was judged, not skipped.
    for (const id of [
      "chat/snapshot-equals-reduced",
      "chat/seq-global",
      "chat/reject-while-working",
      "chat/stream-incremental",
      "tools/approval-recorded",
      "tools/stop-closes-pending",
      "tools/approval-respected",
    ]) {
      expect(byId(checks, `stagewise-chat/${id}`).verdict, id).toBe("pass");
    }
    expect(byId(checks, "stagewise-chat/tools/toolbar-result-recorded").message).toMatch(/not applicable: no tool call ran in the toolbar/);
    expect(byId(checks, PING).message).toMatch(/less than the 35 s this needs/);
    expect(byId(checks, "stagewise-chat/security/ws-foreign-origin").verdict).toBe("info");
  });

  it("an agent that refuses switchChat: the rules that need another chat than the kit's own are not applicable", async () => {
    const agent = await createAgentServer({ port: 0, coalesceMs: 0, hooks: { onSwitchChat: () => reject("no switching") } });
    try {
      const checks = serverSide(await runSuite(stagewiseChat, { url: agent.url, ...quick }));
      for (const id of ["chat/switch-chat", "chat/delete-chat", "chat/reject-not-active"]) {
        const c = byId(checks, `stagewise-chat/${id}`);
        expect(`${c.verdict}: ${c.message}`, id).toMatch(/^skip: not applicable: the agent refused switchChat/);
      }
    } finally {
      await agent.close();
    }
  });

  it("an agent whose turn outlasts the kit's waits fails nothing: what needs it at rest is not sent, and says so", async () => {
    const agent = await createAgentServer({
      port: 0,
      coalesceMs: 0,
      hooks: {
        async onUserMessage({ signal }) {
          const reply = agent.chat.addMessage({ role: "assistant", content: [] });
          // Far longer than the waits below: a long task worked through step by step.
          for (let i = 0; i < 200 && !signal.aborted; i++) {
            agent.chat.streamPart(reply, 0, `Step ${i + 1} is done. `);
            await new Promise((r) => setTimeout(r, 50));
          }
          agent.chat.finishMessage(reply);
        },
      },
    });
    try {
      const checks = serverSide(await runSuite(stagewiseChat, { url: agent.url, ...quick, params: { ...quick.params, behaviourMs: 1500, stopMs: 300 } }));
      const failed = (c: CheckResult) => c.verdict === "fail";
      expect(checks.filter(failed), explain(checks, failed)).toEqual([]);
      expect(byId(checks, "stagewise-chat/chat/delete-messages").message).toMatch(/not exercised: deleteMessageAndSubsequent was never sent/);
      expect(byId(checks, "stagewise-chat/messaging/no-replay").verdict).toBe("incomplete");
    } finally {
      await agent.close();
    }
  });

  it("runs a toolbar tool and skips the second-chat rules when createChat is refused; --prompt and --tool-prompt reach the agent", async () => {
    const heard: string[] = [];
    const agent = await createAgentServer({
      port: 0,
      coalesceMs: 0,
      hooks: {
        onCreateChat: () => reject("one chat only"),
        async onUserMessage({ message }) {
          const text = message.content.map((p) => (p.type === "text" ? p.text : "")).join(" ");
          heard.push(text);
          const reply = agent.chat.addMessage({ role: "assistant", content: [] });
          for (let i = 0; i < text.length; i += 40) {
            agent.chat.streamPart(reply, 0, text.slice(i, i + 40));
            await new Promise((r) => setTimeout(r, 30));
          }
          if (/file/i.test(text)) {
            const styles = agent.chat.addToolCall(reply, { toolName: "getSelectedElementStyles", input: {}, runtime: "toolbar" });
            await agent.chat.waitForToolResult(styles);
            const approval = agent.chat.requestApproval(reply, { toolName: "writeFile", input: { path: "a.txt" }, runtime: "backend" });
            const { approved } = await approval;
            agent.chat.addToolResult(approval.toolCallId, approved ? "ok" : "refused", { isError: !approved });
          }
          agent.chat.finishMessage(reply);
        },
      },
    });
    try {
      const prompt = `Tell me about CSS grid. ${"Keep it short. ".repeat(14)}`;
      const toolPrompt = "Save my notes to a file, please.";
      const checks = serverSide(await runSuite(stagewiseChat, { url: agent.url, ...quick, params: { ...quick.params, prompt, toolPrompt } }));
      expect(heard).toContain(prompt);
      expect(heard).toContain(toolPrompt);
      const bad = (c: CheckResult) => !ok(c) && c.id !== "stagewise-chat/wire/port-range";
      expect(checks.filter(bad), explain(checks, bad)).toEqual([]);
      expect(byId(checks, "stagewise-chat/tools/toolbar-result-recorded").verdict).toBe("pass");
      expect(byId(checks, "stagewise-chat/chat/create-chat").message).toMatch(/not applicable: the agent refused createChat/);
      expect(byId(checks, "stagewise-chat/chat/switch-chat").message).toMatch(/not applicable/);
      expect(byId(checks, "stagewise-chat/chat/reject-error-shape").verdict).toBe("pass");
    } finally {
      await agent.close();
    }
  });
});
