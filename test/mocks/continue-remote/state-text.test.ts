/**
 * GET /state is served from the machine's JSON text, written once per state: every change the
 * machine makes (and one a fault hook makes through its context) must show in the next answer.
 */
import { describe, expect, it } from "vitest";
import { createContinueRemoteEngine, type ContinueRemoteEngine } from "../../../src/mocks/continue-remote/engine.js";
import type { ContinueRemoteMockOptions } from "../../../src/mocks/continue-remote/options.js";
import { BASE, type Profile } from "./helpers.js";

/** A client that checks each GET /state against a fresh deep copy of the machine taken just before. */
function checked(options: ContinueRemoteMockOptions) {
  const engine: ContinueRemoteEngine = createContinueRemoteEngine(options);
  let polls = 0;
  const state = async (headers: Record<string, string> = {}) => {
    const expected = JSON.stringify(engine.machine.snapshot());
    const res = await engine.handle(new Request(`${BASE}/state`, { headers }));
    const text = await res.text();
    if (!headers["x-agentwire-fault"]) expect(text, `poll ${polls}`).toBe(expected);
    polls++;
    return JSON.parse(text) as Record<string, any>;
  };
  const post = async (path: string, body: unknown = {}) => {
    const res = await engine.handle(
      new Request(BASE + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    );
    return (await res.json()) as Record<string, any>;
  };
  const step = async () => (await post("/__agentwire/step")).stepped as boolean;
  return { engine, state, post, step };
}

describe.each(["seed", "cn-session"] as Profile[])("continue-remote mock %s: GET /state follows every change", (profile) => {
  const options = { profile, clock: "manual" as const, reportQueue: true, reportPending: true, now: () => 1_700_000_000_000 };

  it("messages, queue, steps, a permission and its answer, pause or interrupt, exit and reset", async () => {
    const c = checked(options);
    await c.state();
    await c.post("/message", { message: "#scenario:permission" });
    await c.state();
    // Queued while busy: only the queue length changes.
    await c.post("/message", { message: "#scenario:chat" });
    expect((await c.state()).messageQueueLength).toBe(1);
    let pending: string | undefined;
    for (let i = 0; i < 50 && !pending; i++) {
      await c.step();
      pending = (await c.state()).pendingPermission?.requestId;
    }
    expect(pending).toBe("perm-1");
    await c.post("/permission", { requestId: pending, approved: false });
    await c.state();
    while (await c.step()) await c.state();
    await c.state();
    // A running turn stopped by the client (cn: /pause; seed: a message that interrupts).
    await c.post("/message", { message: "#scenario:slow" });
    await c.step();
    await c.state();
    if (profile === "cn-session") expect((await c.post("/pause")).success).toBe(true);
    else await c.post("/exit");
    await c.state();
    await c.post("/__agentwire/reset");
    await c.state();
  });

  it("a change a fault hook makes to the machine shows on the next plain poll", async () => {
    const c = checked(options);
    await c.post("/message", { message: "#scenario:permission" });
    let pending: string | undefined;
    for (let i = 0; i < 50 && !pending; i++) {
      await c.step();
      pending = (await c.state()).pendingPermission?.requestId;
    }
    const rotated = (await c.state({ "x-agentwire-fault": "permission-id-rotates" })).pendingPermission.requestId;
    expect(rotated).not.toBe(pending);
    expect((await c.state()).pendingPermission.requestId).toBe(rotated);
  });
});

describe("continue-remote mock: the seed interrupt", () => {
  it("a message that interrupts the running turn shows at once", async () => {
    const c = checked({ clock: "manual", interruptOnMessage: true, reportQueue: true });
    await c.post("/message", { message: "#scenario:slow" });
    await c.step();
    await c.state();
    await c.post("/message", { message: "#scenario:chat" });
    await c.state();
  });
});
