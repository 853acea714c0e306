/**
 * A wait on a peer does not run out while the peer's answer sits unread: when the process was held
 * up past a deadline, node would run the due timer before reading the socket. Each case holds the
 * loop up while an answer is on its way (written by the in-process server, or still to be written
 * by it in the next turn), so the timer falls due before the kit has read it; a plain timer fails
 * every case but the silent peer's.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer, type WebSocket } from "ws";
import { TranscriptBus } from "../../src/core/transcript/transcript.js";
import { openWs, type WsConnection } from "../../src/core/transport/ws-exchange.js";

const WAIT = 30;
/** Far past WAIT: the process is busy elsewhere (a loaded machine, another run's long task). */
const HOLD = 150;

function holdUp(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy: no timer, no socket is served meanwhile
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A `ws` server; `upgrade` may run after the 101 was written, `onConnection` per socket. */
async function serve(o: { afterUpgrade?: () => void; onConnection?: (ws: WebSocket) => void }): Promise<string> {
  const server = http.createServer();
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<Duplex>();
  server.on("upgrade", (req, socket, head) => {
    sockets.add(socket);
    wss.handleUpgrade(req, socket, head, (ws) => {
      o.onConnection?.(ws);
      o.afterUpgrade?.();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(async () => {
    for (const c of wss.clients) c.terminate();
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
}

async function connect(url: string, openTimeout = 2000): Promise<WsConnection> {
  const r = await openWs(new TranscriptBus(), { probe: "t", label: "main", url, openTimeout });
  if (!r.ok) throw new Error(`did not open: ${JSON.stringify(r)}`);
  cleanups.push(() => r.conn.terminate("test end"));
  return r.conn;
}

describe("waits on a peer after the process was held up", () => {
  it("an upgrade answered before the deadline opens", async () => {
    const url = await serve({ afterUpgrade: () => holdUp(HOLD) });
    const r = await openWs(new TranscriptBus(), { probe: "t", label: "main", url, openTimeout: WAIT });
    if (r.ok) cleanups.push(() => r.conn.terminate("test end"));
    expect(r.ok, JSON.stringify(r.ok ? "" : r)).toBe(true);
  });

  it("a request answered before the deadline gets its answer", async () => {
    const url = await serve({
      onConnection: (ws) =>
        ws.on("message", (d) => {
          const cmd = JSON.parse(d.toString()) as { id: string; type: string };
          ws.send(JSON.stringify({ type: "response", id: cmd.id, command: cmd.type, success: true }));
          holdUp(HOLD);
        }),
    });
    const conn = await connect(url);
    const r = await conn.request({ id: "q1", type: "get_state" }, { timeout: WAIT, label: "state" });
    expect(r).toMatchObject({ ok: true, response: { id: "q1" } });
  });

  it("a request the embedded peer could answer only after the hold-up gets its answer", async () => {
    // The server shares the loop: the hold-up keeps it from reading the request, so it answers in
    // the turn after the timer fell due, and the kit reads the answer in the turn after that.
    const url = await serve({
      onConnection: (ws) =>
        ws.on("message", (d) => {
          const cmd = JSON.parse(d.toString()) as { id: string; type: string };
          ws.send(JSON.stringify({ type: "response", id: cmd.id, command: cmd.type, success: true }));
        }),
    });
    const conn = await connect(url);
    const answered = await new Promise<Awaited<ReturnType<WsConnection["request"]>>>((resolve) => {
      setImmediate(() => {
        void conn.request({ id: "q3", type: "get_state" }, { timeout: WAIT }).then(resolve);
        holdUp(HOLD);
      });
    });
    expect(answered).toMatchObject({ ok: true, response: { id: "q3" } });
  });

  it("a message awaited with until() arrives", async () => {
    const url = await serve({
      onConnection: (ws) =>
        ws.on("message", () => {
          ws.send(JSON.stringify({ type: "agent_end" }));
          holdUp(HOLD);
        }),
    });
    const conn = await connect(url);
    const ended = conn.until((m) => (m.json as { type?: string }).type === "agent_end", WAIT);
    conn.send({ type: "prompt", message: "go" });
    expect((await ended)?.json).toEqual({ type: "agent_end" });
  });

  it("a silent peer still runs the wait out", async () => {
    const url = await serve({});
    const conn = await connect(url);
    const t0 = performance.now();
    expect(await conn.until(() => true, WAIT)).toBeUndefined();
    expect((await conn.request({ id: "q2", type: "get_state" }, { timeout: WAIT })).timedOut).toBe(true);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(2 * WAIT - 2);
  });
});
