/**
 * A small agent on the kit's adapter, the suite's own target until the reference mock takes its
 * place: it echoes each message in small chunks and, for a message that mentions a file, asks to
 * run a backend tool that needs approval (the example agent's behaviour).
 */
import type { MockStartOptions, RunningMock } from "../../core/protocol.js";
import { createAgentServer, FIRST_PORT } from "../../stagewise/index.js";

export const DEFAULT_PORT = FIRST_PORT;

export async function startMock(opts: MockStartOptions): Promise<RunningMock> {
  const chunkDelay = opts.chunkDelayMs ?? (opts.suite ? 5 : 30);
  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const onAbort = () => (clearTimeout(timer), reject(signal.reason));
      // The listener goes with the timer: a turn sleeps many times on one signal.
      const timer = setTimeout(() => (signal.removeEventListener("abort", onAbort), resolve()), ms);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  const stream = async (messageId: string, index: number, text: string, signal: AbortSignal) => {
    for (let i = 0; i < text.length; i += 8) {
      agent.chat.streamPart(messageId, index, text.slice(i, i + 8));
      await sleep(chunkDelay, signal);
    }
  };
  const agent = await createAgentServer({
    name: "agentwire echo agent",
    description: "Echoes messages; asks before writing a file",
    // As the suite's target it takes the first free port from 5746, as a real agent does (wire/port-range).
    port: opts.suite ? undefined : opts.port,
    host: opts.host ?? "127.0.0.1",
    hooks: {
      async onUserMessage({ message, signal }) {
        const text = message.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join(" ");
        const reply = agent.chat.addMessage({ role: "assistant", content: [] });
        await stream(reply, 0, `Echo: ${text}`, signal);
        if (/file/i.test(text)) {
          const approval = agent.chat.requestApproval(reply, { toolName: "writeFile", input: { path: "notes.txt" }, runtime: "backend" });
          const { approved } = await approval;
          agent.chat.addToolResult(approval.toolCallId, approved ? { written: "notes.txt" } : "rejected by the user", { isError: !approved });
          const index = agent.chat.messages().find((m) => m.id === reply)!.content.length;
          await stream(reply, index, approved ? "Done." : "Cancelled.", signal);
        }
        agent.chat.finishMessage(reply);
      },
    },
  });
  return { url: agent.url, close: () => agent.close() };
}
