/**
 * The kit's own hold-ups: the watch notices a blocked event loop, and a live run records each one
 * in its transcript (a `kit-stall` note), where timing rules and replays read it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KIT_STALL_NOTE, KitStalls } from "../../src/core/checks/kit-stalls.js";
import { runSuite } from "../../src/core/run/runner.js";
import { watchStalls } from "../../src/core/run/stall-watch.js";
import { readTranscript } from "../../src/core/transcript/transcript.js";
import { mcpChat } from "../../src/suites/mcp-chat/index.js";

const block = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe("watchStalls", () => {
  it("reports a blocked event loop with its span", () => {
    const seen: [number, number][] = [];
    const watch = watchStalls((from, to) => seen.push([from, to]));
    try {
      const before = performance.now();
      block(80);
      watch.flush();
      expect(seen.length).toBe(1);
      const [from, to] = seen[0]!;
      expect(from).toBeGreaterThanOrEqual(before - 20);
      expect(to - from).toBeGreaterThanOrEqual(50);
    } finally {
      watch.stop();
    }
  });
});

describe("KitStalls", () => {
  it("tells how much earlier than a read its data may have come: the hold-up the read came out of", () => {
    const stalls = new KitStalls();
    const note = (from: number, to: number) => stalls.observe({ kind: "note", probe: "kit", name: KIT_STALL_NOTE, value: { from, to }, seq: 0, t: to });
    note(10, 30);
    note(50, 100);
    expect(stalls.heldBefore(105)).toBe(50);
    expect(stalls.heldBefore(80)).toBe(30);
    // Read well after the hold-up ended: the kit was reading when the data came.
    expect(stalls.heldBefore(200)).toBe(0);
    expect(stalls.heldBefore(5)).toBe(0);
  });
});

describe("a live run", () => {
  it("records the kit's hold-ups in its transcript", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentwire-stall-"));
    try {
      let blocked = false;
      // The first progress line comes mid-run: the kit is held up there for 80 ms.
      await runSuite(mcpChat, { only: ["mcp-chat/status"], saveTranscript: dir, progress: () => (blocked ||= (block(80), true)) });
      expect(blocked).toBe(true);
      const file = readdirSync(dir).find((f) => f.endsWith(".jsonl"))!;
      const notes = readTranscript(readFileSync(join(dir, file), "utf8")).events.filter((e) => e.kind === "note" && e.name === KIT_STALL_NOTE);
      expect(notes.length).toBeGreaterThanOrEqual(1);
      const held = notes.map((n) => (n.kind === "note" ? (n.value as { from: number; to: number }) : { from: 0, to: 0 }));
      expect(Math.max(...held.map((h) => h.to - h.from))).toBeGreaterThanOrEqual(50);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
