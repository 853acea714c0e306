/** The server-side check catalogue of §4: every id exists, with its level and a seed reference. */
import { describe, expect, it } from "vitest";
import { runSuite } from "../../../src/core/run/runner.js";
import { OPENAI_CHAT_SERVER_CHECKS } from "../../../src/suites/openai-chat/checks/index.js";
import { openaiChat } from "../../../src/suites/openai-chat/index.js";
import { OPENAI_CHAT_PROFILES } from "../../../src/suites/openai-chat/profiles.js";
import { judgeArgs } from "../../../src/suites/openai-chat/catalogue.js";
import { serverSide } from "../../helpers/run-results.js";

/** Written out by hand from §4, in its order, with its levels. */
const CATALOGUE: [string, "MUST" | "SHOULD" | "INFO"][] = [
  ["auth/rejects-unauthenticated", "MUST"],
  ["models/list-shape", "MUST"],
  ["sse/content-type", "MUST"],
  ["sse/data-json", "MUST"],
  ["sse/canonical-framing", "SHOULD"],
  ["sse/utf8", "MUST"],
  ["done/present", "SHOULD"],
  ["done/last-event", "MUST"],
  ["done/connection-closes", "MUST"],
  ["envelope/fields", "SHOULD"],
  ["chunk/choices-array", "MUST"],
  ["chunk/choice-index", "MUST"],
  ["delta/shape", "MUST"],
  ["delta/role-first", "MUST"],
  ["delta/no-empty-tool-calls", "SHOULD"],
  ["delta/content-with-tool-calls", "SHOULD"],
  ["tool-call/index-integer", "MUST"],
  ["tool-call/first-delta-complete", "MUST"],
  ["tool-call/id-stable", "MUST"],
  ["tool-call/identity-once", "SHOULD"],
  ["tool-call/ids-unique", "MUST"],
  ["tool-call/arguments-string", "MUST"],
  ["tool-call/arguments-join-to-object", "MUST"],
  ["tool-call/arguments-valid-for-tool", "MUST"],
  ["tool-call/arguments-no-unknown-keys", "SHOULD"],
  ["tool-call/no-arg-empty-object", "SHOULD"],
  ["tool-call/name-in-request-tools", "MUST"],
  ["tool-call/parallel-distinct-indexes", "MUST"],
  ["tool-call/parallel-sequential", "SHOULD"],
  ["tool-call/parallel-false-honoured", "SHOULD"],
  ["tool-call/exclusive-not-parallel", "SHOULD"],
  ["tool-call/honours-tool-choice", "SHOULD"],
  ["tool-call/streaming-parity", "SHOULD"],
  ["finish/exactly-once", "MUST"],
  ["finish/matches-tool-calls", "MUST"],
  ["finish/nothing-after-finish", "SHOULD"],
  ["usage/only-final-chunk", "MUST"],
  ["usage/matches-request", "SHOULD"],
  ["errors/shape", "MUST"],
  ["errors/pre-stream-status", "MUST"],
  ["errors/in-stream-shape", "MUST"],
  ["errors/bad-input-400", "MUST"],
  ["sync/response-shape", "MUST"],
  ["turn/follow-up-accepted", "MUST"],
  ["turn/follow-up-final-answer", "SHOULD"],
  ["request/continue-shape-accepted", "MUST"],
  ["request/not-reset", "MUST"],
  ["timing/streams-incrementally", "MUST"],
  ["stream/profile", "INFO"],
];

describe("openai-chat server check catalogue", () => {
  it("has the 48 server checks of §4 and request/not-reset, in its order", () => {
    expect(CATALOGUE).toHaveLength(49);
    expect(OPENAI_CHAT_SERVER_CHECKS.map((c) => c.id)).toEqual(CATALOGUE.map(([id]) => `openai-chat/${id}`));
  });

  it("gives each check its level, the server side, a rule and a seed reference", () => {
    for (const [id, level] of CATALOGUE) {
      const c = OPENAI_CHAT_SERVER_CHECKS.find((x) => x.id === `openai-chat/${id}`)!;
      expect(c.level, id).toBe(level);
      expect(c.side, id).toBe("server");
      expect(c.ref.seed, id).toBe("001_ba8f1763064c3ebc.txt");
      expect(c.ref.section, id).toMatch(/^§[1-4]/);
      expect(c.ref.quote.length, id).toBeGreaterThan(5);
      expect(c.rule.length, id).toBeGreaterThan(20);
      expect(c.probes.length, id).toBeGreaterThan(0);
    }
  });

  it("is part of the protocol definition, beside the client checks, with unique ids", () => {
    const ids = openaiChat.checks.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [id] of CATALOGUE) expect(ids).toContain(`openai-chat/${id}`);
    expect(openaiChat.checks.some((c) => c.side === "client")).toBe(true);
    expect(openaiChat.seed).toBe("001_ba8f1763064c3ebc.txt");
    expect(openaiChat.defaultPort).toBe(8000);
    expect(openaiChat.auth).toEqual({ token: "bearer", env: "OPENAI_API_KEY" });
    expect(openaiChat.clientEnv?.("http://127.0.0.1:9")).toEqual({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "agentwire-test-key" });
  });

  it("has the profiles of §5, and their level changes name existing checks", () => {
    expect(OPENAI_CHAT_PROFILES.map((p) => p.name)).toEqual(["seed", "openai-compatible", "continue-2026", "continue-cli-2026"]);
    const ids = new Set(OPENAI_CHAT_SERVER_CHECKS.map((c) => c.id));
    for (const p of OPENAI_CHAT_PROFILES) for (const id of Object.keys(p.levels ?? {})) expect(ids.has(id), `${p.name}: ${id}`).toBe(true);
  });
});

describe("check selection by prefix", () => {
  it("--only keeps the checks under a prefix", async () => {
    const r = await runSuite(openaiChat, { only: ["done/", "openai-chat/models/list-shape"] });
    expect(serverSide(r).map((c) => c.id)).toEqual(["openai-chat/models/list-shape", "openai-chat/done/present", "openai-chat/done/last-event", "openai-chat/done/connection-closes"]);
    expect(r.checks.every((c) => c.verdict === "pass")).toBe(true);
    expect(r.exitCode).toBe(0);
  });
});

describe("arguments of a tool outside the catalogue are judged by the request's parameters", () => {
  it("whatever dialect they name, with an $id or not, on every request", () => {
    const city = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    for (const parameters of [
      { $schema: "http://json-schema.org/draft-07/schema#", ...city },
      { $schema: "https://json-schema.org/draft/2019-09/schema", ...city },
      { $id: "https://example.com/weather.json", ...city },
      { $id: "https://example.com/weather.json", ...city, description: "the same $id, another schema" },
    ]) {
      expect(judgeArgs({ city: "Oslo" }, "weather_get", undefined, parameters, true)?.errors, JSON.stringify(parameters)).toEqual([]);
      expect(judgeArgs({ city: 1 }, "weather_get", undefined, parameters, true)?.errors.length, JSON.stringify(parameters)).toBe(1);
    }
  });
});
