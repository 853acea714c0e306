import { describe, it, expect } from "vitest";
import { SchemaRegistry, formatSchemaErrors } from "../../src/core/schemas/schema-registry.js";
import { expectGeneratedFresh, itPointsAt, itRejectsEveryInvalidFixture, schemaFixtures } from "../helpers/schema-fixtures.js";

const PROTOCOL = "mcp-chat";
const { fixtures, load } = schemaFixtures(PROTOCOL);
const registry = new SchemaRegistry();

describe("mcp-chat schemas", () => {
  it("has a schema for every message of the contract", () => {
    expect(registry.messages(PROTOCOL)).toEqual(
      [
        "chat-request",
        "chat-response",
        "connect-response",
        "disconnect-response",
        "error-response",
        "server",
        "server-list",
        "status-response",
        "stream-event",
        "stream-sentinel",
        "text-event",
        "tool",
        "tool-end-event",
        "tool-start-event",
      ].sort(),
    );
  });

  describe("valid fixtures (seed examples)", () => {
    it.each(fixtures("valid"))("%s/%s", (message, _name, value) => {
      const r = registry.validate(PROTOCOL, message, value);
      expect(r.ok, r.ok ? "" : formatSchemaErrors(r.errors)).toBe(true);
    });
  });

  describe("invalid fixtures are rejected with JSON pointers", () => {
    itRejectsEveryInvalidFixture(fixtures("invalid"), (m, v) => registry.validate(PROTOCOL, m, v));

    // Representative cases: the error points at the offending field.
    const expected: [string, string, string][] = [
      ["server", "missing-path", "/path"],
      ["server", "id-number", "/id"],
      ["connect-response", "missing-tools", "/tools"],
      ["tool", "description-null", "/description"],
      ["status-response", "connected-server-id-null", "/server_id"],
      ["status-response", "connected-string", "/connected"],
      ["status-response", "disconnected-with-server-id", "/server_id"],
      ["chat-request", "empty-object", "/message"],
      ["chat-request", "message-number", "/message"],
      ["tool-start-event", "args-array", "/args"],
      ["tool-start-event", "id-empty", "/id"],
      ["tool-end-event", "missing-name", "/name"],
      ["text-event", "content-null", "/content"],
      ["error-response", "detail-array", "/detail"],
      ["chat-response", "tool-calls-object", "/tool_calls"],
      ["stream-sentinel", "error-without-space", ""],
    ];
    itPointsAt(expected, load, (m, v) => registry.validate(PROTOCOL, m, v));
  });

  describe("budget-master profile", () => {
    it.each(fixtures("valid-budget-master"))("%s/%s passes only under budget-master", (message, _name, value) => {
      const r = registry.validate(PROTOCOL, message, value, "budget-master");
      expect(r.ok, r.ok ? "" : formatSchemaErrors(r.errors)).toBe(true);
      expect(registry.validate(PROTOCOL, message, value).ok).toBe(false);
    });

    it("still accepts every seed example", () => {
      for (const [message, name, value] of fixtures("valid")) {
        expect(registry.validate(PROTOCOL, message, value, "budget-master").ok, `${message}/${name}`).toBe(true);
      }
    });

    it("still rejects incomplete extra events", () => {
      expect(registry.validate(PROTOCOL, "stream-event", { type: "error" }, "budget-master").ok).toBe(false);
      expect(registry.validate(PROTOCOL, "stream-event", { type: "conversation_id" }, "budget-master").ok).toBe(false);
    });
  });

  it("generated types are up to date", async () => {
    await expectGeneratedFresh(PROTOCOL);
  });
});
