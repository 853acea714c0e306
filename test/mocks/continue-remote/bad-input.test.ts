import { describe, expect, it } from "vitest";
import { client, expectValid, type Client, type Json, type Profile } from "./helpers.js";

/** A mid-turn state under the manual clock, where GET /state never moves anything. */
async function midTurn(profile: Profile): Promise<{ c: Client; before: Json }> {
  const c = client({ profile, clock: "manual" });
  await c.send("#scenario:permission");
  await c.send("#scenario:chat queued");
  for (let i = 0; i < 3; i++) await c.post("/__agentwire/step");
  return { c, before: await c.state() };
}

const CASES: [string, (c: Client) => Promise<{ status: number; body: Json; type: string | null }>, number][] = [
  ["missing message", (c) => c.post("/message", {}), 400],
  ["empty message", (c) => c.post("/message", { message: "" }), 400],
  ["number message", (c) => c.post("/message", { message: 42 }), 400],
  ["object message", (c) => c.post("/message", { message: {} }), 400],
  ["array body", (c) => c.post("/message", ["hi"]), 400],
  ["null body", (c) => c.post("/message", "null"), 400],
  ["malformed JSON", (c) => c.post("/message", '{"message": "hi"', "application/json"), 400],
  ["text/plain body", (c) => c.post("/message", '{"message":"hi"}', "text/plain"), 415],
  ["form body", (c) => c.post("/message", "message=hi", "application/x-www-form-urlencoded"), 415],
  ["unknown scenario", (c) => c.post("/message", { message: "#scenario:nope hi" }), 400],
  ["body over the limit", (c) => c.post("/message", { message: "x".repeat(101 * 1024) }), 413],
  ["malformed permission JSON", (c) => c.post("/permission", "{", "application/json"), 400],
  ["approved as a string", (c) => c.post("/permission", { requestId: "perm-1", approved: "true" }), 400],
  ["unknown path", (c) => c.get("/nope"), 404],
  ["GET /message", (c) => c.get("/message"), 405],
  ["GET /exit", (c) => c.get("/exit"), 405],
  ["POST /state", (c) => c.post("/state"), 405],
  ["GET /permission", (c) => c.get("/permission"), 405],
];

describe.each(["seed", "cn-session"] as Profile[])("continue-remote mock %s: bad input", (profile) => {
  it.each(CASES)("%s: JSON {error}, status as §6 says, state unchanged", async (_name, send, status) => {
    const { c, before } = await midTurn(profile);
    const r = await send(c);
    expect(r.status).toBe(status);
    expect(r.type).toBe("application/json; charset=utf-8");
    expectValid("error-response", r.body, profile);
    expect(await c.state()).toEqual(before);
  });

  it("names the known scenarios when one is unknown", async () => {
    const c = client({ profile });
    const r = await c.post("/message", { message: "#scenario:nope" });
    expect(r.body.error).toMatch(/unknown scenario "nope" \(known: chat, read-file/);
  });

  it("routes as Express does: query ignored, trailing slash and case accepted", async () => {
    const c = client({ profile });
    for (const path of ["/state?x=1", "/state/", "/STATE", "/State/?a=b"]) expect((await c.get(path)).status).toBe(200);
    expect((await c.post("/MESSAGE/?x=1", { message: "#scenario:chat" })).status).toBe(200);
  });
});

describe("continue-remote mock: /pause is a cn-session route", () => {
  it("answers 404 under seed", async () => {
    const c = client({ profile: "seed" });
    const r = await c.post("/pause");
    expect(r.status).toBe(404);
    expectValid("error-response", r.body, "seed");
  });
});
