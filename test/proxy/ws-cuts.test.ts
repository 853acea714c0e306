/**
 * The relay's own cuts: a message over the proxy's cap (refused from its header) or in more parts than `ws` keeps, from
 * either side, and the proxy's stop, end a connection by the kit's doing. The transcript and both judges record them as
 * the kit's close, so no check blames the target or the client for what the proxy did not relay.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import type net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { cutByKit } from "../../src/core/transport/ws-limits.js";
import type { TranscriptEvent } from "../../src/core/transcript/transcript.js";
import type { CheckResult } from "../../src/core/verdicts/result.js";
import { startProxy, type ProxyResult } from "../../src/proxy/index.js";
import { asClientEvent, ClientNames } from "../../src/proxy/judge.js";
import { piWeb } from "../../src/suites/pi-web/index.js";
import { hostileWs } from "../helpers/hostile-ws.js";
import { quickMock } from "../helpers/quick-pacing.js";
import { frameHead, relayWs } from "../helpers/ws-relay.js";
import { example, failed, runNode } from "./harness.js";

type Close = Extract<TranscriptEvent, { kind: "ws-close" }>;

/** The proxy's message cap. */
const CAP = 100 * 1024 * 1024;
const QUICK = { params: { ...(piWeb.selfTest?.params ?? {}) } };

const closesOf = (r: ProxyResult): Close[] =>
  readFileSync(r.server!.transcript!, "utf8")
    .split("\n")
    .slice(1)
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TranscriptEvent)
    .filter((e): e is Close => e.kind === "ws-close");

const byId = (checks: CheckResult[], id: string): CheckResult => checks.find((c) => c.id === id)!;
const rawOf = (ws: WebSocket): net.Socket => (ws as unknown as { _socket: net.Socket })._socket;
const transcriptDir = () => mkdtempSync(join(tmpdir(), "agentwire-proxy-cut-"));

/**
 * A pi-web target that answers a prompt with a success and then, instead of its run, does `after` (nothing: the run
 * never starts).
 */
async function promptTarget(after: (ws: import("ws").WebSocket) => void = () => undefined) {
  let messages = 0;
  const h = await hostileWs((ws) =>
    ws.on("message", (d) => {
      messages++;
      const m = JSON.parse(String(d)) as { type?: string; id?: string };
      if (m.type !== "prompt") return;
      ws.send(JSON.stringify({ type: "response", command: "prompt", id: m.id, success: true }));
      after(ws);
    }),
  );
  return {
    url: h.url,
    close: h.close,
    /** The messages the target got. */
    get messages() {
      return messages;
    },
  };
}

/** Opens a client through the proxy, sends a prompt and waits for its answer. */
async function prompted(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  ws.on("error", () => undefined);
  await new Promise((r) => ws.once("open", r));
  const answered = new Promise((r) => ws.once("message", r));
  ws.send(JSON.stringify({ type: "prompt", message: "hello", id: "p1" }));
  await answered;
  return ws;
}

describe.concurrent("the WebSocket relay's own cuts are the kit's", () => {
  it("pi-web: the target's message over the proxy's cap is the kit's cut; the prompt it answered is unjudged, and nothing fails", async () => {
    const mock = await piWeb.startMock({ host: "127.0.0.1", port: 0, ...quickMock("pi-web") });
    let sent = false;
    // The relay in front of the mock promises a message one byte over the cap in place of the first agent_start.
    const relay = await relayWs(mock.url, (data) => {
      if (sent || !data.toString("utf8", 0, 200).includes('"type":"agent_start"')) return undefined;
      sent = true;
      return { raw: frameHead(CAP + 1) };
    });
    const proxy = await startProxy({ protocol: "pi-web", target: `${relay.url.replace(/^http/, "ws")}/ws`, saveTranscript: transcriptDir(), ...QUICK });
    let result: ProxyResult;
    try {
      await runNode(example("pi-web-client.mjs"), ["--no-shutdown", "--step-timeout", "2000", "--url", proxy.url, "--origin", mock.url], { AGENTWIRE_URL: "", PI_WEB_URL: "" });
    } finally {
      result = await proxy.close();
      await relay.close();
      await mock.close();
    }
    const cause = `limit: a message over ${CAP} bytes (the kit's cap) from the target, not relayed`;
    expect(closesOf(result)).toMatchObject([{ by: "kit", cause }]);
    expect(failed(result.server!.checks)).toEqual([]);
    expect(failed(result.client!.checks)).toEqual([]);
    const accepted = byId(result.server!.checks, "pi-web/cmd/prompt-accepted");
    expect(accepted.verdict).toBe("incomplete");
    expect(accepted.message).toContain(`the kit stopped reading main before an agent_start (${cause})`);
  }, 60_000);

  it("the client's message over the proxy's cap: the kit's cut, nothing of it sent on; the prompt it cut off is unjudged", async () => {
    const target = await promptTarget();
    const proxy = await startProxy({ protocol: "pi-web", target: `${target.url.replace(/^http/, "ws")}/ws`, saveTranscript: transcriptDir(), ...QUICK });
    const ws = await prompted(proxy.url);
    const code = new Promise<number>((r) => ws.once("close", (c) => r(c)));
    // A masked text frame's head that promises a payload one byte over the cap.
    const head = frameHead(CAP + 1);
    head[1] = 0x80 | 127;
    rawOf(ws).write(Buffer.concat([head, Buffer.from([1, 2, 3, 4])]));
    expect([1009, 1006]).toContain(await code);
    const result = await proxy.close();
    await target.close();
    const cause = `limit: a message over ${CAP} bytes (the kit's cap) from the client, not relayed`;
    expect(closesOf(result)).toMatchObject([{ by: "kit", cause }]);
    expect(target.messages).toBe(1);
    expect(failed(result.server!.checks)).toEqual([]);
    expect(byId(result.server!.checks, "pi-web/cmd/prompt-accepted").message).toContain(`the kit stopped reading main before an agent_start (${cause})`);
  });

  it("the target's message in more fragments than ws keeps: the kit's cut; the client is closed with 1011 and the reason", async () => {
    const target = await promptTarget((ws) => {
      // 16,385 one-byte fragments: legal on the wire, one over the parts `ws` keeps of a message.
      const raw = (ws as unknown as { _socket: net.Socket })._socket;
      raw.cork();
      for (let i = 0; i < 16_384; i++) ws.send("a", { fin: false });
      ws.send("a", { fin: true });
      process.nextTick(() => raw.uncork());
    });
    const proxy = await startProxy({ protocol: "pi-web", target: `${target.url.replace(/^http/, "ws")}/ws`, saveTranscript: transcriptDir(), ...QUICK });
    const ws = await prompted(proxy.url);
    const [code, reason] = await new Promise<[number, string]>((r) => ws.once("close", (c, why) => r([c, String(why)])));
    const result = await proxy.close();
    await target.close();
    expect([code, reason]).toEqual([1011, "agentwire proxy: a message past its limits, not relayed"]);
    const [close] = closesOf(result);
    expect(close).toMatchObject({ by: "kit" });
    expect(close!.cause).toBe("limit: a message in too many parts (too many message fragments: the WebSocket library's cap) from the target, not relayed");
    expect(failed(result.server!.checks)).toEqual([]);
    expect(byId(result.server!.checks, "pi-web/cmd/prompt-accepted").verdict).toBe("incomplete");
  });

  it("the proxy's stop: the connections it cuts are the kit's, whichever side's close comes first", async () => {
    const target = await promptTarget();
    const proxy = await startProxy({ protocol: "pi-web", target: `${target.url.replace(/^http/, "ws")}/ws`, saveTranscript: transcriptDir(), ...QUICK });
    const clients = await Promise.all([prompted(proxy.url), prompted(proxy.url)]);
    const result = await proxy.close();
    await target.close();
    for (const ws of clients) ws.terminate();
    expect(closesOf(result).map((c) => [c.by, c.cause])).toEqual([
      ["kit", "the proxy stopped"],
      ["kit", "the proxy stopped"],
    ]);
  });

  it("the client view: the relay's own closes stay the kit's (the mock's); only the client's close is the client's", () => {
    const names = new ClientNames();
    const close = (by: "kit" | "server", cause?: string): Close => ({ kind: "ws-close", probe: "proxy", connection: "w1", code: 1006, by, ...(cause ? { cause } : {}), seq: 1, t: 1 });
    const seen = (ev: Close) => asClientEvent(ev, names) as Close;
    const cut = seen(close("kit", `limit: a message over ${CAP} bytes (the kit's cap) from the client, not relayed`));
    expect(cut.by).toBe("kit");
    expect(cutByKit(cut)).toBe(`limit: a message over ${CAP} bytes (the kit's cap) from the client, not relayed`);
    expect(seen(close("kit", "the proxy stopped")).by).toBe("kit");
    expect(seen(close("server")).by).toBe("kit");
    expect(seen(close("kit", "the client closed it")).by).toBe("client");
  });
});
