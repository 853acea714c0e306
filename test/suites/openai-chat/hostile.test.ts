/**
 * Hostile backends end in verdicts within a bounded time: no crash, no hang, no vacuous pass.
 * Each runs with --timeout 1500; they run concurrently (each on its own server), since they
 * mostly wait on timers.
 */
import { describe, expect, it } from "vitest";
import type { RunResult } from "../../../src/core/verdicts/result.js";
import { runSuite, type SuiteOptions } from "../../../src/core/run/runner.js";
import { openaiChat } from "../../../src/suites/openai-chat/index.js";
import { closedPortUrl, openaiBackendWithStream, openaiBehaviours, runAgainst, serve, type Handler } from "../../helpers/openai-hostile-servers.js";
import { byId, explain, serverSide } from "../../helpers/run-results.js";

const TIMEOUT = 1500;
/** The probes stop after three unanswered exchanges in a row; streams between JSON answers add a few more. */
const BOUND = 8 * TIMEOUT + 3000;

const against = async (handler: Handler, opts: SuiteOptions = {}) => runAgainst(openaiChat, await serve(handler), { timeout: TIMEOUT, maxBytes: 256 * 1024, ...opts });

const verdict = (r: RunResult, id: string) => byId(serverSide(r), `openai-chat/${id}`).verdict;
const noCrash = (r: RunResult) => expect(serverSide(r).filter((c) => c.message.startsWith("internal error")), explain(serverSide(r))).toEqual([]);

/** Rules about whole streams that a broken stream must never pass (finish rules also judge JSON answers). */
const STREAM_RULES = ["done/present", "done/connection-closes", "usage/matches-request", "usage/only-final-chunk", "request/continue-shape-accepted", "timing/streams-incrementally"];

/**
 * A mock router in front of a working backend: requests it has no fixture for (malformed ones, an
 * unknown model) get 404 "no fixture matched", which rejects neither the input nor the model.
 */
const noFixtureRouter: Handler = (req, res) => {
  const backend = openaiBackendWithStream(openaiBehaviours.silent200);
  if (req.method !== "POST") return backend(req, res);
  let text = "";
  req.on("data", (c: Buffer) => (text += c.toString()));
  req.on("end", () => {
    let body: { model?: unknown; messages?: unknown } | undefined;
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      body = undefined;
    }
    const ok = body && body.model === "m" && Array.isArray(body.messages) && body.messages.length > 0 && !text.includes("wizard") && !text.includes("A tool without a name");
    res.writeHead(ok ? 503 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: ok ? "busy" : "No fixture matched the request", type: "invalid_request_error", code: ok ? "busy" : "no_fixture" } }));
  });
};

/** A working backend whose valid chat requests are reset before the head, or whose streams break off after one chunk. */
const resetting = (when: "head" | "mid-stream"): Handler =>
  openaiBackendWithStream((_req, res) => {
    if (when === "head") return void res.socket?.destroy();
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] })}\n\n`);
    setTimeout(() => res.socket?.destroy(), 20);
  });

describe.concurrent("hostile openai-chat backends", () => {
  it("a reachable backend that resets every stream request before the head fails (exit 1), the starved checks are named knock-ons", async () => {
    const { r } = await against(resetting("head"), { params: { model: "m" } });
    noCrash(r);
    const checks = serverSide(r);
    const reset = byId(checks, "openai-chat/request/not-reset");
    expect(reset.verdict, reset.message).toBe("fail");
    expect(reset.message).toMatch(/reset before the response head/);
    expect(r.exitCode).toBe(1);
    expect(checks.filter((c) => c.verdict === "incomplete"), explain(checks)).toEqual([]);
    expect(byId(checks, "openai-chat/sse/content-type").message).toMatch(/^not judged: openai-chat\/request\/not-reset failed on forced-stream/);
    expect(verdict(r, "errors/bad-input-400")).toBe("pass");
  });

  it("a stream broken off mid-way is a failed request (MUST), not only a missing [DONE]", async () => {
    const { r } = await against(resetting("mid-stream"), { params: { model: "m" } });
    noCrash(r);
    const checks = serverSide(r);
    expect(verdict(r, "request/not-reset")).toBe("fail");
    expect(byId(checks, "openai-chat/request/not-reset").message).toMatch(/the stream broke off after 1 chunk/);
    for (const id of ["done/present", "request/continue-shape-accepted", "timing/streams-incrementally", "usage/matches-request"]) {
      expect(byId(checks, `openai-chat/${id}`).message, id).toMatch(/^not judged: openai-chat\/request\/not-reset failed on /);
    }
    // Only the break fails: the non-streamed answers are judged as usual.
    expect(checks.filter((c) => c.verdict === "fail" || c.verdict === "incomplete").map((c) => c.id), explain(checks)).toEqual(["openai-chat/request/not-reset"]);
    expect(r.exitCode).toBe(1);
  });


  it("a non-streamed answer broken off mid-body is a failed request too", async () => {
    const brokenSync: Handler = (req, res) => {
      if (req.method !== "POST") return openaiBackendWithStream(openaiBehaviours.silent200)(req, res);
      let text = "";
      req.on("data", (c: Buffer) => (text += c.toString()));
      req.on("end", () => {
        let body: { stream?: boolean; model?: string; messages?: unknown } = {};
        try {
          body = JSON.parse(text) as typeof body;
        } catch {
          // malformed: refused below
        }
        if (body.model !== "m" || !Array.isArray(body.messages) || body.stream === true) {
          res.writeHead(400, { "content-type": "application/json" });
          return res.end(JSON.stringify({ error: { message: "no", type: "invalid_request_error", code: null } }));
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"id": "chatcmpl-1", "object": "chat.completion", "choices": [');
        setTimeout(() => res.socket?.destroy(), 20);
      });
    };
    const { r } = await against(brokenSync, { params: { model: "m" }, only: ["request/", "sync/"] });
    const reset = byId(serverSide(r), "openai-chat/request/not-reset");
    expect(reset.verdict, reset.message).toBe("fail");
    expect(reset.message).toMatch(/the body broke off/);
    expect(byId(serverSide(r), "openai-chat/sync/response-shape").message).toMatch(/^not judged: openai-chat\/request\/not-reset failed on /);
  });

  it.each(["seed", "openai-compatible"])("404 'no fixture matched' is neither a refused bad request nor a refused model (profile %s)", async (profile) => {
    const { r } = await against(noFixtureRouter, { profile, only: ["errors/bad-input-400", "errors/pre-stream-status"] });
    const bad = byId(serverSide(r), "openai-chat/errors/bad-input-400");
    expect(bad.verdict, bad.message).toBe("fail");
    expect(bad.message).toMatch(/malformed-json got .*404/);
    const model = byId(serverSide(r), "openai-chat/errors/pre-stream-status");
    expect(model.verdict, model.message).toBe("fail");
    expect(model.message).toMatch(/got 404, but its error is not about the model: "No fixture matched/);
  });

  it.each([
    [400, "Invalid model name passed in model=agentwire-no-such-model", "pass"],
    [404, "The model `agentwire-no-such-model` does not exist", "pass"],
    [400, "messages: field required", "fail"],
    [500, "model agentwire-no-such-model not found", "fail"],
    // Only repeating the request's model name is not an error about the model.
    [400, "bad request: agentwire-no-such-model-abc", "fail"],
    [403, "key not valid for agentwire-no-such-model-abc", "incomplete"],
  ] as const)("an unknown model answered %i %j: pre-stream-status says %s", async (status, message, expected) => {
    const refusing: Handler = (req, res) => {
      let text = "";
      req.on("data", (c: Buffer) => (text += c.toString()));
      req.on("end", () => {
        const unknown = text.includes("agentwire-no-such-model");
        res.writeHead(unknown ? status : 503, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: unknown ? message : "busy", type: "invalid_request_error", code: null } }));
      });
    };
    const { r } = await against(refusing, { only: ["errors/pre-stream-status"], params: { model: "m" } });
    const c = byId(serverSide(r), "openai-chat/errors/pre-stream-status");
    expect(c.verdict, c.message).toBe(expected);
    if (status === 500) expect(c.message).toContain("a server error for the caller's mistake");
  });

  it("422 with a body that is no error answer is the shape rule's finding, named by bad-input-400 (profile openai-compatible)", async () => {
    const detail422: Handler = (req, res) => {
      if (req.method === "GET") return openaiBackendWithStream(openaiBehaviours.silent200)(req, res);
      req.resume();
      req.on("end", () => {
        res.writeHead(422, { "content-type": "application/json" });
        res.end(JSON.stringify({ detail: [{ loc: ["body"], msg: "field required", type: "value_error" }] }));
      });
    };
    const { r } = await against(detail422, { profile: "openai-compatible", only: ["errors/bad-input-400", "errors/shape"] });
    expect(verdict(r, "errors/shape")).toBe("fail");
    const bad = byId(serverSide(r), "openai-chat/errors/bad-input-400");
    expect(bad.verdict).toBe("skip");
    expect(bad.message).toBe("not judged: openai-chat/errors/shape failed on bad-input:malformed-json");
  });


  it("a closed port: every check incomplete, exit code 3", async () => {
    const url = await closedPortUrl();
    const r = await runSuite(openaiChat, { url: `${url}/v1`, timeout: TIMEOUT });
    expect(serverSide(r).every((c) => c.verdict === "incomplete"), explain(serverSide(r))).toBe(true);
    expect(r.exitCode).toBe(3);
    expect(r.error).toMatch(/unreachable/);
  });

  it("a 200 that never sends a byte, on every path: verdicts, no pass", { timeout: BOUND + 5000 }, async () => {
    const { r, ms } = await against(openaiBehaviours.silent200, { params: { model: "m" } });
    expect(ms).toBeLessThan(BOUND);
    noCrash(r);
    expect(serverSide(r).filter((c) => c.verdict === "pass"), explain(serverSide(r))).toEqual([]);
    expect(r.exitCode).not.toBe(0);
  });

  it("no model anywhere: a clear incomplete, not a crash", { timeout: BOUND + 5000 }, async () => {
    const { r, ms } = await against(openaiBehaviours.silent200);
    expect(ms).toBeLessThan(BOUND);
    noCrash(r);
    expect(serverSide(r).every((c) => c.verdict === "incomplete" || c.verdict === "skip"), explain(serverSide(r))).toBe(true);
    expect(byId(serverSide(r), "openai-chat/sse/content-type").message).toMatch(/no model to probe with/);
    expect(r.exitCode).toBe(3);
  });

  it("HTML on every path: the JSON and SSE rules fail, the answer rules never pass", { timeout: BOUND + 5000 }, async () => {
    const { r, ms } = await against(openaiBehaviours.html, { params: { model: "m" } });
    expect(ms).toBeLessThan(BOUND);
    noCrash(r);
    for (const id of ["models/list-shape", "sse/content-type", "sse/canonical-framing", "errors/bad-input-400", "sync/response-shape", "request/continue-shape-accepted", "done/present"]) {
      expect(verdict(r, id), id).toBe(id === "sse/canonical-framing" || id === "done/present" ? "warn" : "fail");
    }
    for (const id of [...STREAM_RULES, "finish/exactly-once", "finish/matches-tool-calls"]) expect(verdict(r, id), id).not.toBe("pass");
    expect(r.exitCode).toBe(1);
  });

  it("behind a working backend, a stream that stops mid-JSON: truncation is reported", { timeout: BOUND + 5000 }, async () => {
    const { r, ms } = await against(openaiBackendWithStream(openaiBehaviours.stopsMidJson));
    expect(ms).toBeLessThan(BOUND);
    noCrash(r);
    expect(byId(serverSide(r), "openai-chat/done/present").message).toMatch(/without \[DONE\]/);
    expect(verdict(r, "finish/exactly-once")).toBe("fail");
    for (const id of STREAM_RULES) expect(verdict(r, id), id).not.toBe("pass");
    // The JSON side of the backend is fine.
    expect(verdict(r, "models/list-shape")).toBe("pass");
    expect(verdict(r, "errors/bad-input-400")).toBe("pass");
  });

  it("behind a working backend, a stream that never sends [DONE] and never closes: cut at the limit, nothing vacuously passes", { timeout: BOUND + 5000 }, async () => {
    const { r, ms } = await against(openaiBackendWithStream(openaiBehaviours.neverDone));
    expect(ms).toBeLessThan(BOUND);
    noCrash(r);
    for (const id of ["done/present", "done/last-event", "done/connection-closes", "usage/matches-request", "request/continue-shape-accepted", "timing/streams-incrementally", "tool-call/streaming-parity"]) {
      expect(verdict(r, id), id).toBe("incomplete");
    }
    expect(verdict(r, "sse/data-json")).toBe("pass");
    expect(r.exitCode).not.toBe(0);
  });

  it("streams that keep sending valid chunks and never end: after two stream limits no further stream is sent, the JSON probes still run", { timeout: BOUND + 5000 }, async () => {
    const progress: string[] = [];
    const slowChunks: Handler = (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] })}\n\n`);
      const timer = setInterval(() => res.write(`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: "and " }, finish_reason: null }] })}\n\n`), 300);
      res.on("close", () => clearInterval(timer));
    };
    const { r, ms } = await against(openaiBackendWithStream(slowChunks), { timeout: 2000, progress: (m) => progress.push(m) });
    // Two stream limits and the quick JSON probes, not one limit per stream probe (about seven).
    expect(ms).toBeLessThan(4 * 2000 + 3000);
    noCrash(r);
    expect(progress.some((m) => /openai-chat: 2 streams ran to the 2000 ms stream limit without ending .*later stream requests are not sent/.test(m)), progress.join("\n")).toBe(true);
    for (const id of STREAM_RULES) expect(verdict(r, id), id).not.toBe("pass");
    const unsent = byId(serverSide(r), "openai-chat/tool-call/streaming-parity");
    expect(unsent.verdict).toBe("incomplete");
    expect(unsent.message).toMatch(/2 streams ran to the 2000 ms stream limit without ending/);
    // The non-streamed probes were still sent and judged.
    expect(verdict(r, "models/list-shape")).toBe("pass");
    expect(verdict(r, "errors/bad-input-400")).toBe("pass");
  });
});
