/**
 * An agent that answers the chat subscription with a 100 MB frame: the kit's WebSocket client refuses the message at
 * its size cap from the frame's header (nothing of it buffered), says so, and the run ends in verdicts within the waits.
 */
import { describe, expect, it } from "vitest";
import { stagewiseChat } from "../../../src/suites/stagewise-chat/index.js";
import { runAgainst } from "../../helpers/hostile-servers.js";
import { hostileWs, routes } from "../../helpers/hostile-ws.js";
import { byId, serverSide } from "../../helpers/run-results.js";

const FRAME_BYTES = 100_000_000;

/** Discovery, availability and state as a real agent answers them; the chat snapshot as one 100 MB frame. */
async function bigFrameAgent(): Promise<{ url: string; sent: () => number; close(): Promise<void> }> {
  const head = Buffer.from('{"id":0,"result":{"type":"data","id":"0","data":{"json":{"id":"0","data":{"type":"chat-list","chats":[],"pad":"');
  const tail = Buffer.from('"}}}}}');
  const big = Buffer.alloc(FRAME_BYTES, 0x61);
  tail.copy(big, big.length - tail.length);
  let sent = 0;
  const agent = await hostileWs((ws) => {
    ws.on("error", () => {});
    ws.on("message", (d) => {
      let msg: { id?: number; method?: string; params?: { path?: string } } = {};
      try {
        msg = JSON.parse(d.toString());
      } catch {
        return;
      }
      if (msg.method !== "subscription") return;
      const send = (v: unknown) => ws.send(JSON.stringify(v));
      send({ id: msg.id, result: { type: "started" } });
      if (msg.params?.path === "availability.getAvailability") send({ id: msg.id, result: { type: "data", data: { json: { isAvailable: true } } } });
      if (msg.params?.path === "state.getState") send({ id: msg.id, result: { type: "data", data: { json: { state: "idle" } } } });
      if (msg.params?.path !== "chat.getChatUpdates") return;
      // The request's id in the head's place: `{"id":N` padded with spaces to the head's length keeps it valid JSON.
      const frame = Buffer.from(big);
      Buffer.from(`{"id":${msg.id}`.padEnd(7, " ")).copy(frame, 0);
      head.copy(frame, 7, 7);
      sent++;
      ws.send(frame, { binary: false });
    });
  }, { routes: routes.stagewise, path: "/stagewise/ws" });
  return { ...agent, sent: () => sent };
}

describe("stagewise-chat against an agent that sends a 100 MB frame", () => {
  it("closes the connection at the kit's cap, says so, and ends in verdicts", async () => {
    const agent = await bigFrameAgent();
    const { r, ms } = await runAgainst(stagewiseChat, agent, { timeout: 1_000, params: { slow: false } });
    expect(ms).toBeLessThan(20_000);
    const checks = serverSide(r);
    expect(agent.sent()).toBeGreaterThan(0);
    // Not read, so not judged: neither a pass nor the agent's failure.
    const every = byId(checks, "stagewise-chat/chat/snapshot-every-subscribe");
    expect(every.verdict).toBe("incomplete");
    expect(every.message).toMatch(/the kit closed the connection before a snapshot .* was read \(limit: a message over 67108864 bytes \(the kit's cap\), not read\)/);
    const sync = byId(checks, "stagewise-chat/chat/snapshot-equals-reduced");
    expect(sync.verdict).toBe("incomplete");
    expect(sync.message).toMatch(/the probes stopped early: the kit closed the main connection before A's snapshot: limit: a message over 67108864 bytes/);
    // The values queued behind the big frame were cut with it: not the agent's silence either.
    const initial = byId(checks, "stagewise-chat/state/initial-values");
    expect(initial.verdict, initial.message).toBe("incomplete");
    expect(initial.message).toMatch(/the kit closed the connection before a value for sub:availability was read \(limit: a message over/);
    // Discovery and the upgrade are judged as usual.
    expect(byId(checks, "stagewise-chat/wire/info-shape").verdict).toBe("pass");
    expect(byId(checks, "stagewise-chat/wire/ws-upgrade").verdict).toBe("pass");
    expect(checks.filter((c) => c.verdict === "fail").map((c) => c.id)).toEqual([]);
  }, 30_000);
});
