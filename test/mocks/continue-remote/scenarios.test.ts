import { describe, expect, it } from "vitest";
import { SCENARIOS, SEED_README } from "../../../src/mocks/continue-remote/scenarios.js";
import { client, entries, expectValid, pollUntilIdle, type Json, type Profile } from "./helpers.js";

const PROFILES: Profile[] = ["seed", "cn-session"];

describe.each(PROFILES)("continue-remote mock, profile %s: every scenario under the poll clock", (profile) => {
  it.each(SCENARIOS.map((s) => s.name))("%s: valid snapshots, consistent between polls, ends idle with an answer", async (name) => {
    const c = client({ profile });
    const first = await c.state();
    expect(entries(first, profile)).toEqual([]);
    expect(first.isProcessing).toBe(false);

    const text = `#scenario:${name} please`;
    expect(await c.send(text)).toMatchObject({ queued: true, position: 1 });
    const seen = await pollUntilIdle(c);
    // Steps are visible one poll at a time: the dequeued user entry first, busy, then the turn.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(entries(seen[0] as Json, profile)).toHaveLength(1);
    expect(seen[0]?.isProcessing).toBe(true);
    expect(seen.slice(0, -1).every((s) => s.isProcessing)).toBe(true);

    const last = seen.at(-1) as Json;
    const list = entries(last, profile);
    if (profile === "seed") {
      expect(list[0]).toEqual({ role: "user", content: text });
      expect(list.at(-1)?.role).toBe("assistant");
      // Every tool-start was resolved, in place or by the next entry.
      list.forEach((e, i) => {
        if (e.messageType === "tool-start") expect(["tool-result", "tool-error"]).toContain(list[i + 1]?.messageType);
      });
    } else {
      expect(list[0]).toEqual({ message: { role: "user", content: text }, contextItems: [], editorState: text });
      expect(list.at(-1)?.message.role).toBe("assistant");
      expect(list.at(-1)?.message.toolCalls).toBeUndefined();
    }
    // An idle GET changes nothing.
    expect(await c.state()).toEqual(last);
  });
});

describe("continue-remote mock, seed profile specifics", () => {
  it("streams the preamble by appending, then resolves the tool-start with an appended result", async () => {
    const c = client({ profile: "seed" });
    await c.send("#scenario:read-file");
    const seen = await pollUntilIdle(c);
    const streamed = seen.map((s) => s.chatHistory.at(-1)).filter((e: Json) => e.isStreaming === true);
    expect(streamed.length).toBeGreaterThan(2);
    const starts = seen.filter((s) => s.chatHistory.at(-1).messageType === "tool-start");
    expect(starts.length).toBeGreaterThanOrEqual(1);
    expect(starts[0].isProcessing).toBe(true);
    const final = seen.at(-1)?.chatHistory as Json[];
    expect(final.map((e) => e.content)).toEqual([
      "#scenario:read-file",
      "I'll read the README file.",
      "○ Read(README.md)",
      "● Read(README.md)",
      "I've read the README file. It contains installation instructions that recommend running `npm install`.",
    ]);
    expect(final[3]).toMatchObject({ messageType: "tool-result", toolName: "read_file", toolResult: SEED_README });
    expect(final[4].isStreaming).toBe(false);
  });

  it("seed-example ends on exactly the seed's Example Response", async () => {
    const c = client({ profile: "seed", defaultScenario: "seed-example", reportQueue: false, reportPending: false });
    await c.send("Read the README file");
    const last = (await pollUntilIdle(c)).at(-1);
    expect(last).toEqual({
      chatHistory: [
        { role: "user", content: "Read the README file" },
        { role: "system", content: "○ Read(README.md)", messageType: "tool-start", toolName: "read_file" },
        { role: "system", content: "● Read(README.md)", messageType: "tool-result", toolName: "read_file", toolResult: SEED_README },
        {
          role: "assistant",
          content: "I've read the README file. It contains installation instructions that recommend running `npm install`.",
        },
      ],
      isProcessing: false,
    });
  });

  it("legacy-replace and resultMode=replace resolve the start in place", async () => {
    const legacy = client({ profile: "seed" });
    await legacy.send("#scenario:legacy-replace");
    const a = (await pollUntilIdle(legacy)).at(-1)?.chatHistory as Json[];
    expect(a[2]).toMatchObject({ content: "● Read", messageType: "tool-result", toolName: "read_file" });
    expect(a.some((e) => e.messageType === "tool-start")).toBe(false);

    const replace = client({ profile: "seed", resultMode: "replace" });
    await replace.send("#scenario:bash");
    const b = (await pollUntilIdle(replace)).at(-1)?.chatHistory as Json[];
    expect(b[2]).toMatchObject({ content: "● Bash(ls -la)", toolName: "run_terminal_command" });
  });

  it("chatMessageType marks chat entries; the name table is followed", async () => {
    const c = client({ profile: "seed", chatMessageType: true });
    await c.send("#scenario:multi-tool");
    const list = (await pollUntilIdle(c)).at(-1)?.chatHistory as Json[];
    for (const e of list.filter((x) => x.role === "assistant")) expect(e.messageType).toBe("chat");
    expect(list.filter((e) => e.messageType === "tool-start").map((e) => [e.content, e.toolName])).toEqual([
      ["○ Read(README.md)", "read_file"],
      ["○ Bash(ls -la)", "run_terminal_command"],
    ]);
  });

  it("tool-error appends ✗ after the start; llm-error ends with an unstreamed Error entry", async () => {
    const c = client({ profile: "seed" });
    await c.send("#scenario:tool-error");
    const list = (await pollUntilIdle(c)).at(-1)?.chatHistory as Json[];
    expect(list.slice(2, 4).map((e) => e.content)).toEqual(["○ Read(missing.txt)", "✗ Tool error: File not found"]);
    expectValid("tool-error-entry", list[3], "seed");

    await c.send("#scenario:llm-error");
    const seen = await pollUntilIdle(c);
    expect(seen.some((s) => s.chatHistory.at(-1).isStreaming)).toBe(false);
    expect(seen.at(-1)?.chatHistory.at(-1)).toEqual({ role: "assistant", content: "Error: 500 mock upstream failure" });
  });

  it("long-output carries 256 KiB; unicode streams whole code points", async () => {
    const c = client({ profile: "seed", chunkChars: 1 });
    await c.send("#scenario:long-output");
    const list = (await pollUntilIdle(c)).at(-1)?.chatHistory as Json[];
    expect(list.find((e) => e.messageType === "tool-result")?.toolResult).toHaveLength(256 * 1024);

    await c.send("#scenario:unicode");
    const seen = await pollUntilIdle(c);
    for (const s of seen) {
      const content = s.chatHistory.at(-1).content as string;
      // With the u flag, only a lone surrogate matches: a chunk never splits a pair.
      expect(content).not.toMatch(/\p{Cs}/u);
    }
    expect(seen.at(-1)?.chatHistory.at(-1).content).toContain("👨‍👩‍👧‍👦");
  });

  it("slow streams its preamble in 60 chunks", async () => {
    const c = client({ profile: "seed" });
    await c.send("#scenario:slow");
    const seen = await pollUntilIdle(c);
    const growing = seen.filter((s) => s.chatHistory.length === 2 && s.chatHistory[1].isStreaming);
    expect(growing).toHaveLength(60);
  });
});

describe("continue-remote mock, cn-session profile specifics", () => {
  it("appends complete items whose tool states move generated → calling → done in place", async () => {
    const c = client({ profile: "cn-session" });
    await c.send("#scenario:read-file");
    const seen = await pollUntilIdle(c);
    const statuses = seen
      .map((s) => s.session.history[1]?.toolCallStates?.[0]?.status)
      .filter((x, i, a) => x !== undefined && x !== a[i - 1]);
    expect(statuses).toEqual(["generated", "calling", "done"]);
    const last = seen.at(-1) as Json;
    const tool = last.session.history[1];
    expect(tool.message).toMatchObject({
      role: "assistant",
      content: "I'll read the README file.",
      toolCalls: [{ id: "call_1", type: "function", function: { name: "Read", arguments: '{"filepath":"README.md"}' } }],
      usage: { model: "mock-model" },
    });
    expect(tool.toolCallStates[0].output).toEqual([
      { content: SEED_README, name: "Tool Result", description: "Tool execution result" },
    ]);
    expect(last.session).toMatchObject({
      sessionId: "00000000-0000-4000-8000-000000000001",
      title: "Untitled Session",
      workspaceDirectory: "/workspace",
    });
    expect(last.session.usage.promptTokens).toBeGreaterThan(0);
    // Partial text is never visible: every assistant item appears with its final content.
    const contents = new Set(seen.flatMap((s) => s.session.history.map((i: Json) => JSON.stringify(i.message.content))));
    expect(contents.size).toBe(3);
  });

  it("tool-error ends errored; call ids count up across turns", async () => {
    const c = client({ profile: "cn-session" });
    await c.send("#scenario:tool-error");
    await pollUntilIdle(c);
    await c.send("#scenario:multi-tool");
    const history = (await pollUntilIdle(c)).at(-1)?.session.history as Json[];
    expect(history[1].toolCallStates[0]).toMatchObject({ toolCallId: "call_1", status: "errored" });
    expect(history[1].toolCallStates[0].output[0].content).toBe("File not found");
    const ids = history.flatMap((i) => (i.message.toolCalls ?? []).map((t: Json) => t.id));
    expect(ids).toEqual(["call_1", "call_2", "call_3"]);
  });
});

describe("continue-remote mock, time clock", () => {
  it.each(PROFILES)("%s: a turn runs on its own with the pacing", async (profile) => {
    const c = client({ profile, clock: "time", thinkMs: 5, chunkMs: 1, gapMs: 2, toolMs: 5, chunkChars: 20 });
    await c.send("#scenario:read-file");
    const seen: Json[] = [await c.state()];
    const deadline = Date.now() + 5000;
    while (seen.at(-1)?.isProcessing && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 2));
      seen.push(await c.state());
    }
    expect(seen.at(-1)?.isProcessing).toBe(false);
    expect(entries(seen.at(-1) as Json, profile).length).toBe(profile === "seed" ? 5 : 3);
    c.engine.dispose();
  });

  it("speed 0 applies a whole turn before the POST is answered", async () => {
    const c = client({ profile: "seed", clock: "time", speed: 0 });
    await c.send("#scenario:multi-tool");
    const s = await c.state();
    expect(s.isProcessing).toBe(false);
    expect(s.chatHistory.at(-1).content).toMatch(/^The README asks/);
  });

  it("manual clock: GET never advances, /__agentwire/step does", async () => {
    const c = client({ profile: "seed", clock: "manual" });
    await c.send("#scenario:chat");
    const a = await c.state();
    expect(await c.state()).toEqual(a);
    expect(a.chatHistory).toHaveLength(1);
    const r = await c.post("/__agentwire/step");
    expect(r.body.stepped).toBe(true);
    expect(r.body.state.chatHistory[1]).toMatchObject({ role: "assistant", isStreaming: true });
    expect((await c.state()).chatHistory).toHaveLength(2);
  });
});
