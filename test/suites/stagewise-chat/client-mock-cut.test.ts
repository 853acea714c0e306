/**
 * The toolbar rules when the mock cut a socket at its own cap (a message over its size cap: the close is the kit's,
 * `by: "kit"` with a cause starting "limit"): what the cut came before (a subscription, a PONG) and whether the toolbar
 * comes back after it are not judged; the toolbar is not failed for the mock's cut.
 */
import { describe, expect, it } from "vitest";
import { STAGEWISE_CHAT_CLIENT_CHECKS } from "../../../src/suites/stagewise-chat/client/checks.js";
import { byShortId, judge, Transcript } from "../../helpers/synthetic-transcript.js";

const VOID = { json: null, meta: { values: ["undefined"] } };
const SUBSCRIBE = { id: 1, method: "subscription", params: { path: "chat.getChatUpdates", input: VOID } };
const URL = "ws://127.0.0.1:5746/stagewise-toolbar-app/server/ws";
const CAUSE = "limit: a message over 67108864 bytes (the kit's cap), from the client, not read";
const EVENT = { id: 1, result: { type: "data", id: "1", data: { json: { id: "1", data: { type: "agent-state", isWorking: false } } } } };

const toolbar = () => new Transcript({ probe: "client", wsUrl: URL });
const verdicts = (t: Transcript) => Object.fromEntries(byShortId(judge(STAGEWISE_CHAT_CLIENT_CHECKS, t.events)));
/** The mock's cut of `connection` at its cap, as its recorder writes it. */
const cut = (t: Transcript, connection: string) => t.add({ kind: "ws-close", connection, code: 1006, by: "kit", cause: CAUSE });

describe("stagewise-chat client rules after the mock's cut at its own cap", () => {
  it("client-resubscribe: the cut is no drop the toolbar owes a return from; a socket cut before it subscribed is not judged", () => {
    const following = cut(toolbar().open("c1", undefined, URL).recv("c1", SUBSCRIBE).send("c1", undefined, EVENT), "c1");
    // Eleven seconds on, the toolbar opens a socket and subscribes: nothing was owed before.
    const back = verdicts(following.wait(11_000).open("c2", undefined, URL).recv("c2", { ...SUBSCRIBE, id: 2 }));
    expect(back["chat/client-resubscribe"]!.outcome).toBe("pass");
    const cutEarly = () => cut(toolbar().open("c1", undefined, URL).wait(1000), "c1");
    expect(verdicts(cutEarly().wait(11_000).open("c2", undefined, URL).recv("c2", SUBSCRIBE))["chat/client-resubscribe"]!.outcome).toBe("pass");
    // With nothing after it, the rule says why it judged nothing.
    const early = verdicts(cutEarly());
    expect([early["chat/client-resubscribe"]!.outcome, early["chat/client-resubscribe"]!.message]).toEqual([
      "incomplete",
      expect.stringContaining(`the mock cut socket c1 at its own limit (${CAUSE}) before the toolbar subscribed on it`),
    ]);
  });

  it("client-last-event-id: a fresh subscription after the cut is not failed; the resumption stays unjudged, with the cut named", () => {
    const t = cut(toolbar().open("c1", undefined, URL).recv("c1", SUBSCRIBE).send("c1", undefined, EVENT), "c1");
    const r = verdicts(t.wait(500).open("c2", undefined, URL).recv("c2", SUBSCRIBE))["chat/client-last-event-id"]!;
    expect([r.outcome, r.message]).toEqual(["incomplete", expect.stringContaining(`the mock cut socket c1 at its own limit (${CAUSE}) after it had received chat events`)]);
  });

  it("keepalive-pong: a PONG the cut came before is not judged, and the reason names the cut", () => {
    const t = cut(toolbar().open("c1", undefined, URL).recv("c1", SUBSCRIBE).send("c1", undefined, "PING").wait(1000), "c1");
    const r = verdicts(t.wait(6000).open("c2", undefined, URL).recv("c2", SUBSCRIBE))["trpc/keepalive-pong"]!;
    expect([r.outcome, r.message]).toEqual(["incomplete", expect.stringContaining(`the mock cut socket c1 at its own limit (${CAUSE}) within 5 s of a PING`)]);
  });
});
