import { describe, expect, it } from "vitest";
import { TranscriptBus, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { chat, connect, engine, req, ORIGIN } from "./helpers.js";

function recorded() {
  const bus = new TranscriptBus();
  const events: TranscriptEvent[] = [];
  bus.subscribe((e) => events.push(e));
  return { bus, events };
}

describe("mcp-chat client recording", () => {
  it("records every request with the state before it, and the response head", async () => {
    const { bus, events } = recorded();
    const e = engine({ bus });
    await chat(e, "hi", { headers: { "content-type": "application/json", origin: ORIGIN } });
    await connect(e, "weather");
    await chat(e, "hello");
    await e.handle(req("/status", { method: "OPTIONS", headers: { origin: ORIGIN, "access-control-request-method": "GET" } }));
    await e.handle(req("/elsewhere"));

    const requests = events.filter((x) => x.kind === "http-request");
    const responses = events.filter((x) => x.kind === "http-response");
    expect(requests.map((r) => [r.exchange, r.label])).toEqual([
      ["c1", "chat-stream"],
      ["c2", "connect"],
      ["c3", "chat-stream"],
      ["c4", "preflight"],
      ["c5", "unknown"],
    ]);
    expect(responses.map((r) => [r.exchange, r.status])).toEqual([
      ["c1", 200],
      ["c2", 200],
      ["c3", 200],
      ["c4", 204],
      ["c5", 404],
    ]);
    const [first, conn, second] = requests;
    expect(first).toMatchObject({
      probe: "client",
      method: "POST",
      path: "/chat/stream",
      body: '{"message":"hi"}',
      headers: { "content-type": "application/json", origin: ORIGIN },
      meta: {
        connected: false,
        connectedId: null,
        listedIds: ["weather", "server-id-1"],
        scenario: "not-connected",
        framing: "canonical",
      },
    });
    expect(conn?.meta).toMatchObject({ connected: false });
    expect(second?.meta).toMatchObject({ connected: true, connectedId: "weather", scenario: "weather-tool" });
    const firstResponse = responses[0];
    expect(firstResponse?.kind === "http-response" && firstResponse.headers["content-type"]).toBe(
      "text/event-stream; charset=utf-8",
    );
  });

  it("routes() is consulted first and is not recorded", async () => {
    const { bus, events } = recorded();
    const e = engine({
      bus,
      routes: async (r) => (new URL(r.url).pathname === "/__agentwire/ping" ? new Response("pong") : undefined),
    });
    expect(await (await e.handle(req("/__agentwire/ping"))).text()).toBe("pong");
    expect((await e.handle(req("/servers"))).status).toBe(200);
    expect(events.filter((x) => x.kind === "http-request").map((x) => x.kind === "http-request" && x.path)).toEqual([
      "/servers",
    ]);
  });

  it("notes when a held stream's [DONE] went out, and who ended the body; a stream not held gets no notes", async () => {
    const afterDone = (events: TranscriptEvent[]) => events.flatMap((x) => (x.kind === "note" && x.name === "mcp-chat/after-done" ? [x.value] : []));
    // The client lets go at [DONE]: it cancels the body while the mock still holds it.
    const { bus, events } = recorded();
    const e = engine({ bus, timeScale: 0.01 });
    await connect(e);
    const res = await e.handle(req("/chat/stream?framing=open-after-done", { method: "POST", json: { message: "hi" } }));
    const reader = res.body!.getReader();
    for (let text = ""; !text.includes("[DONE]"); ) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(afterDone(events)).toEqual([
      { exchange: "c2", event: "done" },
      { exchange: "c2", event: "closed", by: "client" },
    ]);
    // The client reads to the end: the mock ends the body after its hold (300 ms at this scale).
    const held = recorded();
    const e2 = engine({ bus: held.bus, timeScale: 0.01 });
    await connect(e2);
    await chat(e2, "hi", {}, "/chat/stream?framing=open-after-done");
    expect(afterDone(held.events)).toEqual([
      { exchange: "c2", event: "done" },
      { exchange: "c2", event: "closed", by: "server" },
    ]);
    await chat(e2, "hi");
    expect(afterDone(held.events)).toHaveLength(2);
  });

  it("reset() disconnects", async () => {
    const e = engine();
    await connect(e);
    e.reset();
    expect(e.state.connectedId).toBeNull();
  });
});
