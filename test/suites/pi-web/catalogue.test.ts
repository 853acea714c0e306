/** The server-side check catalogue of §4: every id exists, at its level, with a seed reference. */
import { describe, expect, it } from "vitest";
import { PI_WEB_SERVER_CHECKS } from "../../../src/suites/pi-web/checks/index.js";
import { piWeb } from "../../../src/suites/pi-web/index.js";

/** Written out by hand from the catalogue, so a renamed or dropped check shows up here. */
const CATALOGUE = [
  "conn/ws-upgrade",
  "conn/other-path-404",
  "conn/token-401",
  "conn/origin-403",
  "conn/health",
  "framing/json-object-frames",
  "framing/server-schema",
  "framing/known-types",
  "rpc/response-per-command",
  "rpc/response-echo",
  "rpc/single-response",
  "rpc/result-shape",
  "rpc/unknown-command",
  "rpc/bad-input",
  "rpc/response-unicast",
  "cmd/prompt-accepted",
  "cmd/prompt-busy",
  "cmd/prompt-invalid",
  "cmd/prompt-images",
  "cmd/get-state-streaming",
  "cmd/get-messages",
  "cmd/list-sessions",
  "cmd/list-sessions-default-scope",
  "cmd/switch-session",
  "cmd/switch-session-missing",
  "cmd/new-session",
  "cmd/clear-queue",
  "cmd/abort",
  "cmd/abort-order",
  "queue/steer-injected",
  "queue/steer-skips-tools",
  "queue/follow-up-at-end",
  "queue/abort-keeps-queue",
  "event/agent-bracketing",
  "event/extras-consistent",
  "event/message-nesting",
  "event/error-run",
  "stream/block-grammar",
  "stream/end-values",
  "stream/toolcall-end",
  "stream/stop-reason",
  "stream/observed-variants",
  "stream/incremental",
  "tool/pairing",
  "tool/round-trip",
  "session/changed",
  "fanout/broadcast",
  "ext/dialog-resolves",
  "ext/first-reply-wins",
  "ext/stray-reply-ignored",
  "history/message-shapes",
  "timing/query-latency",
].map((id) => `pi-web/${id}`);

const SHOULD = [
  "conn/other-path-404",
  "conn/origin-403",
  "conn/health",
  "framing/known-types",
  "cmd/prompt-invalid",
  "cmd/prompt-images",
  "cmd/get-state-streaming",
  "cmd/abort-order",
  "queue/abort-keeps-queue",
  "event/extras-consistent",
  "stream/toolcall-end",
  "stream/incremental",
  "timing/query-latency",
].map((id) => `pi-web/${id}`);
const INFO = ["pi-web/stream/observed-variants"];

describe("pi-web server check catalogue", () => {
  it("has exactly the server checks of the catalogue, in its order", () => {
    expect(PI_WEB_SERVER_CHECKS.map((c) => c.id)).toEqual(CATALOGUE);
  });

  it("gives each check its catalogue level, the server side and a seed reference", () => {
    for (const c of PI_WEB_SERVER_CHECKS) {
      expect(c.level, c.id).toBe(SHOULD.includes(c.id) ? "SHOULD" : INFO.includes(c.id) ? "INFO" : "MUST");
      expect(c.side, c.id).toBe("server");
      expect(c.ref.seed, c.id).toBe("004_88f3c17269c3c25a.txt");
      expect(c.ref.section.length, c.id).toBeGreaterThan(3);
      expect(c.ref.quote.length, c.id).toBeGreaterThan(10);
      expect(c.rule.length, c.id).toBeGreaterThan(10);
      expect(c.probes.length, c.id).toBeGreaterThan(0);
    }
  });

  it("is part of the protocol definition, unique per side; the both-sided framing rule has a client half", () => {
    const keys = piWeb.checks.map((c) => `${c.side} ${c.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const id of CATALOGUE) expect(keys).toContain(`server ${id}`);
    expect(keys).toContain("client pi-web/framing/json-object-frames");
    expect(piWeb.checks.filter((c) => c.side === "server").map((c) => c.id)).toEqual(CATALOGUE);
  });

  it("names every fault's checks by their full ids", () => {
    const ids = new Set(piWeb.checks.map((c) => c.id));
    for (const f of piWeb.faults) for (const id of f.violates) expect(ids.has(id), `${f.name}: ${id}`).toBe(true);
  });
});
