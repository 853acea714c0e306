/**
 * The server catalogue is §4's, id for id and level for level (the mock's faults name these ids),
 * and the cn-session profile relaxes exactly what §5 says: never permission/approved-boolean.
 */
import { describe, expect, it } from "vitest";
import { CONTINUE_REMOTE_SERVER_CHECKS } from "../../../src/suites/continue-remote/checks/index.js";
import { continueRemote } from "../../../src/suites/continue-remote/index.js";
import { CN_SESSION } from "../../../src/suites/continue-remote/profiles.js";

const CATALOGUE: [string, "MUST" | "SHOULD" | "INFO"][] = [
  ["wire/state-json", "MUST"],
  ["wire/json-errors", "SHOULD"],
  ["state/schema", "MUST"],
  ["state/entry-schema", "MUST"],
  ["state/queue-length", "SHOULD"],
  ["state/idempotent-get", "MUST"],
  ["tools/entry-format", "MUST"],
  ["tools/result-legacy-content", "INFO"],
  ["tools/name-map", "SHOULD"],
  ["tools/start-resolves", "MUST"],
  ["tools/result-pairs-start", "SHOULD"],
  ["stream/single-last", "MUST"],
  ["stream/grows-by-append", "SHOULD"],
  ["poll/append-only", "MUST"],
  ["processing/message-not-lost", "MUST"],
  ["processing/true-while-handling", "MUST"],
  ["processing/false-when-done", "MUST"],
  ["processing/idle-invariants", "MUST"],
  ["processing/user-entry-verbatim", "MUST"],
  ["processing/turn-ends-with-assistant", "SHOULD"],
  ["message/accepted-shape", "MUST"],
  ["queue/position-while-processing", "MUST"],
  ["queue/fifo", "MUST"],
  ["queue/will-interrupt-honoured", "SHOULD"],
  ["bad-input/missing-or-empty-message", "MUST"],
  ["bad-input/non-string-message", "SHOULD"],
  ["bad-input/unparseable-body", "SHOULD"],
  ["bad-input/unknown-route", "MUST"],
  ["bad-input/server-survives", "MUST"],
  ["permission/pending-shape", "MUST"],
  ["permission/wrong-id", "MUST"],
  ["permission/approve", "MUST"],
  ["permission/deny", "SHOULD"],
  ["permission/approved-boolean", "SHOULD"],
  ["diff/shape", "SHOULD"],
  ["exit/shuts-down", "MUST"],
  ["exit/post-only", "MUST"],
  ["security/loopback-bind", "SHOULD"],
  ["security/no-auth", "INFO"],
  ["security/cors", "SHOULD"],
  ["security/simple-request-no-effect", "MUST"],
  ["timing/responsive", "SHOULD"],
  ["timing/intermediate-visible", "INFO"],
  ["session/id-stable", "MUST"],
  ["session/tool-state-per-call", "MUST"],
  ["session/tool-status-forward", "MUST"],
  ["session/tool-state-content", "SHOULD"],
  ["session/no-system-items", "SHOULD"],
  ["pause/semantics", "MUST"],
];

describe("continue-remote server catalogue", () => {
  it("has §4's 49 server checks, in its order, with its levels, each with a rule and a contract quote", () => {
    expect(CONTINUE_REMOTE_SERVER_CHECKS.map((c) => [c.id.replace(/^continue-remote\//, ""), c.level])).toEqual(CATALOGUE);
    for (const c of CONTINUE_REMOTE_SERVER_CHECKS) {
      expect(c.side, c.id).toBe("server");
      expect(c.ref.seed, c.id).toBe("000_7e761de32b24bfaa.txt");
      expect(c.ref.quote.length, c.id).toBeGreaterThan(10);
      expect(c.rule.length, c.id).toBeGreaterThan(20);
    }
    expect(continueRemote.checks.filter((c) => c.side === "server")).toHaveLength(49);
  });

  it("cn-session lowers exactly the 1.5.47 deviations of §5 to INFO, never approved-boolean", () => {
    expect(CN_SESSION.levels).toEqual({
      "continue-remote/wire/json-errors": "INFO",
      "continue-remote/bad-input/non-string-message": "INFO",
      "continue-remote/bad-input/unparseable-body": "INFO",
      "continue-remote/security/loopback-bind": "INFO",
    });
    expect(continueRemote.profiles.map((p) => p.name)).toEqual(["seed", "cn-session"]);
  });
});
