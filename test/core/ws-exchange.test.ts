/** The recording WebSocket client against tiny `ws` and raw servers. */
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocketServer, type WebSocket } from "ws";
import { TranscriptBus, type TranscriptEvent } from "../../src/core/transcript/transcript.js";
import { frameJson, frameValues, openWs, REQUEST_TIMEOUT_NOTE, type WsConnection, type WsFrameEvent } from "../../src/core/transport/ws-exchange.js";
import { cutByKit } from "../../src/core/transport/ws-limits.js";

interface Served {
  url: string;
  close(): Promise<void>;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A `ws` server on /ws whose connections run `onConnection`. */
async function wsServer(onConnection: (ws: WebSocket, req: http.IncomingMessage) => void): Promise<Served> {
  const server = http.createServer((_req, res) => res.end("plain"));
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) => {
    const u = new URL(req.url ?? "/", "http://x");
    if (u.pathname !== "/ws") {
      socket.end("HTTP/1.1 404 Not Found\r\n\r\n");
      return;
    }
    if (u.searchParams.has("token") && u.searchParams.get("token") !== "good") {
      socket.end("HTTP/1.1 401 Unauthorized\r\n\r\n");
      return;
    }
    if (req.headers.origin === "http://evil.example") {
      socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, req));
  });
  return listen(server, async () => {
    for (const c of wss.clients) c.terminate();
    wss.close();
  });
}

async function listen(server: http.Server | net.Server, before?: () => Promise<void> | void): Promise<Served> {
  const sockets = new Set<net.Socket>();
  server.on("connection", (s: net.Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  const served = {
    url: `ws://127.0.0.1:${port}`,
    close: async () => {
      await before?.();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  cleanups.push(served.close);
  return served;
}

function record(): { bus: TranscriptBus; events: TranscriptEvent[] } {
  const bus = new TranscriptBus();
  const events: TranscriptEvent[] = [];
  bus.subscribe((e) => events.push(e));
  return { bus, events };
}

async function connect(bus: TranscriptBus, url: string, extra: { maxFrames?: number; maxBytes?: number; maxPayload?: number; headers?: Record<string, string>; openTimeout?: number } = {}): Promise<WsConnection> {
  const r = await openWs(bus, { probe: "t", label: "main", url, openTimeout: extra.openTimeout ?? 2000, ...extra });
  if (!r.ok) throw new Error(`did not open: ${JSON.stringify(r)}`);
  cleanups.push(() => r.conn.terminate("test end"));
  return r.conn;
}

const kinds = (events: TranscriptEvent[]) => events.map((e) => e.kind);
const isAfter = (m: { json: unknown }) => (m.json as { type?: string } | undefined)?.type === "after";

describe("openWs", () => {
  it("a waiter or listener that throws on a peer's odd message has not heard it: the connection and the process go on", async () => {
    const s = await wsServer((ws) => {
      ws.on("message", () => {
        ws.send(JSON.stringify({ id: 1, result: null }));
        ws.send(JSON.stringify({ id: 1, result: { type: "data" } }));
      });
    });
    const { bus } = record();
    const conn = await connect(bus, `${s.url}/ws`);
    const heard: unknown[] = [];
    conn.onMessage((m) => heard.push((m.json as { result: { type: string } }).result.type));
    // Reads result.type as if result were always an object: the first message would throw here.
    const waiting = conn.until((m) => (m.json as { result: { type: string } }).result.type === "data", 1000);
    conn.send({ go: true });
    const data = await waiting;
    expect(data?.json).toEqual({ id: 1, result: { type: "data" } });
    expect(heard).toEqual(["data"]);
  });

  it("records the upgrade, frames both ways, a correlated request and the kit's close", async () => {
    const s = await wsServer((ws, req) => {
      ws.send(JSON.stringify({ type: "hello", origin: req.headers.origin }));
      ws.on("message", (d) => {
        const cmd = JSON.parse(d.toString()) as { id: string; type: string };
        ws.send(JSON.stringify({ type: "agent_start" }));
        ws.send(JSON.stringify({ type: "response", id: cmd.id, command: cmd.type, success: true }));
      });
    });
    const { bus, events } = record();
    const conn = await connect(bus, `${s.url}/ws?token=good`, { headers: { Origin: "http://localhost:4781" } });
    const hello = await conn.until((m) => (m.json as { type?: string }).type === "hello", 1000, { fromSeq: conn.openSeq });
    expect(hello?.json).toEqual({ type: "hello", origin: "http://localhost:4781" });
    const started = conn.until((m) => (m.json as { type?: string }).type === "agent_start", 1000);
    const r = await conn.request({ id: "req_1", type: "get_state" }, { timeout: 1000, label: "state" });
    expect(r).toMatchObject({ ok: true, response: { id: "req_1", command: "get_state", success: true } });
    expect(r.inexact).toBeUndefined();
    expect(await started).toBeDefined();
    const info = await conn.close(1000, "bye");
    expect(info).toMatchObject({ by: "kit", code: 1000 });

    expect(kinds(events)).toEqual(["ws-open", "ws-frame", "ws-frame", "ws-frame", "ws-frame", "ws-close"]);
    const open = events[0] as Extract<TranscriptEvent, { kind: "ws-open" }>;
    expect(open.url).toBe(`${s.url}/ws?token=[redacted]`);
    expect(open.label).toBe("main");
    expect(open.headers?.origin).toBe("http://localhost:4781");
    expect(open.responseHeaders?.["upgrade"]).toMatch(/websocket/i);
    const out = events[2] as WsFrameEvent;
    expect(out).toMatchObject({ direction: "out", binary: false, label: "state", data: '{"id":"req_1","type":"get_state"}' });
    expect(frameJson(events[4] as WsFrameEvent)).toEqual({ ok: true, value: { type: "response", id: "req_1", command: "get_state", success: true } });
    expect(events[5]).toMatchObject({ kind: "ws-close", by: "kit", code: 1000 });
  });

  it.each([
    ["other path", "/socket", {}, 404],
    ["wrong token", "/ws?token=bad", {}, 401],
    ["foreign origin", "/ws", { origin: "http://evil.example" }, 403],
  ])("records a %s as a rejected upgrade with its status", async (_n, path, headers, status) => {
    const s = await wsServer(() => undefined);
    const { bus, events } = record();
    const r = await openWs(bus, { probe: "t", label: "probe", url: s.url + path, headers, openTimeout: 2000 });
    expect(r).toMatchObject({ ok: false, status });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: "ws-reject", status, label: "probe" });
  });

  it("records a server that answers the upgrade with a plain 200", async () => {
    const server = http.createServer((_req, res) => res.end("not a websocket"));
    const s = await listen(server);
    const { bus, events } = record();
    const r = await openWs(bus, { probe: "t", label: "main", url: `${s.url}/ws`, openTimeout: 2000 });
    expect(r).toMatchObject({ ok: false, status: 200, body: "not a websocket" });
    expect(events[0]).toMatchObject({ kind: "ws-reject", status: 200 });
  });

  it("records a refused port and a silent server as transport errors, within the open timeout", async () => {
    const s = await listen(net.createServer(() => undefined));
    const { bus, events } = record();
    const t0 = performance.now();
    const silent = await openWs(bus, { probe: "t", label: "main", url: `${s.url}/ws`, openTimeout: 300 });
    expect(performance.now() - t0).toBeLessThan(1500);
    expect(silent).toMatchObject({ ok: false, code: "ETIMEDOUT" });
    await s.close();
    const refused = await openWs(bus, { probe: "t", label: "main", url: `${s.url}/ws`, openTimeout: 1000 });
    expect(refused).toMatchObject({ ok: false, code: "ECONNREFUSED", error: "connection refused" });
    expect(kinds(events)).toEqual(["ws-reject", "ws-reject"]);
  });

  it("an aborted signal ends the upgrade at once", async () => {
    const s = await listen(net.createServer(() => undefined));
    const ac = new AbortController();
    const { bus } = record();
    const p = openWs(bus, { probe: "t", label: "main", url: `${s.url}/ws`, openTimeout: 5000, signal: ac.signal });
    ac.abort();
    expect(await p).toMatchObject({ ok: false, code: "ABORTED" });
  });
});

describe("WsConnection", () => {
  it("times out a request the server never answers, leaving a note, and keeps waiting bounded", async () => {
    const s = await wsServer(() => undefined);
    const { bus, events } = record();
    const conn = await connect(bus, `${s.url}/ws`);
    const t0 = performance.now();
    const [r, none] = await Promise.all([conn.request({ id: "x", type: "get_state" }, { timeout: 200 }), conn.until(() => true, 200)]);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(r).toMatchObject({ ok: false, timedOut: true });
    expect(none).toBeUndefined();
    const note = events.find((e) => e.kind === "note");
    expect(note).toMatchObject({ name: REQUEST_TIMEOUT_NOTE, value: { id: "x", command: "get_state", waitedMs: 200 } });
  });

  it("records binary frames and invalid UTF-8 in a text frame as evidence, not a crash", async () => {
    const s = await wsServer((ws) => {
      ws.send(Buffer.from('{"type":"agent_start"}'), { binary: true });
      ws.send(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), { binary: false });
      ws.send(JSON.stringify({ type: "after" }));
    });
    const { bus, events } = record();
    const conn = await connect(bus, `${s.url}/ws`);
    expect(await conn.until((m) => (m.json as { type?: string } | undefined)?.type === "after", 1000, { fromSeq: conn.openSeq })).toBeDefined();
    const frames = events.filter((e): e is WsFrameEvent => e.kind === "ws-frame");
    expect(frames[0]).toMatchObject({ binary: true, data: '{"type":"agent_start"}', bytes: 22 });
    expect(frames[0]!.invalidUtf8).toBeUndefined();
    expect(frames[1]).toMatchObject({ binary: false, invalidUtf8: true, bytes: 6 });
    expect(frames[1]!.data).toBe('{"\ufffd\ufffd"}');
    expect(conn.isOpen).toBe(true);
  });

  it("stamps the frames of one socket read with that read's time, however long judging them takes", async () => {
    // Sent in one write (corked): they arrive in one read. A slow listener stands for judging a large burst.
    const s = await wsServer((ws) => {
      const raw = (ws as unknown as { _socket: net.Socket })._socket;
      raw.cork();
      for (let i = 0; i < 20; i++) ws.send(JSON.stringify({ type: "burst", i }));
      ws.send(JSON.stringify({ type: "after" }));
      process.nextTick(() => raw.uncork());
    });
    const { bus, events } = record();
    const conn = await connect(bus, `${s.url}/ws`);
    conn.onMessage(() => {
      const until = performance.now() + 2;
      while (performance.now() < until);
    });
    expect(await conn.until((m) => (m.json as { type?: string } | undefined)?.type === "after", 2000, { fromSeq: conn.openSeq })).toBeDefined();
    const times = new Set(events.filter((e): e is WsFrameEvent => e.kind === "ws-frame" && e.direction === "in").map((e) => e.t));
    expect(times.size).toBe(1);
  });

  it("resolves pending requests and waiters when the server closes with 1011", async () => {
    const s = await wsServer((ws) => ws.on("message", () => ws.close(1011, "internal error")));
    const { bus, events } = record();
    const conn = await connect(bus, `${s.url}/ws`);
    const waiting = conn.until(() => true, 5000);
    const r = await conn.request({ id: "a", type: "prompt", message: "hi" }, { timeout: 5000 });
    expect(r).toMatchObject({ ok: false, closed: true });
    expect(await waiting).toBeUndefined();
    expect(await conn.closed).toMatchObject({ by: "server", code: 1011, reason: "internal error" });
    expect(events.at(-1)).toMatchObject({ kind: "ws-close", by: "server", code: 1011 });
    expect(conn.send({ type: "get_state" })).toBe(false);
    expect(await conn.request({ type: "get_state" }, { timeout: 100 })).toMatchObject({ closed: true });
  });

  it("cuts a flood at the frame limit and stops recording", async () => {
    const s = await wsServer((ws) => {
      const t = setInterval(() => {
        if (ws.readyState !== ws.OPEN) return clearInterval(t);
        for (let i = 0; i < 200; i++) ws.send('{"type":"message_update"}');
      }, 1);
      ws.on("close", () => clearInterval(t));
    });
    const { bus, events } = record();
    const conn = await connect(bus, `${s.url}/ws`, { maxFrames: 1000 });
    const info = await conn.closed;
    expect(info).toMatchObject({ by: "kit", cause: "limit" });
    expect(events.filter((e) => e.kind === "ws-frame")).toHaveLength(1000);
    expect(conn.stopped).toMatch(/limit/);
  });

  it("cuts at the byte limit", async () => {
    const s = await wsServer((ws) => {
      for (let i = 0; i < 50; i++) ws.send("x".repeat(1000));
    });
    const { bus } = record();
    const conn = await connect(bus, `${s.url}/ws`, { maxBytes: 10_000 });
    expect(await conn.closed).toMatchObject({ cause: "limit" });
    expect(conn.bytesIn).toBe(10_000);
  });

  it("matches a response with a changed id by its command (inexact), and never reassigns a duplicate", async () => {
    const s = await wsServer((ws) =>
      ws.on("message", (d) => {
        const cmd = JSON.parse(d.toString()) as { id?: string; type: string };
        if (cmd.type === "get_state") {
          ws.send(JSON.stringify({ type: "response", id: cmd.id, command: "get_state", success: true }));
          ws.send(JSON.stringify({ type: "response", id: cmd.id, command: "get_state", success: true }));
        } else ws.send(JSON.stringify({ type: "response", ...(cmd.id ? { id: `${cmd.id}-1` } : {}), command: cmd.type, success: true }));
      }),
    );
    const { bus } = record();
    const conn = await connect(bus, `${s.url}/ws`);
    const a = await conn.request({ id: "s1", type: "get_state" }, { timeout: 1000 });
    expect(a).toMatchObject({ ok: true });
    // The duplicate of s1 arrives while this one waits: it must not be taken for its answer.
    const b = await conn.request({ id: "m1", type: "get_messages" }, { timeout: 1000 });
    expect(b).toMatchObject({ ok: true, inexact: true, response: { id: "m1-1" } });
    const c = await conn.request({ type: "abort" }, { timeout: 1000 });
    expect(c).toMatchObject({ ok: true, response: { command: "abort" } });
    expect(c.inexact).toBeUndefined();
  });

  it("sends raw text and binary exactly as given", async () => {
    const got: { data: string; binary: boolean }[] = [];
    const s = await wsServer((ws) => ws.on("message", (d, binary) => got.push({ data: d.toString(), binary })));
    const { bus, events } = record();
    const conn = await connect(bus, `${s.url}/ws`);
    conn.sendRaw('{"id":', { label: "bad" });
    conn.sendRaw(new TextEncoder().encode('{"type":"get_state"}'));
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toEqual([
      { data: '{"id":', binary: false },
      { data: '{"type":"get_state"}', binary: true },
    ]);
    expect(events.filter((e) => e.kind === "ws-frame").map((e) => (e as WsFrameEvent).binary)).toEqual([false, true]);
  });

  it("answers a typeless command with the response that carries no command", async () => {
    const s = await wsServer((ws) => ws.on("message", () => ws.send(JSON.stringify({ type: "response", id: "mangled", success: false, error: "Unknown command: undefined" }))));
    const { bus } = record();
    const conn = await connect(bus, `${s.url}/ws`);
    const r = await conn.request({ id: "t1" }, { timeout: 1000 });
    expect(r).toMatchObject({ ok: true, inexact: true, response: { id: "mangled" } });
  });

  it("delivers newline-joined messages of one frame one by one, recording the frame as sent", async () => {
    const s = await wsServer((ws) =>
      ws.on("message", (d) => {
        const cmd = JSON.parse(d.toString()) as { id: string };
        ws.send(`{"type":"agent_start"}\n{"type":"response","id":"${cmd.id}","command":"prompt","success":true}`);
      }),
    );
    const { bus, events } = record();
    const conn = await connect(bus, `${s.url}/ws`);
    const started = conn.until((m) => (m.json as { type?: string } | undefined)?.type === "agent_start", 1000);
    expect(await conn.request({ id: "p1", type: "prompt", message: "hi" }, { timeout: 1000 })).toMatchObject({ ok: true });
    expect(await started).toBeDefined();
    const frame = events.filter((e): e is WsFrameEvent => e.kind === "ws-frame" && e.direction === "in")[0]!;
    expect(frameJson(frame).ok).toBe(false);
    expect(frameValues(frame)).toEqual([{ type: "agent_start" }, { type: "response", id: "p1", command: "prompt", success: true }]);
  });
});

describe("reads out of a backlog", () => {
  const inFrames = (events: TranscriptEvent[]) => events.filter((e): e is WsFrameEvent => e.kind === "ws-frame" && e.direction === "in");
  const until = async (events: TranscriptEvent[], n: number) => {
    for (let i = 0; i < 500 && inFrames(events).length < n; i++) await new Promise((r) => setTimeout(r, 10));
    return inFrames(events);
  };

  it("a burst read in several large reads: the later reads say since when their messages may have waited", async () => {
    const s = await wsServer((ws) => {
      for (let i = 0; i < 400; i++) ws.send(JSON.stringify({ i, pad: "x".repeat(1000) }));
    });
    const { bus, events } = record();
    // A kit busy with the first message (judging, say) while the rest of the burst waits in the socket.
    let busy = true;
    bus.subscribe((e) => {
      if (e.kind !== "ws-frame" || !busy) return;
      busy = false;
      const until = performance.now() + 100;
      while (performance.now() < until);
    });
    await connect(bus, `${s.url}/ws`);
    const frames = await until(events, 400);
    const backlogged = frames.filter((f) => f.backlogSince !== undefined);
    expect(backlogged.length).toBeGreaterThan(0);
    // A backlog begins with an earlier read of the burst: such a message may have come with it.
    for (const f of backlogged) {
      expect(f.backlogSince).toBeGreaterThanOrEqual(frames[0]!.t);
      expect(f.backlogSince).toBeLessThan(f.t);
    }
  });

  it("large messages streamed apart are not a backlog", async () => {
    const s = await wsServer((ws) => {
      let i = 0;
      const timer = setInterval(() => {
        ws.send(JSON.stringify({ i, pad: "x".repeat(20_000) }));
        if (++i === 6) clearInterval(timer);
      }, 100);
    });
    const { bus, events } = record();
    await connect(bus, `${s.url}/ws`);
    const frames = await until(events, 6);
    expect(frames).toHaveLength(6);
    expect(frames.filter((f) => f.backlogSince !== undefined)).toEqual([]);
  });
});

describe("closes the kit caused are the kit's", () => {
  const rawOf = (ws: WebSocket) => (ws as unknown as { _socket: net.Socket })._socket;

  it("a message over the kit's size cap: cut at its header, recorded as the kit's limit, and the probes are told", async () => {
    const s = await wsServer((ws) => ws.send("x".repeat(2000)));
    const { bus, events } = record();
    const conn = await connect(bus, `${s.url}/ws`, { maxPayload: 1000 });
    const info = await conn.closed;
    expect(info).toMatchObject({ by: "kit", cause: "limit: a message over 1000 bytes (the kit's cap), not read" });
    expect(cutByKit(info)).toBe(info.cause);
    expect(conn.stopped).toBe(info.cause);
    expect(events.filter((e) => e.kind === "ws-frame")).toEqual([]);
  });

  it("a message in more fragments than the WebSocket library keeps: the kit's limit, not the server's close", async () => {
    // 16,385 one-byte fragments: legal on the wire, one over the parts `ws` keeps of a message.
    const s = await wsServer((ws) => {
      rawOf(ws).cork();
      for (let i = 0; i < 16_384; i++) ws.send("a", { fin: false });
      ws.send("a", { fin: true });
      process.nextTick(() => rawOf(ws).uncork());
    });
    const { bus } = record();
    const conn = await connect(bus, `${s.url}/ws`);
    const info = await conn.closed;
    expect(info.by).toBe("kit");
    expect(info.cause).toMatch(/^limit: a message in too many parts \(too many message fragments: the WebSocket library's cap\), not read$/);
    expect(conn.stopped).toBe(info.cause);
  });

  it("a burst of pings in one read is answered, and the connection stays open (ws alone drops it after 60)", async () => {
    const s = await wsServer((ws) => {
      rawOf(ws).cork();
      for (let i = 0; i < 100; i++) ws.ping();
      ws.send(JSON.stringify({ type: "after" }));
      process.nextTick(() => rawOf(ws).uncork());
    });
    const { bus, events } = record();
    const conn = await connect(bus, `${s.url}/ws`);
    expect(await conn.until(isAfter, 2000, { fromSeq: conn.openSeq })).toBeDefined();
    expect(conn.isOpen).toBe(true);
    expect(events.some((e) => e.kind === "ws-close")).toBe(false);
  });

  it("a server that pings without reading the pongs: cut by the kit at its bound on unread pongs, as a limit", async () => {
    const s = await wsServer((ws) => {
      ws.on("error", () => undefined);
      // It never reads again: the kit's pongs pile up in the socket.
      rawOf(ws).pause();
      const payload = Buffer.alloc(125, 0x70);
      const pingMore = () => {
        if (ws.readyState !== ws.OPEN) return;
        for (let i = 0; i < 500; i++) ws.ping(payload);
        setImmediate(pingMore);
      };
      pingMore();
    });
    const { bus } = record();
    const conn = await connect(bus, `${s.url}/ws`);
    const info = await conn.closed;
    expect(info.by).toBe("kit");
    expect(info.cause).toMatch(/^limit: the server went on pinging while \d+ bytes of the kit's pongs and messages waited unread \(the kit's cap is 1048576\)$/);
    expect(cutByKit(info)).toBe(info.cause);
    expect(conn.stopped).toBe(info.cause);
  }, 20_000);

  it("a frame the protocol forbids is still the server's doing: its close is the server's, with the error as cause", async () => {
    // RSV2 and RSV3 set with no extension that defines them.
    const s = await wsServer((ws) => rawOf(ws).write(Buffer.from([0xb1, 0x01, 0x61])));
    const { bus } = record();
    const conn = await connect(bus, `${s.url}/ws`);
    const info = await conn.closed;
    expect(info.by).toBe("server");
    expect(info.cause).toMatch(/RSV2 and RSV3 must be clear/);
    expect(cutByKit(info)).toBeUndefined();
    expect(conn.stopped).toBeUndefined();
  });

  it("the kit's close when it is done, and the server's close, are no cut", () => {
    expect(cutByKit({ by: "kit" })).toBeUndefined();
    expect(cutByKit({ by: "kit", cause: "close-timeout" })).toBeUndefined();
    expect(cutByKit({ by: "server", cause: "limit" })).toBeUndefined();
    expect(cutByKit({ by: "kit", cause: "limit" })).toBe("limit");
  });
});

describe("a probe's listener or waiter that throws", () => {
  const debugLines = async (debug: boolean, run: () => Promise<void>): Promise<string[]> => {
    const before = process.env.AGENTWIRE_DEBUG;
    if (debug) process.env.AGENTWIRE_DEBUG = "1";
    else delete process.env.AGENTWIRE_DEBUG;
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      await run();
    } finally {
      spy.mockRestore();
      if (before === undefined) delete process.env.AGENTWIRE_DEBUG;
      else process.env.AGENTWIRE_DEBUG = before;
    }
    return lines.filter((l) => l.includes("WebSocket"));
  };

  const throwing = async () => {
    const s = await wsServer((ws) =>
      ws.on("message", () => {
        ws.send(JSON.stringify({ result: null }));
        ws.send(JSON.stringify({ type: "after" }));
      }),
    );
    const conn = await connect(record().bus, `${s.url}/ws`);
    conn.onMessage((m) => void (m.json as { result: { type: string } }).result.type);
    const waited = conn.until((m) => (m.json as { result: { type: string } }).result.type === "x", 300);
    const after = conn.until(isAfter, 2000);
    conn.send({ go: true });
    await after;
    await waited;
  };

  it("under AGENTWIRE_DEBUG: one line to stderr for each, naming the message and the error", async () => {
    const lines = await debugLines(true, throwing);
    expect(lines.some((l) => /^agentwire: a WebSocket listener threw on w\d+'s message at seq \d+: TypeError: .*type.* \(at .*ws-exchange\.test\.ts:\d+:\d+\)\n$/.test(l)), lines.join("")).toBe(true);
    expect(lines.some((l) => /^agentwire: a WebSocket waiter threw on w\d+'s message at seq \d+: TypeError: /.test(l)), lines.join("")).toBe(true);
    for (const l of lines) expect(l.split("\n")).toHaveLength(2);
  });

  it("without it: nothing on stderr", async () => {
    expect(await debugLines(false, throwing)).toEqual([]);
  });
});
