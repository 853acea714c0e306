/** The server-side check catalogue of §4: every id exists, with a seed reference; selection works. */
import { describe, expect, it } from "vitest";
import { UsageError, runSuite } from "../../../src/core/run/runner.js";
import { mcpChat } from "../../../src/suites/mcp-chat/index.js";
import { MCP_CHAT_SERVER_CHECKS } from "../../../src/suites/mcp-chat/checks/index.js";
import { serverSide } from "../../helpers/run-results.js";

/** Written out by hand from the catalogue, so a renamed or dropped check shows up here. */
const CATALOGUE = [
  "servers/list-shape",
  "servers/non-empty",
  "connect/success-shape",
  "connect/matches-listing",
  "connect/tool-shape",
  "connect/unknown-id-4xx",
  "connect/unknown-id-keeps-state",
  "status/connected-shape",
  "status/disconnected-shape",
  "state/single-connection",
  "state/reconnect-same-id",
  "disconnect/success-shape",
  "disconnect/clears-state",
  "disconnect/idempotent",
  "cors/preflight",
  "cors/allow-origin",
  "cors/credentials",
  "cors/foreign-origin",
  "sse/content-type",
  "sse/data-lines-only",
  "sse/one-data-line-per-event",
  "sse/lf-only",
  "sse/json-payload",
  "sse/utf8",
  "sse/event-per-write",
  "events/known-type",
  "events/schema",
  "tools/unique-ids",
  "tools/end-matches-start",
  "tools/all-ended-before-done",
  "tools/all-ended-before-error",
  "tools/name-in-tool-list",
  "tools/call-profile",
  "text/final-answer-only",
  "text/answer-present",
  "terminal/required",
  "terminal/last-event",
  "terminal/sentinel-format",
  "terminal/connection-closes",
  "timing/streams-incrementally",
  "timing/profile",
  "chat/bad-input-4xx",
  "chat/disconnected-rejected",
  "errors/detail-shape",
  "chat-sync/shape",
].map((id) => `mcp-chat/${id}`);

const LEVELS: Record<string, string> = {
  "mcp-chat/connect/matches-listing": "SHOULD",
  "mcp-chat/connect/unknown-id-keeps-state": "SHOULD",
  "mcp-chat/state/reconnect-same-id": "SHOULD",
  "mcp-chat/disconnect/idempotent": "SHOULD",
  "mcp-chat/cors/foreign-origin": "SHOULD",
  "mcp-chat/sse/event-per-write": "SHOULD",
  "mcp-chat/events/known-type": "SHOULD",
  "mcp-chat/tools/all-ended-before-error": "SHOULD",
  "mcp-chat/tools/name-in-tool-list": "SHOULD",
  "mcp-chat/tools/call-profile": "INFO",
  "mcp-chat/text/final-answer-only": "SHOULD",
  "mcp-chat/text/answer-present": "SHOULD",
  "mcp-chat/timing/profile": "INFO",
};

describe("mcp-chat server check catalogue", () => {
  it("has exactly the server checks of the catalogue, in its order", () => {
    expect(MCP_CHAT_SERVER_CHECKS.map((c) => c.id)).toEqual(CATALOGUE);
  });

  it("gives each check its catalogue level (MUST unless listed), the server side and a seed reference", () => {
    for (const c of MCP_CHAT_SERVER_CHECKS) {
      expect(c.level, c.id).toBe(LEVELS[c.id] ?? "MUST");
      expect(c.side, c.id).toBe("server");
      expect(c.ref.seed, c.id).toBe("002_f5cea501a704c7bf.txt");
      expect(c.ref.quote.length, c.id).toBeGreaterThan(10);
      expect(c.rule.length, c.id).toBeGreaterThan(10);
      expect(c.probes.length, c.id).toBeGreaterThan(0);
    }
  });

  it("is part of the protocol definition with unique ids", () => {
    const ids = mcpChat.checks.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of CATALOGUE) expect(ids).toContain(id);
  });
});

describe("check selection by prefix", () => {
  it("--only keeps the checks under a prefix, with or without the protocol part", async () => {
    const r = await runSuite(mcpChat, { only: ["cors/", "mcp-chat/terminal/required"] });
    expect(serverSide(r).map((c) => c.id)).toEqual([
      "mcp-chat/cors/preflight",
      "mcp-chat/cors/allow-origin",
      "mcp-chat/cors/credentials",
      "mcp-chat/cors/foreign-origin",
      "mcp-chat/terminal/required",
    ]);
    expect(r.checks.every((c) => c.verdict === "pass")).toBe(true);
    expect(r.exitCode).toBe(0);
  });

  it("--skip drops the checks under a prefix", async () => {
    const r = await runSuite(mcpChat, { skip: ["sse", "mcp-chat/tools/", "timing/profile"] });
    const ids = r.checks.map((c) => c.id);
    expect(ids.some((id) => id.startsWith("mcp-chat/sse") || id.startsWith("mcp-chat/tools/"))).toBe(false);
    expect(ids).not.toContain("mcp-chat/timing/profile");
    expect(ids).toContain("mcp-chat/timing/streams-incrementally");
    expect(ids).toHaveLength(CATALOGUE.length - 7 - 6 - 1);
  });

  it("refuses a selection that matches no server check", async () => {
    await expect(runSuite(mcpChat, { only: ["nope/"] })).rejects.toBeInstanceOf(UsageError);
  });
});
