/**
 * The mock's record of its clients (for the client checks): each request labelled by its route
 * under the profile, what the mock knew then, the answer's head and the body it served; control
 * routes left out; and, while judging, the mock outlives `/exit` to see who still calls.
 */
import { describe, expect, it } from "vitest";
import { TranscriptBus, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { startContinueRemoteMock } from "../../../src/mocks/continue-remote/server.js";
import { client } from "./helpers.js";

function recording() {
  const bus = new TranscriptBus();
  const events: TranscriptEvent[] = [];
  bus.subscribe((e) => events.push(e));
  return { bus, events };
}

const of = <K extends TranscriptEvent["kind"]>(events: TranscriptEvent[], kind: K) =>
  events.filter((e): e is Extract<TranscriptEvent, { kind: K }> => e.kind === kind);

describe("continue-remote mock: recording clients", () => {
  it("records each request on arrival, its answer's head and the body served", async () => {
    const { bus, events } = recording();
    const c = client({ bus, scenarios: ["permission"] });
    await c.send("Write notes.txt");
    // The poll clock: each busy poll moves the turn one step, up to the permission request.
    let s = await c.state();
    while (!s.pendingPermission) s = await c.state();
    const requests = of(events, "http-request");
    expect(requests.map((r) => r.label).slice(0, 2)).toEqual(["message", "state"]);
    expect(requests[0]).toMatchObject({ probe: "client", method: "POST", path: "/message", body: '{"message":"Write notes.txt"}' });
    expect(requests[0]!.headers["content-type"]).toBe("application/json");
    expect(requests[0]!.meta).toEqual({ profile: "seed", isProcessing: false, pendingRequestId: null, exited: false });
    const last = requests.at(-1)!;
    const ends = of(events, "body-end");
    const served = JSON.parse(ends.find((e) => e.exchange === last.exchange)!.text!);
    expect(served).toEqual(s);
    expect(of(events, "http-response").find((e) => e.exchange === last.exchange)).toMatchObject({ status: 200, label: "state" });
    // Request, head and body end in that order, each exchange with its own id.
    expect(events.filter((e) => "exchange" in e && e.exchange === last.exchange).map((e) => e.kind)).toEqual(["http-request", "http-response", "body-end"]);
    expect(new Set(requests.map((r) => r.exchange)).size).toBe(requests.length);
  });

  it("labels what the profile does not serve as unknown, and leaves the harness's control routes out", async () => {
    const { bus, events } = recording();
    const seed = client({ bus });
    await seed.post("/pause");
    await seed.get("/history");
    await seed.post("/__agentwire/reset");
    await seed.get("/__agentwire/transcript");
    expect(of(events, "http-request").map((r) => [r.path, r.label])).toEqual([
      ["/pause", "unknown"],
      ["/history", "unknown"],
    ]);
    const cn = recording();
    await client({ bus: cn.bus, profile: "cn-session" }).post("/pause");
    expect(of(cn.events, "http-request").map((r) => [r.label, r.meta?.profile])).toEqual([["pause", "cn-session"]]);
  });

  it("records nothing without a bus", async () => {
    const c = client({});
    await c.state();
    expect(c.engine.transcript).toHaveLength(1);
  });

  it("while judging, stays up after /exit: later requests are answered 503 and recorded", async () => {
    const { bus, events } = recording();
    const m = await startContinueRemoteMock({ port: 0, bus, exitDelayMs: 10 });
    try {
      const r = await fetch(`${m.url}/exit`, { method: "POST" });
      expect(await r.json()).toEqual({ message: "Server shutting down", success: true });
      await new Promise((res) => setTimeout(res, 50));
      const late = await fetch(`${m.url}/state`);
      expect(late.status).toBe(503);
      expect(await late.json()).toEqual({ error: "The server has shut down" });
      expect(of(events, "http-request").map((e) => [e.label, e.meta?.exited])).toEqual([
        ["exit", false],
        ["state", true],
      ]);
      // A restart brings it back.
      await fetch(`${m.url}/__agentwire/reset`, { method: "POST" });
      expect((await fetch(`${m.url}/state`)).status).toBe(200);
    } finally {
      await m.close();
    }
  });
});
