import { describe, expect, it } from "vitest";
import { TRANSCRIPT_KEPT } from "../../../src/mocks/continue-remote/engine.js";
import { client, entries, expectConsistent, expectValid, pollUntilIdle, type Json, type Profile } from "./helpers.js";

describe.each(["seed", "cn-session"] as Profile[])("continue-remote mock %s: /exit and /diff", (profile) => {
  it("/exit answers, aborts the turn, clears the queue and calls onExit after exitDelayMs", async () => {
    let exits = 0;
    const c = client({ profile, exitDelayMs: 20, onExit: () => exits++ });
    await c.send("#scenario:slow");
    await c.send("#scenario:chat waiting");
    await c.state();
    const before = await c.state();
    const r = await c.post("/exit");
    expect(r).toMatchObject({ status: 200, body: { message: "Server shutting down", success: true } });
    expectValid("exit-response", r.body, profile);
    expect(exits).toBe(0);
    const after = await c.state();
    expectConsistent(before, after, profile, { mayVanish: true });
    expect(after).toMatchObject({ isProcessing: false, messageQueueLength: 0, pendingPermission: null });
    await new Promise((res) => setTimeout(res, 60));
    expect(exits).toBe(1);
    expect(c.engine.exited).toBe(true);
    // A second /exit does not shut down twice.
    await c.post("/exit");
    await new Promise((res) => setTimeout(res, 40));
    expect(exits).toBe(1);
    // A reset restarts it: the next /exit shuts down again.
    await c.post("/__agentwire/reset");
    expect(c.engine.exited).toBe(false);
    await c.post("/exit");
    await new Promise((res) => setTimeout(res, 60));
    expect(exits).toBe(2);
  });

  it("/diff answers {diff}, or 404 {error, diff:''} without a main branch", async () => {
    const c = client({ profile });
    const ok = await c.get("/diff");
    expect(ok.status).toBe(200);
    expectValid("diff-response", ok.body, profile);
    expect(ok.body.diff).toMatch(/^diff --git/);
    const none = await client({ profile, diff: null }).get("/diff");
    expect(none).toMatchObject({ status: 404, body: { diff: "" } });
    expectValid("error-response", none.body, profile);
  });

  it("/__agentwire/transcript keeps the latest requests only, so a client polling for hours does not grow the mock", async () => {
    const c = client({ profile });
    for (let i = 0; i < 2 * TRANSCRIPT_KEPT + 5; i++) await c.get(`/nope?${i}`);
    const t = (await c.get("/__agentwire/transcript")).body.requests as Json[];
    expect(t.length).toBeGreaterThanOrEqual(TRANSCRIPT_KEPT);
    expect(t.length).toBeLessThanOrEqual(2 * TRANSCRIPT_KEPT);
    expect(t.at(-1)?.path).toBe(`/nope?${2 * TRANSCRIPT_KEPT + 4}`);
  });

  it("/__agentwire/reset returns to the start state; the transcript records client requests only", async () => {
    const c = client({ profile });
    await c.send("#scenario:chat hi");
    await c.state();
    await c.get("/nope");
    const t = (await c.get("/__agentwire/transcript")).body.requests as Json[];
    expect(t.map((e) => [e.method, e.path, e.status])).toEqual([
      ["POST", "/message", 200],
      ["GET", "/state", 200],
      ["GET", "/nope", 404],
    ]);
    expect(t[0]?.body).toBe('{"message":"#scenario:chat hi"}');
    await c.post("/__agentwire/reset");
    const s = await c.state();
    expect(entries(s, profile)).toEqual([]);
    expect(s).toMatchObject({ isProcessing: false, messageQueueLength: 0, pendingPermission: null });
  });
});

describe("continue-remote mock cn-session: /pause (§3.14)", () => {
  it("idle: success:false and nothing changes", async () => {
    const c = client({ profile: "cn-session" });
    const before = await c.state();
    const r = await c.post("/pause");
    expect(r).toMatchObject({ status: 200, body: { success: false, message: "No active processing to pause" } });
    expectValid("cn-session/pause-response", r.body, "cn-session");
    expect(await c.state()).toEqual(before);
  });

  it("busy: stops the turn, leaves the user item unanswered, cancels open calls, then starts the queue", async () => {
    const c = client({ profile: "cn-session", clock: "manual" });
    await c.send("#scenario:bash first");
    await c.send("#scenario:chat second");
    await c.post("/__agentwire/step");
    const before = await c.state();
    expect(before.session.history[1].toolCallStates[0].status).toBe("generated");
    const r = await c.post("/pause");
    expect(r.body).toEqual({ success: true, message: "Agent run paused" });
    const after = await c.state();
    expectConsistent(before, after, "cn-session", { mayVanish: true });
    expect(after.session.history[1].toolCallStates[0].status).toBe("canceled");
    // The queued message started at once.
    expect(after.isProcessing).toBe(true);
    expect(after.session.history.at(-1).message.content).toBe("#scenario:chat second");
    while ((await c.post("/__agentwire/step")).body.stepped);
    const done = await c.state();
    expect(done.isProcessing).toBe(false);
    expect(done.session.history.map((i: Json) => i.message.content)).toEqual([
      "#scenario:bash first",
      "Let me list the directory.",
      "#scenario:chat second",
      "Hello! How can I help?",
    ]);
  });

  it("busy with nothing queued: isProcessing false and a trailing empty assistant item removed", async () => {
    const c = client({ profile: "cn-session" });
    await c.send("#scenario:seed-example");
    let s = await c.state();
    while (!s.pendingPermission && s.session.history.length < 2) s = await c.state();
    s = await c.state();
    const r = await c.post("/pause");
    expect(r.body.success).toBe(true);
    const after = await c.state();
    expect(after).toMatchObject({ isProcessing: false, messageQueueLength: 0, pendingPermission: null });
    expect(after.session.history).toEqual([s.session.history[0]]);
    expectConsistent(s, after, "cn-session", { mayVanish: true });
    // A later message runs normally.
    await c.send("#scenario:chat");
    expect((await pollUntilIdle(c)).at(-1)?.session.history).toHaveLength(3);
  });

  it("while a permission is pending: the request is withdrawn and the call canceled", async () => {
    const c = client({ profile: "cn-session" });
    await c.send("#scenario:permission");
    let s = await c.state();
    while (!s.pendingPermission) s = await c.state();
    expect((await c.post("/pause")).body.success).toBe(true);
    const after = await c.state();
    expect(after).toMatchObject({ isProcessing: false, pendingPermission: null });
    expect(after.session.history[1].toolCallStates[0].status).toBe("canceled");
    const stale = await c.post("/permission", { requestId: s.pendingPermission.requestId, approved: true });
    expect(stale).toMatchObject({ status: 400, body: { error: "No pending permission request" } });
  });
});

describe("continue-remote mock: start and restart (§3.1, §8.10)", () => {
  it.each(["seed", "cn-session"] as Profile[])("%s: an initial prompt is queued as if POSTed", async (profile) => {
    const c = client({ profile, initialPrompt: "#scenario:chat start" });
    const first = await c.state();
    expect(first.isProcessing).toBe(true);
    expect(entries(first, profile)).toHaveLength(1);
    const last = (await pollUntilIdle(c)).at(-1) as Json;
    expect(entries(last, profile)).toHaveLength(2);
    expect(() => client({ profile, initialPrompt: "#scenario:nope" })).toThrow(/unknown scenario "nope"/);
  });

  it("a reset is a restart: cn-session gets a new sessionId and counters start over", async () => {
    const c = client({ profile: "cn-session" });
    await c.send("#scenario:bash");
    const before = (await pollUntilIdle(c)).at(-1) as Json;
    expect(before.session.sessionId).toBe("00000000-0000-4000-8000-000000000001");
    await c.post("/__agentwire/reset");
    await c.send("#scenario:bash");
    const after = (await pollUntilIdle(c)).at(-1) as Json;
    expect(after.session.sessionId).toBe("00000000-0000-4000-8000-000000000002");
    expect(after.session.history[1].message.toolCalls[0].id).toBe("call_1");
  });
});

describe("continue-remote mock: cors and token knobs", () => {
  it("sends no Access-Control header by default, even to a foreign origin; a preflight gets 405", async () => {
    const c = client({});
    const res = await c.engine.handle(new Request("http://127.0.0.1:8000/state", { headers: { origin: "http://evil.test" } }));
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const pre = await c.engine.handle(new Request("http://127.0.0.1:8000/message", { method: "OPTIONS", headers: { origin: "http://evil.test" } }));
    expect(pre.status).toBe(405);
  });

  it("cors: a listed origin may read and preflight; others may not", async () => {
    const c = client({ cors: ["http://app.test"] });
    const ok = await c.engine.handle(new Request("http://127.0.0.1:8000/state", { headers: { origin: "http://app.test" } }));
    expect(ok.headers.get("access-control-allow-origin")).toBe("http://app.test");
    const pre = await c.engine.handle(new Request("http://127.0.0.1:8000/message", { method: "OPTIONS", headers: { origin: "http://app.test" } }));
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-headers")).toContain("content-type");
    const other = await c.engine.handle(new Request("http://127.0.0.1:8000/state", { headers: { origin: "http://evil.test" } }));
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("token: client routes need the bearer token (401 JSON without it, state unchanged); control routes do not", async () => {
    const c = client({ token: "s3cret" });
    const denied = await c.post("/message", { message: "#scenario:chat" });
    expect(denied.status).toBe(401);
    expectValid("error-response", denied.body, "seed");
    const reset = await c.post("/__agentwire/reset");
    expect(reset.status).toBe(200);
    const res = await c.engine.handle(new Request("http://127.0.0.1:8000/state", { headers: { authorization: "Bearer s3cret" } }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).chatHistory).toEqual([]);
  });
});
