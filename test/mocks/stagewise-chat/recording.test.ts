/** The stagewise-chat mock records the toolbar's traffic on the run's bus (probe "client") for the client checks. */
import { describe, expect, it } from "vitest";
import { TranscriptBus, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { following, quickMock, Raw } from "./helpers.js";

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
      await new Promise((r) => setTimeout(r, 50));
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

});
