/** examples/stagewise-agent.mjs, the echo agent written only against agentwire/stagewise, driven by a real toolbar client. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compareChatStates } from "../../src/stagewise/snapshot-compare.js";
import type { ToolCallPart } from "../../src/generated/stagewise-chat.js";
import { connect, Follower, METADATA, rejection, type Toolbar } from "./adapter-client.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let child: ChildProcess;
let wsUrl: string;
let toolbar: Toolbar;
let follower: Follower;

/** Starts a node process and waits for the URL it prints. */
async function start(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
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
  return { child: proc, url };
}

beforeAll(async () => {
  const started = await start(["examples/stagewise-agent.mjs", "--port", "0"]);
  child = started.child;
  const url = started.url;
  const info = await fetch(`${url}/stagewise/info`);
  expect(await info.json()).toMatchObject({ capabilities: { toolCalling: false, chatHistory: true } });
  wsUrl = `${url.replace("http", "ws")}/stagewise/ws`;
  toolbar = connect(wsUrl);
  follower = new Follower(toolbar);
  await follower.waitFor((e) => e.update.type === "agent-state");
});

afterAll(async () => {
  await toolbar?.close();
  child?.kill("SIGTERM");
});

const chatId = () => follower.reduced().activeChatId!;
const idle = (from: number) => follower.waitFor((e) => e.update.type === "agent-state" && !e.update.isWorking, 5_000, from);

async function askForFile(prompt: string): Promise<{ call: ToolCallPart; from: number }> {
  const from = follower.events.length;
  await toolbar.trpc.chat.sendMessage.mutate({ chatId: chatId(), content: [{ type: "text", text: prompt }], metadata: METADATA });
  const e = await follower.waitFor((x) => x.update.type === "message-updated" && x.update.update.content.type === "tool-call", 5_000, from);
  return { call: (e.update as { update: { content: ToolCallPart } }).update.content, from };
}

describe("the example stagewise agent", () => {
  it("echoes a message, streamed, and goes idle", async () => {
    const from = follower.events.length;
    await toolbar.trpc.chat.sendMessage.mutate({ chatId: chatId(), content: [{ type: "text", text: "hello there, agent" }], metadata: METADATA });
    await idle(from);
    const reply = follower.reduced().messages.at(-1)!;
    expect(reply).toMatchObject({ role: "assistant", content: [{ type: "text", text: "Echo: hello there, agent" }] });
    expect(follower.events.slice(from).filter((e) => e.update.type === "message-updated").length).toBeGreaterThan(2);
  });

  it("asks before writing a file: approved → result and Done.; a second approval is refused", async () => {
    const { call, from } = await askForFile("write a file please");
    expect(call).toMatchObject({ toolName: "writeFile", runtime: "backend", requiresApproval: true });
    const approve = { chatId: chatId(), toolCallId: call.toolCallId, approved: true, metadata: METADATA };
    await toolbar.trpc.chat.approveToolCall.mutate(approve);
    await idle(from);
    expect(await rejection(toolbar.trpc.chat.approveToolCall.mutate(approve))).toMatchObject({ code: "CONFLICT", reason: "tool-call-not-pending" });
    const messages = follower.reduced().messages;
    expect(messages.at(-1)).toMatchObject({ role: "user", content: [{ type: "tool-approval", toolCallId: call.toolCallId, approved: true }], metadata: METADATA });
    // The reply was streamed before the approval was asked; the result and "Done." were added to it after.
    expect(messages.at(-2)!.content.slice(1)).toEqual([
      call,
      { type: "tool-result", toolCallId: call.toolCallId, toolName: "writeFile", output: { written: "notes.txt" } },
      { type: "text", text: "Done." },
    ]);
  });

  it("rejected → an error result and Cancelled.; the follower equals a fresh snapshot", async () => {
    const { call, from } = await askForFile("another file");
    await toolbar.trpc.chat.approveToolCall.mutate({ chatId: chatId(), toolCallId: call.toolCallId, approved: false, reason: "not now", metadata: METADATA });
    await idle(from);
    const assistant = follower.reduced().messages.at(-2)!;
    expect(follower.reduced().messages.at(-1)).toMatchObject({ content: [{ type: "tool-approval", approved: false, reason: "not now" }] });
    expect(assistant.content.slice(-2)).toEqual([
      { type: "tool-result", toolCallId: call.toolCallId, toolName: "writeFile", output: "rejected by the user", isError: true },
      { type: "text", text: "Cancelled." },
    ]);
    const fresh = new Follower(toolbar);
    await fresh.waitFor((e) => e.update.type === "agent-state");
    expect(compareChatStates(follower.reduced(), fresh.reduced())).toBeNull();
    fresh.stop();
  });
});

describe("the README's stagewise agent", () => {
  it("runs as written: echoes, asks before writing, and says Done.", async () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const block = /### Building a stagewise agent[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block, "the README section has a js block").toBeDefined();
    expect(block!.trim().split("\n").length).toBeLessThan(40);
    const { child: proc, url } = await start(["--input-type=module", "-e", block!]);
    const t = connect(`${url.replace("http", "ws")}/stagewise/ws`);
    try {
      const f = new Follower(t);
      await f.waitFor((e) => e.update.type === "agent-state");
      const chat = f.reduced().activeChatId!;
      await t.trpc.chat.sendMessage.mutate({ chatId: chat, content: [{ type: "text", text: "a file" }], metadata: METADATA });
      const e = await f.waitFor((x) => x.update.type === "message-updated" && x.update.update.content.type === "tool-call", 5_000);
      const call = (e.update as { update: { content: ToolCallPart } }).update.content;
      await t.trpc.chat.approveToolCall.mutate({ chatId: chat, toolCallId: call.toolCallId, approved: true, metadata: METADATA });
      await f.waitFor((x) => x.update.type === "agent-state" && !x.update.isWorking && x.seq > e.seq, 5_000);
      expect(f.reduced().messages.at(-2)!.content.map((p) => (p.type === "text" ? p.text : p.type))).toEqual(["Echo: a file", "tool-call", "tool-result", "Done."]);
    } finally {
      await t.close();
      proc.kill("SIGTERM");
    }
  });
});
