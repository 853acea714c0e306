#!/usr/bin/env node
// A small stagewise agent built only on the kit's adapter: `node examples/stagewise-agent.mjs [--port N]`.
//
// It echoes every message back, streamed in small chunks. A message that mentions "file" makes it ask to write one
// with the backend tool `writeFile`, which needs the user's approval: approved, it "writes" and says "Done.";
// rejected, it records an error result and says "Cancelled.". Stop aborts whatever it is doing.
import { createAgentServer } from "agentwire/stagewise";

const portArg = process.argv.indexOf("--port");
const port = portArg > 0 ? Number(process.argv[portArg + 1]) : undefined;
if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
  console.error("usage: node examples/stagewise-agent.mjs [--port N]");
  process.exit(2);
}

const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

const agent = await createAgentServer({
  name: "agentwire echo agent",
  description: "Echoes messages; asks before writing a file",
  port,
  hooks: {
    async onUserMessage({ message, signal }) {
      const text = message.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join(" ");
      const reply = agent.chat.addMessage({ role: "assistant", content: [] });
      await stream(reply, 0, `Echo: ${text}`, signal);
      if (/file/i.test(text)) {
        const approval = agent.chat.requestApproval(reply, { toolName: "writeFile", input: { path: "notes.txt", content: text }, runtime: "backend" });
        const { approved } = await approval;
        agent.chat.addToolResult(approval.toolCallId, approved ? { written: "notes.txt" } : "rejected by the user", { isError: !approved });
        const index = agent.chat.messages().find((m) => m.id === reply).content.length;
        await stream(reply, index, approved ? "Done." : "Cancelled.", signal);
      }
      agent.chat.finishMessage(reply);
    },
  },
});

/** Streams text into part `index` of a message, a few characters at a time. */
async function stream(messageId, index, text, signal) {
  for (let i = 0; i < text.length; i += 8) {
    agent.chat.streamPart(messageId, index, text.slice(i, i + 8));
    await sleep(30, signal);
  }
}

console.log(`stagewise agent listening on ${agent.url} (discovery ${agent.infoUrl}, WebSocket ${agent.wsUrl})`);
const shutdown = () => agent.close().then(() => process.exit(0));
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
