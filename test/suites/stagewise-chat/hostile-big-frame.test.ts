/**
 * An agent that answers the chat subscription with a 100 MB frame: the kit's WebSocket client refuses the message at
 * its size cap from the frame's header (nothing of it buffered), says so, and the run ends in verdicts within the waits.
 * The reference mock behind a relay that makes one later message longer than the cap: the cut is the kit's, and no
 * rule fails for what the kit did not read.
 */
import { describe, expect, it } from "vitest";
import { runSuite } from "../../../src/core/run/runner.js";
import type { RunResult } from "../../../src/core/verdicts/result.js";
import { stagewiseChat } from "../../../src/suites/stagewise-chat/index.js";
import { runAgainst } from "../../helpers/hostile-servers.js";
import { hostileWs, routes } from "../../helpers/hostile-ws.js";
import { byId, explain, failedIds, serverSide } from "../../helpers/run-results.js";
import { padded, relayWs } from "../../helpers/ws-relay.js";

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
    expect(sync.message).toMatch(/the probes stopped early: the kit stopped reading the main connection \(limit: a message over 67108864 bytes/);
    // A started, then cut by the kit: that it stayed open while the kit read proves nothing of the agent.
    const open = byId(checks, "stagewise-chat/trpc/subscription-stays-open");
    expect(open.verdict, open.message).toBe("incomplete");
    expect(open.message).toMatch(/subscription chat\.getChatUpdates .*was still open when the kit stopped reading the connection \(limit: a message over 67108864 bytes/);
    // The probes stopped at the cut, before asking for values the agent would have sent behind the big frame.
    const initial = byId(checks, "stagewise-chat/state/initial-values");
    expect(initial.verdict, initial.message).toBe("incomplete");
    expect(initial.message).toMatch(/the probes stopped early: the kit stopped reading the main connection \(limit: a message over/);
    expect(agent.sent()).toBe(1);
    // Discovery and the upgrade are judged as usual.
    expect(byId(checks, "stagewise-chat/wire/info-shape").verdict).toBe("pass");
    expect(byId(checks, "stagewise-chat/wire/ws-upgrade").verdict).toBe("pass");
    expect(checks.filter((c) => c.verdict === "fail").map((c) => c.id)).toEqual([]);
  }, 30_000);
});

const CAP = 1024 * 1024;
const CUT = `limit: a message over ${CAP} bytes (the kit's cap), not read`;

/** A run against the mock whose first message containing `marker` goes out over the cap. */
async function runWithBigMessage(marker: string): Promise<RunResult> {
  const mock = await stagewiseChat.startMock({ host: "127.0.0.1", port: 0, suite: true });
  let padding = true;
  const relay = await relayWs(mock.url, (data) => {
    if (!padding || !data.toString("utf8", 0, 300).includes(marker)) return undefined;
    padding = false;
    return padded(data, CAP + 10);
  });
  try {
    return await runSuite(stagewiseChat, { url: relay.url, timeout: 3000, maxBytes: CAP });
  } finally {
    await relay.close();
    await mock.close();
  }
}

/**
 * What every run through the relay finds: its port is of the system's choosing, outside the toolbar's range (WARN),
 * and the mock takes any Origin, as the agent does (INFO).
 */
const EVERY_RUN = ["stagewise-chat/security/ws-foreign-origin", "stagewise-chat/wire/port-range"];

describe.concurrent("stagewise-chat against an agent that sends one message over the kit's cap", () => {
  it("a chat update on the main connection while a mutation waits: the mutation is unjudged, not failed", async () => {
    const checks = serverSide(await runWithBigMessage('"type":"chat-created"'));
    expect(failedIds(checks), explain(checks, (c) => c.outcome === "fail" && !EVERY_RUN.includes(c.id))).toEqual(EVERY_RUN);
    const create = byId(checks, "stagewise-chat/chat/create-chat");
    expect(create.verdict).toBe("incomplete");
    expect(create.message).toContain(`mutation chat.createChat [ok:create]: the connection was closed by kit (${CUT}) before an answer`);
    expect(create.message).toContain(`the probes stopped early: the kit stopped reading the main connection (${CUT})`);
  }, 60_000);

  it("a subscription's start, with its value behind it: the value is unjudged, not missing", async () => {
    const checks = serverSide(await runWithBigMessage('"id":2,"result":{"type":"started"}'));
    expect(failedIds(checks), explain(checks, (c) => c.outcome === "fail" && !EVERY_RUN.includes(c.id))).toEqual(EVERY_RUN);
    const initial = byId(checks, "stagewise-chat/state/initial-values");
    expect(initial.verdict, initial.message).toBe("incomplete");
    expect(initial.message).toContain(`the kit closed the connection before a value for sub:availability was read (${CUT})`);
  }, 60_000);

  it("the answer to sendUserMessage: send-user-message is unjudged, not failed", async () => {
    const checks = serverSide(await runWithBigMessage('"id":12,"result"'));
    expect(failedIds(checks), explain(checks, (c) => c.outcome === "fail" && !EVERY_RUN.includes(c.id))).toEqual(EVERY_RUN);
    const send = byId(checks, "stagewise-chat/messaging/send-user-message");
    expect(send.verdict).toBe("incomplete");
    expect(send.message).toContain(`mutation messaging.sendUserMessage [messaging:send]: the connection was closed by kit (${CUT}) before an answer`);
  }, 60_000);

  it("an answer on the side connection for raw frames: no rule fails for the answer the kit did not read", async () => {
    // The answer to a query on a mutation's path, the first error on that connection with a plain message.
    const checks = serverSide(await runWithBigMessage('No \\"query\\"-procedure'));
    expect(failedIds(checks), explain(checks, (c) => c.outcome === "fail" && !EVERY_RUN.includes(c.id))).toEqual(EVERY_RUN);
  }, 60_000);
});
