/**
 * Hostile targets end in verdicts within a bounded time: no crash, no hang, no vacuous pass.
 * Each runs with --timeout 1500 and a 256 KiB read cap.
 */
import { describe, expect, it } from "vitest";
import type { RunResult } from "../../../src/core/verdicts/result.js";
import { runSuite } from "../../../src/core/run/runner.js";
import { mcpChat } from "../../../src/suites/mcp-chat/index.js";
import { backendWithStream, behaviours, closedPortUrl, runAgainst, serve, type Handler } from "../../helpers/hostile-servers.js";
import { byId, explain, serverSide } from "../../helpers/run-results.js";

const TIMEOUT = 1500;
/** The probes stop after three unanswered exchanges in a row: a few timeouts, plus slack. */
const BOUND = 4 * TIMEOUT + 3000;

/** A run against its own hostile server, closed after the run (the tests run side by side: they mostly wait out timeouts). */
const against = async (handler: Handler) => runAgainst(mcpChat, await serve(handler), { timeout: TIMEOUT, maxBytes: 256 * 1024 });

const verdict = (r: RunResult, id: string) => byId(serverSide(r), `mcp-chat/${id}`).verdict;

/** Stream rules that a broken stream must never pass. */
const STREAM_SEMANTICS = ["tools/all-ended-before-done", "text/answer-present", "terminal/last-event", "terminal/connection-closes"];

describe.concurrent("hostile targets", () => {
  it("a closed port: every check incomplete, exit code 3", async () => {
    const url = await closedPortUrl();
    const r = await runSuite(mcpChat, { url, timeout: TIMEOUT });
    expect(serverSide(r).every((c) => c.verdict === "incomplete"), explain(serverSide(r))).toBe(true);
    expect(r.exitCode).toBe(3);
    expect(r.error).toMatch(/unreachable/);
  });

  describe.each(Object.entries(behaviours))("%s on every path", (_name, behaviour) => {
    it("ends in verdicts, none of them a pass", { timeout: BOUND + 5000 }, async () => {
      const { r, ms } = await against(behaviour);
      expect(ms).toBeLessThan(BOUND);
      const checks = serverSide(r);
      expect(checks).toHaveLength(45);
      expect(checks.filter((c) => c.verdict === "pass"), explain(checks)).toEqual([]);
      expect(r.exitCode).not.toBe(0);
      expect(checks.some((c) => c.message.startsWith("internal error")), explain(checks)).toBe(false);
    });
  });

  describe("behind a working backend, on POST /chat/stream only", () => {
    it("headers, then silence: the stream rules are incomplete", { timeout: BOUND + 5000 }, async () => {
      const { r, ms } = await against(backendWithStream(behaviours.headersThenHang));
      expect(ms).toBeLessThan(BOUND);
      for (const id of ["terminal/required", "sse/utf8", "sse/data-lines-only", ...STREAM_SEMANTICS]) expect(verdict(r, id), id).toBe("incomplete");
      expect(byId(serverSide(r), "mcp-chat/timing/profile").message).toMatch(/no event, 0 event\(s\).*body ended \(timeout\)/);
    });

    it("garbage bytes forever: read up to the cap, framing and UTF-8 fail", { timeout: BOUND + 5000 }, async () => {
      const { r, ms } = await against(backendWithStream(behaviours.garbageForever));
      expect(ms).toBeLessThan(BOUND);
      expect(verdict(r, "sse/data-lines-only")).toBe("fail");
      expect(verdict(r, "sse/utf8")).toBe("fail");
      expect(verdict(r, "terminal/required")).toBe("incomplete");
      for (const id of STREAM_SEMANTICS) expect(verdict(r, id), id).not.toBe("pass");
      expect(byId(serverSide(r), "mcp-chat/timing/profile").message).toMatch(/body ended \(limit\)/);
    });

    it("a reset in the middle of an event: the stream is truncated", { timeout: BOUND + 5000 }, async () => {
      const { r, ms } = await against(backendWithStream(behaviours.resetMidEvent));
      expect(ms).toBeLessThan(BOUND);
      const required = byId(serverSide(r), "mcp-chat/terminal/required");
      expect(required.verdict).toBe("fail");
      expect(required.message).toMatch(/ECONNRESET/);
      expect(verdict(r, "sse/one-data-line-per-event")).toBe("fail");
      for (const id of STREAM_SEMANTICS) expect(verdict(r, id), id).not.toBe("pass");
    });

    it("a stream that never ends: cut at the time limit, nothing vacuously passes", { timeout: BOUND + 5000 }, async () => {
      const { r, ms } = await against(backendWithStream(behaviours.neverEnds));
      expect(ms).toBeLessThan(BOUND);
      for (const id of ["terminal/required", "timing/streams-incrementally", ...STREAM_SEMANTICS]) expect(verdict(r, id), id).toBe("incomplete");
      expect(verdict(r, "sse/json-payload")).toBe("pass");
    });
  });
});
