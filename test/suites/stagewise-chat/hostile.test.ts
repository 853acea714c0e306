/** Targets that do not play along end in verdicts within the waits, never a hang: a silent agent, a mutation never answered. */
import { describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import { stagewiseChat } from "../../../src/suites/stagewise-chat/index.js";
import { runAgainst } from "../../helpers/hostile-servers.js";
import { hostileWs, routes, type HostileWs } from "../../helpers/hostile-ws.js";
import { byId, serverSide } from "../../helpers/run-results.js";

/** Discovery and an upgrade; every frame goes to `onFrame`. */
const fakeAgent = (onFrame: (ws: WebSocket, data: string) => void): Promise<HostileWs> =>
  hostileWs((ws) => ws.on("message", (d) => onFrame(ws, d.toString())), { routes: routes.stagewise, path: "/stagewise/ws" });

/** A frame as JSON, or {} (PING and bad input are not these agents' concern). */
function parse(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return {};
  }
}

describe.concurrent("stagewise-chat against hostile agents", () => {
  it("stops early when the agent never answers a subscription", async () => {
    const agent = await fakeAgent(() => {});
    const { r, ms } = await runAgainst(stagewiseChat, agent, { timeout: 3_000, params: { slow: false } });
    expect(ms).toBeLessThan(15_000);
    const checks = serverSide(r);
    expect(byId(checks, "stagewise-chat/wire/info-shape").verdict).toBe("pass");
    const sync = byId(checks, "stagewise-chat/chat/snapshot-equals-reduced");
    expect(sync.verdict).toBe("incomplete");
    expect(sync.message).toMatch(/the probes stopped early: the agent answered no subscription/);
  });

  it("fails the mutations an agent leaves unanswered, and gives up after three", async () => {
    // Subscriptions get a snapshot; mutations are swallowed.
    const agent = await fakeAgent((ws, data) => {
      let msg: { id?: unknown; method?: string; params?: { path?: string } };
      try {
        msg = JSON.parse(data);
      } catch {
        return;
      }
      if (msg.method !== "subscription") return;
      const send = (v: unknown) => ws.send(JSON.stringify(v));
      send({ id: msg.id, result: { type: "started" } });
      if (msg.params?.path !== "chat.getChatUpdates") return;
      const tracked = (data: unknown) => send({ id: msg.id, result: { type: "data", id: "0", data: { json: { id: "0", data } } } });
      tracked({ type: "chat-list", chats: [] });
      tracked({ type: "agent-state", isWorking: false });
    });
    const { r, ms } = await runAgainst(stagewiseChat, agent, { timeout: 1_000, params: { slow: false } });
    expect(ms).toBeLessThan(20_000);
    const checks = serverSide(r);
    const answered = byId(checks, "stagewise-chat/trpc/mutation-answered");
    expect(answered.verdict).toBe("fail");
    expect(answered.message).toMatch(/no answer within 1000 ms/);
    expect(byId(checks, "stagewise-chat/chat/create-chat").message).toMatch(/the probes stopped early: 3 mutations in a row got no answer/);
  });

  it("judges an agent that closes mid-snapshot and one that breaks superjson, within the waits", async () => {
    const closing = await fakeAgent((ws, data) => {
      const msg = parse(data) as { id?: unknown; method?: string; params?: { path?: string } };
      if (msg.method !== "subscription" || msg.params?.path !== "chat.getChatUpdates") return;
      ws.send(JSON.stringify({ id: msg.id, result: { type: "started" } }));
      ws.send(JSON.stringify({ id: msg.id, result: { type: "data", id: "0", data: { json: { id: "0", data: { type: "chat-list", chats: [] } } } } }));
      ws.close();
    });
    const raw = await fakeAgent((ws, data) => {
      const msg = parse(data) as { id?: unknown; method?: string };
      if (msg.method === "subscription") {
        ws.send(JSON.stringify({ id: msg.id, result: { type: "started" } }));
        // The update itself, not {json, meta}.
        ws.send(JSON.stringify({ id: msg.id, result: { type: "data", id: "0", data: { type: "chat-list", chats: [] } } }));
      }
    });
    const t0 = performance.now();
    const [a, b] = await Promise.all([
      runAgainst(stagewiseChat, closing, { timeout: 1_000, params: { slow: false } }),
      runAgainst(stagewiseChat, raw, { timeout: 1_000, params: { slow: false } }),
    ]);
    expect(performance.now() - t0).toBeLessThan(20_000);
    const every = byId(serverSide(a.r), "stagewise-chat/chat/snapshot-every-subscribe");
    expect(every.verdict).toBe("fail");
    expect(every.message).toMatch(/the connection closed before a snapshot|no snapshot/);
    const envelope = byId(serverSide(b.r), "stagewise-chat/trpc/response-envelope");
    expect(envelope.verdict).toBe("fail");
    // A subscription that started and then lost its connection proves nothing about staying open.
    const open = byId(serverSide(a.r), "stagewise-chat/trpc/subscription-stays-open");
    expect([open.verdict, open.message]).toEqual(["incomplete", expect.stringContaining("was still open when the server closed the connection")]);
  });

  it("cuts an agent that floods updates, and ends in verdicts", async () => {
    const agent = await fakeAgent((ws, data) => {
      const msg = parse(data) as { id?: unknown; method?: string; params?: { path?: string } };
      if (msg.method !== "subscription" || msg.params?.path !== "chat.getChatUpdates") return;
      const tracked = (seq: number, update: unknown) =>
        JSON.stringify({ id: msg.id, result: { type: "data", id: String(seq), data: { json: { id: String(seq), data: update } } } });
      ws.send(JSON.stringify({ id: msg.id, result: { type: "started" } }));
      ws.send(tracked(0, { type: "chat-list", chats: [] }));
      ws.send(tracked(0, { type: "agent-state", isWorking: false }));
      let seq = 0;
      const flood = () => {
        if (ws.readyState !== ws.OPEN) return;
        for (let i = 0; i < 2_000; i++) ws.send(tracked(++seq, { type: "agent-state", isWorking: seq % 2 === 1 }));
        setImmediate(flood);
      };
      flood();
    });
    const { r, ms } = await runAgainst(stagewiseChat, agent, { timeout: 2_000, params: { slow: false } });
    expect(ms).toBeLessThan(30_000);
    const checks = serverSide(r);
    expect(byId(checks, "stagewise-chat/chat/seq-gap-free").verdict).toBe("pass");
    expect(checks.some((c) => /stopped early/.test(c.message))).toBe(true);
  });
});
