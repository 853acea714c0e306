import { describe, expect, it } from "vitest";
import { TranscriptBus, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { createPiWebEngine, type PiWebTransport } from "../../../src/mocks/pi-web/index.js";
import { Client, mock, rawUpgrade, sleep } from "./helpers.js";
import { clientFrameHead } from "../../helpers/ws-relay.js";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import { cutByKit } from "../../../src/core/transport/ws-limits.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import { PI_WEB_MAX_PAYLOAD } from "../../../src/mocks/pi-web/server.js";
import { PI_WEB_CLIENT_CHECKS } from "../../../src/suites/pi-web/client/index.js";

function recorded() {
  const bus = new TranscriptBus();
  const events: TranscriptEvent[] = [];
  bus.subscribe((e) => events.push(e));
  return { bus, events };
}

/** A transport double: what the engine sent, and how it closed. */
function fakeTransport() {
  const sent: (string | Uint8Array)[] = [];
  const closed: [number, string][] = [];
  const transport: PiWebTransport = { send: (d) => void sent.push(d), close: (code, reason) => void closed.push([code, reason]) };
  return { transport, sent, closed };
}

describe("pi-web client recording (probe client)", () => {
  it("records upgrades (accepted and refused), ws-open, frames both ways and ws-close", async () => {
    const { bus, events } = recorded();
    const m = await mock({ bus, token: "t" });
    try {
      await rawUpgrade(m.url, "/other?token=t", { Origin: m.origin });
      await rawUpgrade(m.url, "/ws?token=t", { Origin: "http://evil.example" });
      const c = await Client.open(`${m.ws}/ws?token=t`);
      c.send({ type: "get_state", id: "s1" });
      await c.waitFor((x) => x.id === "s1");
      c.socket.send(Buffer.from('{"type":"abort","id":"b1"}'), { binary: true });
      await c.waitFor((x) => x.id === "b1");
      c.close();
      // The mock records the close when its socket ends, which on a loaded machine may take longer than a moment.
      for (let i = 0; i < 200 && !events.some((e) => e.kind === "ws-close"); i++) await sleep(10);
      const client = events.filter((e) => e.probe === "client");
      const upgrades = client.filter((e) => e.kind === "http-request");
      expect(upgrades.map((e) => e.kind === "http-request" && [e.label, e.path, e.headers.origin])).toEqual([
        ["ws-upgrade", "/other?token=t", m.origin],
        ["ws-upgrade", "/ws?token=t", "http://evil.example"],
        ["ws-upgrade", "/ws?token=t", m.origin],
      ]);
      expect(client.filter((e) => e.kind === "http-response").map((e) => e.kind === "http-response" && e.status)).toEqual([404, 403, 101]);
      const rest = client.filter((e) => e.kind.startsWith("ws-"));
      expect(rest.map((e) => (e.kind === "ws-frame" ? `${e.kind}:${e.direction}:${e.binary}` : e.kind))).toEqual([
        "ws-open",
        "ws-frame:in:false",
        "ws-frame:out:false",
        "ws-frame:in:true",
        "ws-frame:out:false",
        "ws-close",
      ]);
      const [open, , , binary, , close] = rest;
      expect(open).toMatchObject({ connection: "c1", url: `ws://${new URL(m.url).host}/ws?token=t`, headers: { origin: m.origin } });
      expect(binary).toMatchObject({ data: Buffer.from('{"type":"abort","id":"b1"}').toString("base64") });
      expect(close).toMatchObject({ connection: "c1", code: 1005 });
    } finally {
      await m.close();
    }
  });

  it("the engine runs on any transport: a test double sees the conversation; drops and closes", async () => {
    const { bus, events } = recorded();
    const engine = createPiWebEngine({ bus, firstDelay: 0, chunkDelay: 0, originCheck: false });
    expect(engine.upgrade({ url: "/ws" })).toEqual({ ok: true, status: 101 });
    expect(engine.upgrade({ url: "/nope" })).toMatchObject({ ok: false, status: 404, statusText: "Not Found" });
    const a = fakeTransport();
    const conn = engine.connect(a.transport, { url: "/ws" });
    conn.onMessage(JSON.stringify({ type: "prompt", id: "p", message: "hi" }));
    for (let i = 0; i < 50 && !a.sent.some((s) => String(s).includes("agent_end")); i++) await sleep(5);
    const types = a.sent.map((s) => JSON.parse(String(s)).type);
    expect(types[0]).toBe("response");
    expect(types.at(-1)).toBe("agent_end");
    expect(engine.state()).toMatchObject({ clients: 1, busy: false, messageCount: 2 });
    expect(engine.http("GET", "/health")).toMatchObject({ status: 200, body: '{"status":"ok","clients":1}' });
    conn.onMessage("{broken");
    conn.onClose(1000, "bye");
    expect(engine.state().clients).toBe(0);
    const b = fakeTransport();
    engine.connect(b.transport, { url: "/ws" });
    engine.shutdown();
    expect(b.closed).toEqual([[1001, "server shutting down"]]);
    const frames = events.filter((e) => e.kind === "ws-frame");
    expect(frames.filter((e) => e.kind === "ws-frame" && e.direction === "in").map((e) => e.kind === "ws-frame" && e.data)).toEqual([
      '{"type":"prompt","id":"p","message":"hi"}',
      "{broken",
    ]);
    expect(events.filter((e) => e.kind === "ws-close")).toMatchObject([{ connection: "c1", code: 1000, reason: "bye" }]);
    engine.dispose();
  });

  it("same seed, same ids: two engines hand out the same session ids", () => {
    const a = createPiWebEngine({ seed: 7 });
    const b = createPiWebEngine({ seed: 7 });
    const c = createPiWebEngine({ seed: 8 });
    expect(a.state().sessionId).toBe(b.state().sessionId);
    expect(a.state().sessionId).not.toBe(c.state().sessionId);
  });
});

describe("pi-web mock: a cut at its own cap is the kit's close", () => {
  /** Writes `bytes` straight onto the client's socket, under its WebSocket. */
  const rawWrite = (c: Client, bytes: Buffer) => (c.socket as unknown as { _socket: { write(b: Buffer): void } })._socket.write(bytes);

  const judge = (events: TranscriptEvent[]) => {
    const ctx = { protocol: "pi-web", profile: DEFAULT_PROFILE, params: {}, validate: (s: string, v: unknown) => registry.validate("pi-web", s, v) };
    const evaluation = new Evaluation(PI_WEB_CLIENT_CHECKS, ctx);
    for (const e of events) evaluation.observe(e);
    return evaluation.finish();
  };

  it("a message over the mock's cap: the close is recorded as the kit's cut, and no client check fails for it", async () => {
    const { bus, events } = recorded();
    const m = await mock({ bus });
    try {
      const c = await Client.open(`${m.ws}/ws`);
      c.send({ type: "get_state", id: "s1" });
      await c.waitFor((x) => x.id === "s1");
      // One frame that says it is a byte longer than the cap: `ws` refuses it from its head.
      rawWrite(c, clientFrameHead(PI_WEB_MAX_PAYLOAD + 1));
      await c.waitClosed();
      for (let i = 0; i < 100 && !events.some((e) => e.kind === "ws-close"); i++) await sleep(10);
    } finally {
      await m.close();
    }
    const close = events.find((e) => e.kind === "ws-close");
    expect(close).toMatchObject({ probe: "client", connection: "c1", by: "kit" });
    expect(cutByKit(close as { by?: string; cause?: string })).toBe(`limit: a message over ${PI_WEB_MAX_PAYLOAD} bytes (the kit's cap), from the client, not read`);
    const failed = judge(events).filter((r) => r.outcome === "fail");
    expect(failed.map((r) => `${r.id}: ${r.message}`)).toEqual([]);
  });

  it("a frame the protocol forbids (unmasked) stays the client's close", async () => {
    const { bus, events } = recorded();
    const m = await mock({ bus });
    try {
      const c = await Client.open(`${m.ws}/ws`);
      rawWrite(c, Buffer.from([0x81, 0x02, 0x7b, 0x7d]));
      await c.waitClosed();
      for (let i = 0; i < 100 && !events.some((e) => e.kind === "ws-close"); i++) await sleep(10);
    } finally {
      await m.close();
    }
    const close = events.find((e) => e.kind === "ws-close") as { by?: string; cause?: string } | undefined;
    expect(close).toBeDefined();
    expect(close!.by).toBeUndefined();
    expect(cutByKit(close)).toBeUndefined();
  });
});
