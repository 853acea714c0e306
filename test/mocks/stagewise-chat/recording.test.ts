/** The stagewise-chat mock records the toolbar's traffic on the run's bus (probe "client") for the client checks. */
import { describe, expect, it } from "vitest";
import { TranscriptBus, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { following, quickMock, Raw } from "./helpers.js";
import { clientFrameHead } from "../../helpers/ws-relay.js";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import { cutByKit } from "../../../src/core/transport/ws-limits.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import { MAX_FRAME_BYTES } from "../../../src/stagewise/adapter/server.js";
import { STAGEWISE_CHAT_CLIENT_CHECKS } from "../../../src/suites/stagewise-chat/client/index.js";

describe("stagewise-chat client recording (probe client)", () => {
  it("records discovery, ws-open, frames both ways (keep-alive included) and ws-close", async () => {
    const bus = new TranscriptBus();
    const events: TranscriptEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const mock = await quickMock({ bus });
    try {
      expect((await fetch(`${mock.url}/stagewise/info`)).status).toBe(200);
      const raw = await Raw.open(mock.wsUrl);
      await following(raw);
      raw.send("PONG");
      raw.close();
      // The mock records the close when its socket ends, which on a loaded machine may take longer than a moment.
      for (let i = 0; i < 200 && !events.some((e) => e.kind === "ws-close"); i++) await new Promise((r) => setTimeout(r, 10));
    } finally {
      await mock.close();
    }
    const client = events.filter((e) => e.probe === "client");
    const req = client.find((e) => e.kind === "http-request");
    expect(req && req.kind === "http-request" && [req.label, req.method, req.path]).toEqual(["discovery", "GET", "/stagewise/info"]);
    expect(client.find((e) => e.kind === "http-response")).toMatchObject({ status: 200, label: "discovery" });
    const ws = client.filter((e) => e.kind.startsWith("ws-"));
    expect(ws[0]).toMatchObject({ kind: "ws-open", connection: "c1" });
    expect(ws.at(-1)).toMatchObject({ kind: "ws-close", connection: "c1" });
    const frames = ws.filter((e) => e.kind === "ws-frame");
    const first = frames[0];
    expect(first?.kind === "ws-frame" && first.direction === "in" && JSON.parse(first.data)).toMatchObject({ method: "subscription", params: { path: "chat.getChatUpdates" } });
    expect(frames.some((e) => e.kind === "ws-frame" && e.direction === "out" && e.data.includes('"agent-state"'))).toBe(true);
    expect(frames.some((e) => e.kind === "ws-frame" && e.direction === "in" && e.data === "PONG")).toBe(true);
  });

  it("a message over the mock's cap: the close is recorded as the kit's cut, and no client check fails for it", async () => {
    const bus = new TranscriptBus();
    const events: TranscriptEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const mock = await quickMock({ bus });
    try {
      const raw = await Raw.open(mock.wsUrl);
      await following(raw);
      // One frame that says it is a byte longer than the cap: `ws` refuses it from its head.
      (raw.ws as unknown as { _socket: { write(b: Buffer): void } })._socket.write(clientFrameHead(MAX_FRAME_BYTES + 1));
      for (let i = 0; i < 200 && (raw.closed === null || !events.some((e) => e.kind === "ws-close")); i++) await new Promise((r) => setTimeout(r, 10));
    } finally {
      await mock.close();
    }
    const close = events.find((e) => e.kind === "ws-close" && e.probe === "client");
    expect(close).toMatchObject({ connection: "c1", by: "kit" });
    expect(cutByKit(close as { by?: string; cause?: string })).toBe(`limit: a message over ${MAX_FRAME_BYTES} bytes (the kit's cap), from the client, not read`);
    const evaluation = new Evaluation(STAGEWISE_CHAT_CLIENT_CHECKS, {
      protocol: "stagewise-chat",
      profile: DEFAULT_PROFILE,
      params: {},
      validate: (message, value) => registry.validate("stagewise-chat", message, value),
    });
    for (const e of events) evaluation.observe(e);
    expect(evaluation.finish().filter((r) => r.outcome === "fail").map((r) => `${r.id}: ${r.message}`)).toEqual([]);
  });
});
