import { describe, it, expect } from "vitest";
import { SchemaRegistry, formatSchemaErrors } from "../../src/core/schemas/schema-registry.js";
import { expectGeneratedFresh, itPointsAt, itRejectsEveryInvalidFixture, schemaFixtures } from "../helpers/schema-fixtures.js";

const PROTOCOL = "pi-web";
const FORK = "pi-fork-0.54";
const { fixtures, load } = schemaFixtures(PROTOCOL);
const registry = new SchemaRegistry();

const COMMANDS = [
  "prompt",
  "abort",
  "clear-queue",
  "get-state",
  "get-messages",
  "list-sessions",
  "switch-session",
  "new-session",
  "get-context-usage",
];
const EVENTS = [
  "agent-start",
  "agent-end",
  "turn-start",
  "turn-end",
  "message-start",
  "message-update",
  "message-end",
  "tool-execution-start",
  "tool-execution-update",
  "tool-execution-end",
  "session-changed",
  "extension-ui-request",
  "extension-error",
  "auto-compaction-start",
  "auto-compaction-end",
  "auto-retry-start",
  "auto-retry-end",
];
const CLIENT_MESSAGES = [...COMMANDS.map((c) => `${c}-command`), "extension-ui-response"];
const RESPONSES = [...COMMANDS.map((c) => `${c}-response`), "error-response"];
const SERVER_MESSAGES = [...RESPONSES, ...EVENTS.map((e) => `${e}-event`)];
const SHARED = [
  "agent-message",
  "assistant-message",
  "assistant-message-event",
  "content",
  "health",
  "image-content",
  "model",
  "session-summary",
  "text-content",
  "thinking-content",
  "tool-call-content",
  "tool-result",
  "tool-result-message",
  "user-message",
];

describe("pi-web schemas", () => {
  it("has a schema for every message of the contract", () => {
    expect(registry.messages(PROTOCOL)).toEqual(
      [...CLIENT_MESSAGES, "client-message", ...SERVER_MESSAGES, "response", "server-message", ...SHARED].sort(),
    );
  });

  it("every message has a valid fixture", () => {
    const covered = new Set(fixtures("valid").map(([message]) => message));
    const missing = registry.messages(PROTOCOL).filter((m) => !covered.has(m) && !["client-message", "server-message", "response"].includes(m));
    expect(missing).toEqual([]);
  });

  describe("valid fixtures (seed and contract examples)", () => {
    it.each(fixtures("valid"))("%s/%s", (message, _name, value) => {
      const r = registry.validate(PROTOCOL, message, value);
      expect(r.ok, r.ok ? "" : formatSchemaErrors(r.errors)).toBe(true);
    });
  });

  describe("the unions classify frames", () => {
    const frames = fixtures("valid").filter(([m]) => CLIENT_MESSAGES.includes(m) || SERVER_MESSAGES.includes(m));

    it.each(frames)("%s/%s", (message, _name, value) => {
      const client = registry.validate(PROTOCOL, "client-message", value);
      const server = registry.validate(PROTOCOL, "server-message", value);
      if (CLIENT_MESSAGES.includes(message)) {
        expect(client.ok, client.ok ? "" : formatSchemaErrors(client.errors)).toBe(true);
        expect(server.ok).toBe(false);
      } else {
        expect(server.ok, server.ok ? "" : formatSchemaErrors(server.errors)).toBe(true);
        expect(client.ok).toBe(false);
      }
      if (RESPONSES.includes(message)) expect(registry.validate(PROTOCOL, "response", value).ok).toBe(true);
    });

    it("a response for one command does not pass as another's", () => {
      const state = load("valid", "get-state-response", "mock");
      expect(registry.validate(PROTOCOL, "get-messages-response", state).ok).toBe(false);
      expect(registry.validate(PROTOCOL, "error-response", state).ok).toBe(false);
      const failure = load("valid", "error-response", "seed-session-not-found");
      expect(registry.validate(PROTOCOL, "switch-session-response", failure).ok).toBe(false);
    });
  });

  describe("invalid fixtures are rejected with JSON pointers", () => {
    itRejectsEveryInvalidFixture(fixtures("invalid"), (m, v) => registry.validate(PROTOCOL, m, v));

    // Representative cases (the doc's invalid list and a few faults): the error points at the offending field.
    const expected: [string, string, string][] = [
      ["prompt-command", "missing-message", "/message"],
      ["prompt-command", "message-array", "/message"],
      ["prompt-command", "streaming-behavior-steering", "/streamingBehavior"],
      ["prompt-command", "image-missing-mime-type", "/images/0/mimeType"],
      ["get-state-command", "id-number", "/id"],
      ["list-sessions-command", "scope-global", "/scope"],
      ["switch-session-command", "missing-session-path", "/sessionPath"],
      ["switch-session-command", "empty-session-path", "/sessionPath"],
      ["extension-ui-response", "confirmed-string", "/confirmed"],
      ["extension-ui-response", "missing-id", "/id"],
      ["extension-ui-response", "no-answer", ""],
      ["extension-ui-response", "value-and-cancelled", "/cancelled"],
      ["client-message", "unknown-type-bash", "/type"],
      ["response", "success-string", "/success"],
      ["response", "get-state-missing-data", "/data"],
      ["error-response", "missing-error", "/error"],
      ["error-response", "with-data", "/data"],
      ["get-state-response", "missing-data", "/data"],
      ["get-state-response", "missing-session-id", "/data/sessionId"],
      ["get-context-usage-response", "tokens-string", "/data/usage/tokens"],
      ["get-context-usage-response", "context-window-zero", "/data/usage/contextWindow"],
      ["get-context-usage-response", "tokens-null-percent-number", "/data/usage/percent"],
      ["assistant-message-event", "text-delta-missing-content-index", "/contentIndex"],
      ["assistant-message-event", "toolcall-end-missing-tool-call", "/toolCall"],
      ["assistant-message-event", "type-text-chunk", "/type"],
      ["message-update-event", "text-delta-missing-content-index", "/assistantMessageEvent/contentIndex"],
      ["message-update-event", "update-type-text-chunk", "/assistantMessageEvent/type"],
      ["tool-execution-start-event", "missing-tool-call-id", "/toolCallId"],
      ["tool-execution-end-event", "is-error-string", "/isError"],
      ["tool-execution-end-event", "snake-case-fields", "/toolCallId"],
      ["tool-execution-end-event", "snake-case-fields", "/isError"],
      ["session-changed-event", "reason-restart", "/reason"],
      ["extension-ui-request-event", "confirm-missing-title", "/title"],
      ["extension-ui-request-event", "select-missing-options", "/options"],
      ["assistant-message", "stop-reason-end-turn", "/stopReason"],
      ["assistant-message", "part-tool-use", "/content/0/type"],
      ["message-end-event", "stop-reason-end-turn", "/message/stopReason"],
      ["content", "tool-use", "/type"],
      ["list-sessions-response", "modified-not-iso", "/data/sessions/0/modified"],
      ["server-message", "unknown-event-type", "/type"],
    ];
    itPointsAt(expected, load, (m, v) => registry.validate(PROTOCOL, m, v));
  });

  describe(`${FORK} profile`, () => {
    it.each(fixtures(`valid-${FORK}`))(`%s/%s passes only under ${FORK}`, (message, _name, value) => {
      const r = registry.validate(PROTOCOL, message, value, FORK);
      expect(r.ok, r.ok ? "" : formatSchemaErrors(r.errors)).toBe(true);
      expect(registry.validate(PROTOCOL, message, value).ok).toBe(false);
    });

    it("still accepts every valid fixture", () => {
      for (const [message, name, value] of fixtures("valid")) {
        const r = registry.validate(PROTOCOL, message, value, FORK);
        expect(r.ok, `${message}/${name}: ${r.ok ? "" : formatSchemaErrors(r.errors)}`).toBe(true);
      }
    });

    // The overlays admit extra command types only; everything else stays as strict as the default.
    const relaxed = new Set(["client-message/unknown-type-bash", "response/unknown-command-success"]);
    it("still rejects every other invalid fixture", () => {
      for (const [message, name, value] of fixtures("invalid")) {
        const ok = registry.validate(PROTOCOL, message, value, FORK).ok;
        expect(ok, `${message}/${name}`).toBe(relaxed.has(`${message}/${name}`));
      }
    });

    it("extra commands still need a string type, and known commands keep their shapes", () => {
      expect(registry.validate(PROTOCOL, "client-message", { id: "t1" }, FORK).ok).toBe(false);
      expect(registry.validate(PROTOCOL, "client-message", { type: "" }, FORK).ok).toBe(false);
      expect(registry.validate(PROTOCOL, "client-message", { type: "prompt", message: 42 }, FORK).ok).toBe(false);
      const missingData = { type: "response", id: "req_4", command: "get_state", success: true };
      expect(registry.validate(PROTOCOL, "response", missingData, FORK).ok).toBe(false);
      expect(registry.validate(PROTOCOL, "server-message", missingData, FORK).ok).toBe(false);
    });
  });

  it("generated types are up to date", async () => {
    await expectGeneratedFresh(PROTOCOL);
  });
});
