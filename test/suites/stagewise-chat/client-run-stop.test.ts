/**
 * The toolbar rules with a deadline in a run the kit stopped (Ctrl-C, SIGTERM, a time limit): a PONG or a chat
 * subscription still within its time when the kit stopped the toolbar is not judged, whatever comes after; one overdue
 * by then fails. The stopping mock's closes ask no toolbar to come back.
 */
import { describe, expect, it } from "vitest";
import { STAGEWISE_CHAT_CLIENT_CHECKS } from "../../../src/suites/stagewise-chat/client/checks.js";
import { byShortId, judge, Transcript } from "../../helpers/synthetic-transcript.js";

const VOID = { json: null, meta: { values: ["undefined"] } };
const SUBSCRIBE = { id: 1, method: "subscription", params: { path: "chat.getChatUpdates", input: VOID } };
const URL = "ws://127.0.0.1:5746/stagewise-toolbar-app/server/ws";

/** The mock's record of a toolbar: `recv` is what the toolbar sent, `send` what the mock sent. */
const toolbar = () => new Transcript({ probe: "client", wsUrl: URL });
const verdicts = (t: Transcript) => Object.fromEntries(byShortId(judge(STAGEWISE_CHAT_CLIENT_CHECKS, t.events)));

describe("stagewise-chat client rules in a run the kit stopped", () => {
  it("keepalive-pong: a PONG still due when the kit stopped is not judged; one overdue by then fails", () => {
    const ping = () => toolbar().open("c1", undefined).recv("c1", SUBSCRIBE).send("c1", undefined, "PING");
    // The stopping mock closes the socket past the 5 s: the toolbar had been told to stop at 2 s.
    const cut = verdicts(ping().stopped("Ctrl-C", 2000).wait(4000).close("c1", "kit", 1001))["trpc/keepalive-pong"]!;
    expect([cut.outcome, cut.message]).toEqual(["incomplete", expect.stringContaining("a PONG was still due on c1 when the kit stopped the run (Ctrl-C) at 2000 ms")]);
    expect(verdicts(ping().stopped("SIGTERM", 2000))["trpc/keepalive-pong"]!.outcome).toBe("incomplete");
    const late = verdicts(ping().stopped("SIGTERM", 6000))["trpc/keepalive-pong"]!;
    expect([late.outcome, late.message]).toEqual(["fail", "no PONG 5000 ms after the mock's PING"]);
  });

  it("client-resubscribe: a socket still within its 5 s when the kit stopped is not judged; one past them by then fails", () => {
    const opened = () => toolbar().open("c1", undefined, URL);
    // Told to stop at 1 s, the toolbar says goodbye on the socket at 5.5 s.
    const cut = verdicts(opened().stopped("SIGTERM", 1000).add({ kind: "ws-frame", connection: "c1", direction: "in", binary: false, data: "PONG" }, 5500))["chat/client-resubscribe"]!;
    expect([cut.outcome, cut.message]).toEqual(["incomplete", expect.stringContaining("socket c1 still had time to subscribe when the kit stopped the run (SIGTERM) at 1000 ms")]);
    expect(verdicts(opened().stopped("SIGTERM", 1000))["chat/client-resubscribe"]!.outcome).toBe("incomplete");
    const late = verdicts(opened().stopped("SIGTERM", 6000))["chat/client-resubscribe"]!;
    expect([late.outcome, late.message]).toEqual(["fail", "socket c1 went 5000 ms without one"]);
  });

  it("the mock's closes once the kit stopped the run are no drop: nothing is owed after them", () => {
    const run = (stopFirst: boolean) => {
      const t = toolbar().open("c1", undefined, URL).recv("c1", SUBSCRIBE);
      t.send("c1", undefined, { id: 1, result: { type: "data", id: "1", data: { json: { id: "1", data: { type: "agent-state", isWorking: false } } } } });
      if (stopFirst) t.stopped("Ctrl-C");
      t.close("c1", "kit", 1001);
      return verdicts(t);
    };
    const stopped = run(true);
    expect(stopped["chat/client-resubscribe"]!.outcome).toBe("pass");
    expect(stopped["chat/client-last-event-id"]!.outcome).toBe("skip");
    // The same close with the run going on asks the toolbar to come back.
    const dropped = run(false);
    expect(dropped["chat/client-last-event-id"]!.outcome).toBe("incomplete");
  });
});
