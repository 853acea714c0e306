import { describe, it, expect } from "vitest";
import { SchemaRegistry, formatSchemaErrors } from "../../src/core/schemas/schema-registry.js";
import { expectGeneratedFresh, itPointsAt, itRejectsEveryInvalidFixture, schemaFixtures } from "../helpers/schema-fixtures.js";

const PROTOCOL = "continue-remote";
const CN = "cn-session";
const { fixtures, load } = schemaFixtures(PROTOCOL);
const registry = new SchemaRegistry();

const SEED = [
  "message-request",
  "permission-request",
  "state-response",
  "display-message",
  "tool-start-entry",
  "tool-result-entry",
  "tool-error-entry",
  "chat-entry",
  "pending-permission",
  "message-response",
  "permission-response",
  "diff-response",
  "exit-response",
  "error-response",
];
const CN_SESSION = [
  "state-response",
  "session",
  "chat-history-item",
  "chat-message",
  "tool-call",
  "tool-call-state",
  "context-item",
  "pending-permission",
  "message-response",
  "pause-response",
].map((m) => `${CN}/${m}`);
/** Messages both profiles have, whose cn-session shape the cn-session profile puts under the shared name. */
const OVERLAID = ["state-response", "pending-permission", "message-response"];

describe("continue-remote schemas", () => {
  it("has a schema for every message of the contract, the cn-session ones under cn-session/", () => {
    expect(registry.messages(PROTOCOL)).toEqual([...SEED, ...CN_SESSION].sort());
  });

  it("every message has a valid fixture", () => {
    const covered = new Set(fixtures("valid").map(([message]) => message));
    expect(registry.messages(PROTOCOL).filter((m) => !covered.has(m))).toEqual([]);
  });

  describe("valid fixtures (seed and contract examples)", () => {
    it.each(fixtures("valid"))("%s/%s", (message, _name, value) => {
      const r = registry.validate(PROTOCOL, message, value);
      expect(r.ok, r.ok ? "" : formatSchemaErrors(r.errors)).toBe(true);
    });
  });

  describe("the seed's examples", () => {
    const tools: [string, string][] = [
      ["seed-tool-start-message", "tool-start-entry"],
      ["seed-tool-result-message", "tool-result-entry"],
      ["seed-tool-error-message", "tool-error-entry"],
    ];
    it.each(tools)("%s validates as a display message and as its variant %s", (name, variant) => {
      const value = load("valid", "display-message", name);
      expect(registry.validate(PROTOCOL, "display-message", value).ok).toBe(true);
      expect(registry.validate(PROTOCOL, variant, value).ok).toBe(true);
      // Only its own variant: the if/then picks one shape per messageType.
      for (const [, other] of tools.filter(([, v]) => v !== variant)) {
        expect(registry.validate(PROTOCOL, other, value).ok, other).toBe(false);
      }
      expect(registry.validate(PROTOCOL, "chat-entry", value).ok).toBe(false);
    });

    it("every entry of the Example Response is a valid display message", () => {
      const example = load("valid", "state-response", "seed-example-response") as { chatHistory: unknown[] };
      expect(example.chatHistory).toHaveLength(4);
      for (const entry of example.chatHistory) {
        const r = registry.validate(PROTOCOL, "display-message", entry);
        expect(r.ok, r.ok ? "" : formatSchemaErrors(r.errors)).toBe(true);
      }
    });
  });

  describe("invalid fixtures are rejected with JSON pointers", () => {
    itRejectsEveryInvalidFixture(fixtures("invalid"), (m, v) => registry.validate(PROTOCOL, m, v));

    // Every invalid example of the contract: the error points at the offending field.
    const expected: [string, string, string][] = [
      ["state-response", "missing-chat-history", "/chatHistory"],
      ["state-response", "chat-history-object", "/chatHistory"],
      ["state-response", "is-processing-string", "/isProcessing"],
      ["state-response", "queue-length-negative", "/messageQueueLength"],
      ["display-message", "role-tool", "/role"],
      ["display-message", "content-null", "/content"],
      ["display-message", "is-streaming-string", "/isStreaming"],
      ["display-message", "message-type-tool-permission-request", "/messageType"],
      ["display-message", "tool-start-missing-tool-name", "/toolName"],
      ["display-message", "tool-start-role-assistant", "/role"],
      ["display-message", "tool-start-without-circle", "/content"],
      ["display-message", "tool-result-missing-tool-result", "/toolResult"],
      ["display-message", "tool-error-without-cross", "/content"],
      ["message-request", "message-empty", "/message"],
      ["message-request", "message-number", "/message"],
      ["message-request", "missing-message", "/message"],
      ["permission-request", "approved-string", "/approved"],
      ["message-response", "position-zero", "/position"],
      [`${CN}/state-response`, "missing-pending-permission", "/pendingPermission"],
      [`${CN}/state-response`, "item-missing-context-items", "/session/history/1/contextItems"],
      [`${CN}/state-response`, "tool-status-running", "/session/history/1/toolCallStates/0/status"],
      [`${CN}/state-response`, "tool-call-arguments-object", "/session/history/1/message/toolCalls/0/function/arguments"],
      [`${CN}/state-response`, "tool-message-missing-tool-call-id", "/session/history/2/message/toolCallId"],
      [`${CN}/state-response`, "session-id-empty", "/session/sessionId"],
    ];
    itPointsAt(expected, load, (m, v) => registry.validate(PROTOCOL, m, v));

    it("messageType system is for system entries only", () => {
      const r = registry.validate(PROTOCOL, "display-message", { role: "user", content: "x", messageType: "system" });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.errors.map((e) => e.pointer)).toContain("/messageType");
      expect(registry.validate(PROTOCOL, "display-message", { role: "system", content: "x", messageType: "system" }).ok).toBe(true);
    });

    it("lists one fixture per invalid example", () => {
      expect(fixtures("invalid").map(([m, n]) => `${m}/${n}`).sort()).toEqual(expected.map(([m, n]) => `${m}/${n}`).sort());
    });
  });

  describe(`${CN} snapshots`, () => {
    const snapshots = fixtures("valid").filter(([m]) => m === `${CN}/state-response`);

    it("a tool call in every status", () => {
      const statuses = new Set<string>();
      for (const [, , value] of snapshots) {
        const history = (value as { session: { history: { toolCallStates?: { status: string }[] }[] } }).session.history;
        for (const item of history) for (const s of item.toolCallStates ?? []) statuses.add(s.status);
      }
      expect([...statuses].sort()).toEqual(["calling", "canceled", "done", "errored", "generated", "generating"]);
    });

    it("a seed snapshot is not a cn-session snapshot, nor the reverse", () => {
      expect(registry.validate(PROTOCOL, `${CN}/state-response`, load("valid", "state-response", "seed-example-response")).ok).toBe(false);
      expect(registry.validate(PROTOCOL, "state-response", load("valid", `${CN}/state-response`, "tool-done")).ok).toBe(false);
    });
  });

  describe(`${CN} profile: the shared names take the cn-session shapes`, () => {
    const cases = fixtures("valid").filter(([m]) => OVERLAID.some((o) => m === `${CN}/${o}`));

    it.each(cases)("%s/%s is valid as its shared name", (message, _name, value) => {
      const shared = message.slice(CN.length + 1);
      const r = registry.validate(PROTOCOL, shared, value, CN);
      expect(r.ok, r.ok ? "" : formatSchemaErrors(r.errors)).toBe(true);
    });

    it("state-response rejects the seed snapshot and keeps the cn-session pointers", () => {
      expect(registry.validate(PROTOCOL, "state-response", load("valid", "state-response", "seed-example-response"), CN).ok).toBe(false);
      const r = registry.validate(PROTOCOL, "state-response", load("invalid", `${CN}/state-response`, "tool-status-running"), CN);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.errors.map((e) => e.pointer)).toContain("/session/history/1/toolCallStates/0/status");
    });

    it("every other message keeps its seed shape", () => {
      for (const [message, name, value] of [...fixtures("valid"), ...fixtures("invalid")]) {
        if (OVERLAID.includes(message)) continue;
        const def = registry.validate(PROTOCOL, message, value).ok;
        expect(registry.validate(PROTOCOL, message, value, CN).ok, `${message}/${name}`).toBe(def);
      }
    });
  });

  it("generated types are up to date", async () => {
    await expectGeneratedFresh(PROTOCOL);
  });
});
