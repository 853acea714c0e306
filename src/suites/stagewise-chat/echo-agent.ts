/**
 * A small agent on the kit's adapter parts, the suite's own target until the reference mock takes
 * its place: it echoes each message in small chunks and, for a message that mentions a file, asks
 * to run a backend tool that needs approval (the example agent's behaviour). It is assembled from
 * the adapter's pieces rather than createAgentServer only so that, as the suite's target, it pings
 * after a second of client silence instead of thirty (trpc/keepalive-ping is then judged within
 * a quick run); everything else is the adapter's.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { applyWSSHandler } from "@trpc/server/adapters/ws";
import { WebSocketServer } from "ws";
import type { MockStartOptions, RunningMock } from "../../core/protocol.js";
import { formatSchemaErrors, registry } from "../../core/schema-registry.js";
import { ChatAgent } from "../../stagewise/adapter/chat-agent.js";
import { discoveryHandler } from "../../stagewise/adapter/discovery.js";
import { createAgentRouter } from "../../stagewise/adapter/router.js";
import { FIRST_PORT, LAST_PORT } from "../../stagewise/adapter/server.js";
import { AvailabilityChannel, MessagingMirror, StateChannel } from "../../stagewise/adapter/side-channels.js";
import type { AgentHooks } from "../../stagewise/adapter/types.js";

export const DEFAULT_PORT = FIRST_PORT;

const validate = (schema: string, value: unknown) => {
  const r = registry.validate("stagewise-chat", schema, value);
  return r.ok ? null : formatSchemaErrors(r.errors);
};

export async function startMock(opts: MockStartOptions): Promise<RunningMock> {
  const chunkDelay = opts.chunkDelayMs ?? (opts.suite ? 5 : 30);
  let n = 0;
  const ids = (kind: string) => `${kind}-${(++n).toString(36)}`;
  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const onAbort = () => (clearTimeout(timer), reject(signal.reason));
      // The listener goes with the timer: a turn sleeps many times on one signal.
      const timer = setTimeout(() => (signal.removeEventListener("abort", onAbort), resolve()), ms);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  const stream = async (messageId: string, index: number, text: string, signal: AbortSignal) => {
    for (let i = 0; i < text.length; i += 8) {
      agent.streamPart(messageId, index, text.slice(i, i + 8));
      await sleep(chunkDelay, signal);
    }
  };
  const hooks: AgentHooks = {
    async onUserMessage({ message, signal }) {
      const text = message.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join(" ");
      const reply = agent.addMessage({ role: "assistant", content: [] });
      await stream(reply, 0, `Echo: ${text}`, signal);
      if (/file/i.test(text)) {
        const approval = agent.requestApproval(reply, { toolName: "writeFile", input: { path: "notes.txt" }, runtime: "backend" });
        const { approved } = await approval;
        agent.addToolResult(approval.toolCallId, approved ? { written: "notes.txt" } : "rejected by the user", { isError: !approved });
        const index = agent.messages().find((m) => m.id === reply)!.content.length;
        await stream(reply, index, approved ? "Done." : "Cancelled.", signal);
      }
      agent.finishMessage(reply);
    },
  };
  const agent = new ChatAgent({
    defaultChatTitle: "New chat",
    coalesceMs: 20,
    idGenerator: ids,
    initialChats: [{ id: ids("chat"), title: "New chat", createdAt: new Date().toISOString(), isActive: true, messages: [] }],
    hooks,
    validate,
  });
  const router = createAgentRouter({
    agent,
    availability: new AvailabilityChannel(validate),
    state: new StateChannel(agent.store, validate),
    messaging: new MessagingMirror(agent.store, () => ids("msg")),
    validate,
  });
  const info = {
    name: "agentwire echo agent",
    description: "Echoes messages; asks before writing a file",
    capabilities: { toolCalling: false, chatHistory: true },
  };
  const discovery = discoveryHandler("/stagewise/info", info);
  const http = createServer((req, res) => {
    // A user's malformed request gets a 4xx in the adapter's error shape, never a crash.
    const refuse = (status: number, error: string) => {
      const body = JSON.stringify({ error });
      res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), "access-control-allow-origin": "*" });
      res.end(body);
    };
    if (!validHost(req.headers.host)) return refuse(400, "malformed Host header");
    if (!["GET", "HEAD", "OPTIONS"].includes(req.method ?? "")) return refuse(405, "discovery answers GET");
    discovery(req, res);
  });
  // Upgrades are taken by hand: a WebSocketServer bound to the server would re-emit its listen errors (a busy port while scanning).
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
  http.on("upgrade", (req, socket, head) => {
    if ((req.url ?? "").split("?")[0] !== "/stagewise/ws") {
      socket.end(
        "HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n" + JSON.stringify({ error: "WebSocket is on /stagewise/ws" }),
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
  });
  applyWSSHandler({ wss, router, keepAlive: { enabled: true, pingMs: opts.suite ? 1_000 : 30_000, pongWaitMs: 5_000 }, onError: () => {} });
  const host = opts.host ?? "127.0.0.1";
  // As the suite's target it takes the first free port from 5746, as a real agent does (wire/port-range).
  const port = await listen(http, host, opts.suite ? undefined : opts.port);
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.close();
        for (const c of wss.clients) c.terminate();
        wss.close();
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

async function listen(server: import("node:http").Server, host: string, port: number | undefined): Promise<number> {
  const candidates = port !== undefined ? [port] : Array.from({ length: LAST_PORT - FIRST_PORT + 1 }, (_, i) => FIRST_PORT + i);
  for (const p of candidates) {
    const ok = await new Promise<boolean>((resolve, reject) => {
      const onError = (e: NodeJS.ErrnoException) => (e.code === "EADDRINUSE" && port === undefined ? resolve(false) : reject(e));
      server.once("error", onError);
      server.listen(p, host, () => (server.off("error", onError), resolve(true)));
    });
    if (ok) return (server.address() as AddressInfo).port;
  }
  throw new Error(`no free port in ${FIRST_PORT}..${LAST_PORT} on ${host}`);
}

/** A Host header that names a host (and maybe a port), as URL parsing reads it. */
function validHost(host: string | undefined): boolean {
  if (!host) return false;
  try {
    return new URL(`http://${host}/`).host !== "";
  } catch {
    return false;
  }
}
