import { describe, expect, it } from "vitest";
import { client, entries, expectValid, pollUntilIdle, type Client, type Json, type Profile } from "./helpers.js";

/** Polls until a permission is pending, and returns that snapshot. */
async function untilPending(c: Client): Promise<Json> {
  for (let i = 0; i < 500; i++) {
    const s = await c.state();
    if (s.pendingPermission) return s;
  }
  throw new Error("no permission request");
}

describe.each(["seed", "cn-session"] as Profile[])("continue-remote mock %s: permissions (§3.11)", (profile) => {
  const seed = profile === "seed";

  it("asks with a fresh requestId that stays stable while pending; the turn waits", async () => {
    const c = client({ profile, now: () => 1_700_000_000_000 });
    await c.send("#scenario:permission");
    const s = await untilPending(c);
    expectValid("pending-permission", s.pendingPermission, profile);
    expect(s.pendingPermission).toEqual({
      requestId: "perm-1",
      toolName: seed ? "write_file" : "Write",
      toolArgs: { filepath: "notes.txt", content: "Remember to run npm install.\n" },
      timestamp: 1_700_000_000_000,
      ...(seed ? {} : { toolCallPreview: [] }),
    });
    const last = entries(s, profile).at(-1) as Json;
    if (seed) expect(last).toMatchObject({ content: "○ Write(notes.txt)", messageType: "tool-start" });
    else expect(last.toolCallStates[0].status).toBe("generated");
    // Polls do not move a turn that waits for an answer.
    for (let i = 0; i < 5; i++) expect(await c.state()).toEqual(s);
  });

  it("a wrong id, or an answer with nothing pending, gets 400 and changes nothing", async () => {
    const c = client({ profile });
    const none = await c.post("/permission", { requestId: "perm-1", approved: true });
    expect(none).toMatchObject({ status: 400, body: { error: "No pending permission request" } });
    await c.send("#scenario:permission");
    const s = await untilPending(c);
    const wrong = await c.post("/permission", { requestId: "perm-9", approved: true });
    expect(wrong).toMatchObject({ status: 400, body: { error: "Invalid request ID" } });
    expectValid("error-response", wrong.body, profile);
    for (const body of [{ requestId: "perm-1", approved: "false" }, { requestId: "perm-1" }, { approved: true }, { requestId: "", approved: true }]) {
      const r = await c.post("/permission", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(typeof r.body.error).toBe("string");
    }
    expect(await c.state()).toEqual(s);
  });

  it("approval: 200 {success, approved}, the next poll shows null and the tool runs", async () => {
    const c = client({ profile });
    await c.send("#scenario:permission");
    const s = await untilPending(c);
    const r = await c.post("/permission", { requestId: s.pendingPermission.requestId, approved: true });
    expect(r).toMatchObject({ status: 200, body: { success: true, approved: true } });
    expectValid("permission-response", r.body, profile);
    expect((await c.state()).pendingPermission).toBeNull();
    const list = entries((await pollUntilIdle(c)).at(-1) as Json, profile);
    if (seed) {
      expect(list.find((e) => e.messageType === "tool-result")?.toolResult).toBe("Successfully wrote notes.txt");
      expect(list.at(-1)?.content).toBe("I wrote notes.txt.");
    } else {
      expect(list[1].toolCallStates[0]).toMatchObject({ status: "done", output: [{ content: "Successfully wrote notes.txt" }] });
      expect(list.at(-1)?.message.content).toBe("I wrote notes.txt.");
    }
  });

  it("denial skips the tool and every later call of the turn", async () => {
    const c = client({ profile });
    await c.send("#scenario:permission-twice");
    const seen = await pollUntilIdle(c, () => false);
    const asked = new Set(seen.map((s) => s.pendingPermission?.requestId).filter(Boolean));
    expect([...asked]).toEqual(["perm-1"]);
    const list = entries(seen.at(-1) as Json, profile);
    if (seed) {
      expect(list.filter((e) => e.messageType === "tool-result").map((e) => e.toolResult)).toEqual([
        "Permission denied by user",
        "Cancelled due to previous tool rejection",
      ]);
      expect(list.at(-1)?.content).toBe("Okay, I did not write the files.");
    } else {
      const states = list.flatMap((i) => i.toolCallStates ?? []);
      expect(states.map((t: Json) => [t.status, t.output[0].content])).toEqual([
        ["canceled", "Permission denied by user"],
        ["canceled", "Cancelled due to previous tool rejection"],
      ]);
    }
  });

  it("permission-twice asks twice, with different ids", async () => {
    const c = client({ profile });
    await c.send("#scenario:permission-twice");
    const seen = await pollUntilIdle(c);
    const ids = [...new Set(seen.map((s) => s.pendingPermission?.requestId).filter(Boolean))];
    expect(ids).toEqual(["perm-1", "perm-2"]);
  });
});

describe("continue-remote mock: permissionTimeoutMs", () => {
  it("denies an unanswered request after the timeout (time clock)", async () => {
    const c = client({ profile: "seed", clock: "time", thinkMs: 1, chunkMs: 1, gapMs: 1, toolMs: 1, chunkChars: 50, permissionTimeoutMs: 30 });
    await c.send("#scenario:permission");
    const deadline = Date.now() + 5000;
    let s = await c.state();
    while ((s.isProcessing || s.chatHistory.length < 2) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 5));
      s = await c.state();
    }
    expect(s.isProcessing).toBe(false);
    expect(s.chatHistory.find((e: Json) => e.messageType === "tool-result")?.toolResult).toBe("Permission denied by user");
    c.engine.dispose();
  });
});
