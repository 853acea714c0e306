import { describe, expect, it } from "vitest";
import { client, entries, expectConsistent, pollUntilIdle, type Json, type Profile } from "./helpers.js";

describe.each(["seed", "cn-session"] as Profile[])("continue-remote mock %s: queueing (§3.2, §3.3, §3.9)", (profile) => {
  it("answers position 1 when idle, k+1 with k waiting, and runs every message in order", async () => {
    const c = client({ profile });
    expect(await c.send("#scenario:multi-tool one")).toEqual({ queued: true, position: 1 });
    const busy = await c.state();
    expect(busy.isProcessing).toBe(true);
    expect(await c.send("#scenario:bash two")).toEqual({ queued: true, position: 1 });
    expect(await c.send("#scenario:chat three")).toEqual({ queued: true, position: 2 });
    const waiting = await c.state();
    expectConsistent(busy, waiting, profile);
    expect(waiting.messageQueueLength).toBe(2);
    // Only the running message has a user entry: the others appear when dequeued.
    expect(entries(waiting, profile).filter(isUser)).toHaveLength(1);

    const seen = await pollUntilIdle(c);
    // isProcessing never reads false between queued turns.
    expect(seen.slice(0, -1).every((s) => s.isProcessing)).toBe(true);
    const users = entries(seen.at(-1) as Json, profile)
      .filter(isUser)
      .map((e) => (profile === "seed" ? e.content : e.message.content));
    expect(users).toEqual(["#scenario:multi-tool one", "#scenario:bash two", "#scenario:chat three"]);
    const lengths = seen.map((s) => s.messageQueueLength);
    expect(lengths.at(-1)).toBe(0);
    expect([...lengths].sort((a, b) => b - a)).toEqual(lengths);
  });

  it("keeps the user's text verbatim and picks scenarios from the list, then the default", async () => {
    const c = client({ profile, scenarios: ["bash", "chat"], defaultScenario: "llm-error" });
    const texts = ["  spaced  ", "e\u0301 not NFC", "third"];
    for (const t of texts) await c.send(t);
    const list = entries((await pollUntilIdle(c)).at(-1) as Json, profile);
    const users = list.filter(isUser).map((e) => (profile === "seed" ? e.content : e.message.content));
    expect(users).toEqual(texts);
    const answers = list.filter((e) => !isUser(e)).map((e) => (profile === "seed" ? e.content : e.message.content));
    expect(answers.at(-1)).toBe("Error: 500 mock upstream failure");
    expect(answers).toContain("Hello! How can I help?");
  });

  function isUser(e: Json): boolean {
    return profile === "seed" ? e.role === "user" : e.message.role === "user";
  }
});

describe("continue-remote mock seed: interruptOnMessage (legacy willInterrupt)", () => {
  it("answers willInterrupt:true, drops the streaming entry and runs the new message", async () => {
    const c = client({ profile: "seed", interruptOnMessage: true });
    await c.send("#scenario:slow first");
    let before = await c.state();
    while (!before.chatHistory.at(-1).isStreaming) before = await c.state();
    before = await c.state();
    expect(before.chatHistory.at(-1).isStreaming).toBe(true);
    expect(await c.send("#scenario:chat second")).toEqual({ queued: true, position: 1, willInterrupt: true });
    const after = await c.state();
    expectConsistent(before, after, "seed", { mayVanish: true });
    expect(after.chatHistory.map((e: Json) => e.content)).toEqual(["#scenario:slow first", "#scenario:chat second"]);
    const last = (await pollUntilIdle(c)).at(-1) as Json;
    expect(last.chatHistory.at(-1).content).toBe("Hello! How can I help?");
  });

  it("resolves a tool-start it interrupts, so no start stays unresolved", async () => {
    const c = client({ profile: "seed", interruptOnMessage: true, clock: "manual" });
    await c.send("#scenario:bash");
    while ((await c.state()).chatHistory.at(-1).messageType !== "tool-start") await c.post("/__agentwire/step");
    await c.send("#scenario:chat");
    while ((await c.post("/__agentwire/step")).body.stepped);
    const list = (await c.state()).chatHistory as Json[];
    expect(list.at(-1)?.content).toBe("Hello! How can I help?");
    const start = list.findIndex((e) => e.messageType === "tool-start");
    expect(list[start + 1]).toMatchObject({ messageType: "tool-error", toolName: "run_terminal_command" });
  });

  it("without the knob, a message during a turn queues and the turn completes", async () => {
    const c = client({ profile: "seed" });
    await c.send("#scenario:chat first");
    await c.state();
    const r = await c.send("#scenario:chat second");
    expect(r.willInterrupt).toBeUndefined();
    const list = (await pollUntilIdle(c)).at(-1)?.chatHistory as Json[];
    expect(list.map((e) => e.content)).toEqual([
      "#scenario:chat first",
      "Hello! How can I help?",
      "#scenario:chat second",
      "Hello! How can I help?",
    ]);
  });
});
