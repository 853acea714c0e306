/** examples/stagewise-agent.mjs, the echo agent written only against agentwire/stagewise, driven by a real toolbar client. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { compareChatStates } from "../../src/stagewise/snapshot-compare.js";
import type { ToolCallPart } from "../../src/generated/stagewise-chat.js";
import { connect, Follower, METADATA, rejection, type Toolbar } from "./adapter-client.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let child: ChildProcess;
let wsUrl: string;
let toolbar: Toolbar;
let follower: Follower;

beforeAll(async () => {
  child = spawn(process.execPath, ["examples/stagewise-agent.mjs", "--port", "0"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the example printed no URL: ${out}`)), 10_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) (clearTimeout(timer), resolve(match[1]!));
    });
    child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`the example exited with ${String(code)}: ${out}`)));
  });
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
