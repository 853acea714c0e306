import { afterEach, describe, expect, it } from "vitest";
import { MockOptionError } from "../../../src/core/run/protocol.js";
import { startContinueRemoteMock, type RunningContinueRemoteMock } from "../../../src/mocks/continue-remote/server.js";
import { expectValid } from "./helpers.js";

const running: RunningContinueRemoteMock[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((m) => m.close()));
});

async function start(options: Parameters<typeof startContinueRemoteMock>[0]): Promise<RunningContinueRemoteMock> {
  const m = await startContinueRemoteMock({ port: 0, ...options });
  running.push(m);
  return m;
}

describe("startContinueRemoteMock", () => {
  it("serves on 127.0.0.1 with an ephemeral port; a turn runs over HTTP", async () => {
    const m = await start({ settings: { clock: "poll" } });
    expect(m.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const post = await fetch(`${m.url}/message`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "#scenario:chat hello" }),
    });
    expect(post.status).toBe(200);
    expect(post.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await post.json()).toEqual({ queued: true, position: 1 });
    let body: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) {
      body = (await (await fetch(`${m.url}/state`)).json()) as Record<string, unknown>;
      expectValid("state-response", body, "seed");
      if (!body.isProcessing) break;
    }
    expect(body.isProcessing).toBe(false);
    expect((body.chatHistory as unknown[]).length).toBe(2);
  });

  it("answers a body over the limit with 413 JSON {error}, before the engine sees it", async () => {
    const m = await start({ bodyLimit: 1000 });
    const r = await fetch(`${m.url}/message`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "x".repeat(2000) }),
    });
    expect(r.status).toBe(413);
    expectValid("error-response", await r.json(), "seed");
    const s = (await (await fetch(`${m.url}/state`)).json()) as { chatHistory: unknown[] };
    expect(s.chatHistory).toEqual([]);
  });

  it("closes after /exit: the answer comes first, then connections are refused", async () => {
    const m = await start({ exitDelayMs: 10 });
    const r = await fetch(`${m.url}/exit`, { method: "POST" });
    expect(await r.json()).toEqual({ message: "Server shutting down", success: true });
    await m.closed;
    await expect(fetch(`${m.url}/state`)).rejects.toThrow();
  });

  it("refuses bad settings and unknown scenarios before opening a port", async () => {
    await expect(startContinueRemoteMock({ port: 0, settings: { clock: "sundial" } })).rejects.toThrow(MockOptionError);
    await expect(startContinueRemoteMock({ port: 0, settings: { nope: 1 } })).rejects.toThrow(/unknown setting "nope"/);
    await expect(startContinueRemoteMock({ port: 0, defaultScenario: "nope" })).rejects.toThrow(MockOptionError);
    await expect(startContinueRemoteMock({ port: 0, scenarios: ["chat", "nope"] })).rejects.toThrow(/unknown scenario "nope"/);
  });

  it("serves the cn-session profile, /pause included", async () => {
    const m = await start({ profile: "cn-session" });
    const s = await (await fetch(`${m.url}/state`)).json();
    expectValid("state-response", s, "cn-session");
    const p = await fetch(`${m.url}/pause/`, { method: "POST" });
    expect(await p.json()).toEqual({ success: false, message: "No active processing to pause" });
  });
});

describe("continue-remote mock options", () => {
  it("names a wrong programmatic option", async () => {
    const { createContinueRemoteEngine } = await import("../../../src/mocks/continue-remote/engine.js");
    expect(() => createContinueRemoteEngine({ thinkMs: -1 })).toThrow(/thinkMs must be a number >= 0/);
    expect(() => createContinueRemoteEngine({ chunkChars: 0 })).toThrow(/chunkChars must be an integer >= 1/);
    expect(() => createContinueRemoteEngine({ clock: "sundial" as never })).toThrow(/clock must be one of time, poll, manual/);
  });

  it("ackDelayMs and stateDelayMs delay the answers", async () => {
    const m = await start({ ackDelayMs: 80, stateDelayMs: 80, clock: "manual" });
    let t = Date.now();
    await fetch(`${m.url}/message`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "#scenario:chat" }),
    });
    expect(Date.now() - t).toBeGreaterThanOrEqual(70);
    t = Date.now();
    await (await fetch(`${m.url}/state`)).json();
    expect(Date.now() - t).toBeGreaterThanOrEqual(70);
  });
});

describe("continue-remote mock: idleTimeoutS", () => {
  it("closes an idle server once no request came for that long, but never while busy", async () => {
    const m = await start({ idleTimeoutS: 0.15, clock: "manual" });
    await fetch(`${m.url}/message`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "#scenario:chat" }),
    });
    // Busy (the manual clock holds the turn): no exit however long it is quiet.
    await new Promise((r) => setTimeout(r, 400));
    expect(m.engine.exited).toBe(false);
    while (m.engine.machine.step());
    await m.closed;
    expect(m.engine.exited).toBe(true);
    await expect(fetch(`${m.url}/state`)).rejects.toThrow();
  });
});
