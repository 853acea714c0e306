/**
 * client/finishes-after-done seen from the mock's side: under the hold-open-after-done fault the
 * mock keeps every stream open 30 s after [DONE]. A client that stops at [DONE] and goes on passes;
 * one that waits for the server to close the connection fails, like Continue CLI's 30 s stall.
 */
import { describe, expect, it } from "vitest";
import { startClientSession } from "../../../src/core/run/runner.js";
import { openaiChat } from "../../../src/suites/openai-chat/index.js";
import { byId } from "../../helpers/run-results.js";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import type { TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { AFTER_DONE_NOTE } from "../../../src/mocks/openai-chat/after-done.js";
import { finishesAfterDoneCheck } from "../../../src/suites/openai-chat/client/after-done.js";
import { stopNote } from "../../helpers/synthetic-transcript.js";

const ID = "openai-chat/client/finishes-after-done";
const body = JSON.stringify({ model: "agentwire-mock", stream: true, messages: [{ role: "user", content: "hi" }] });

/** Reads a stream until [DONE]; then `after` decides what the client does. */
async function oneTurn(url: string, after: (stop: () => Promise<void>) => Promise<void>): Promise<void> {
  const abort = new AbortController();
  const res = await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body, signal: abort.signal });
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let text = "";
  while (!text.includes("data: [DONE]")) {
    const r = await reader.read();
    if (r.done) break;
    text += dec.decode(r.value, { stream: true });
  }
  await after(async () => {
    abort.abort();
    await reader.cancel().catch(() => undefined);
  });
}

async function judged(client: (url: string) => Promise<void>, settings: Record<string, unknown> = {}) {
  const session = await startClientSession(openaiChat, { mock: { faults: ["hold-open-after-done"], settings: { ttftMs: 0, chunkDelayMs: 0, ...settings } } });
  try {
    await client(session.url);
  } finally {
    // Lets the mock note the close before the run ends.
    await new Promise((r) => setTimeout(r, 50));
  }
  return byId((await session.finish()).checks, ID);
}

describe.concurrent("client/finishes-after-done under hold-open-after-done", () => {
  it("passes a client that closes the connection at [DONE] and goes on", async () => {
    const r = await judged(async (url) => {
      await oneTurn(url, (stop) => stop());
      await oneTurn(url, (stop) => stop());
    });
    expect(r.outcome, r.message).toBe("pass");
    expect(r.message).toContain("finished 2 held-open response(s)");
  });

  it("fails a client that keeps the connection open after [DONE] (given up after 2.5 s here, 30 s for the fault)", async () => {
    const r = await judged((url) => oneTurn(url, async (stop) => {
      await new Promise((res) => setTimeout(res, 2500));
      await stop();
    }));
    expect(r.verdict, r.message).toBe("warn");
    expect(r.message).toMatch(/closed the connection only \d+ ms after \[DONE\] while the server held the connection open/);
  });

  it("under a time scale the limit shrinks with the hold: 800 ms after [DONE] is late at 0.25, in time at full length", async () => {
    const late = (url: string) => oneTurn(url, async (stop) => {
      await new Promise((res) => setTimeout(res, 800));
      await stop();
    });
    const [quick, full] = await Promise.all([judged(late, { timeScale: 0.25 }), judged(late)]);
    expect(quick.verdict, quick.message).toBe("warn");
    expect(quick.message).toMatch(/closed the connection only \d+ ms after \[DONE\]/);
    expect(full.outcome, full.message).toBe("pass");
  });

  it("warns a client that reads the held stream to its end, although it sent another conversation's request right after [DONE]", async () => {
    const r = await judged(
      (url) =>
        oneTurn(url, async () => {
          const title = JSON.stringify({ model: "agentwire-mock", messages: [{ role: "user", content: "Title for: hi" }] });
          await (await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: title })).text();
          // Leaves the held connection open until the mock closes it (3 s at this time scale).
        }).then(() => new Promise((res) => setTimeout(res, 3500))),
      { timeScale: 0.1 },
    );
    expect(r.verdict, r.message).toBe("warn");
    expect(r.message).toMatch(/the client waited for the server to close the connection/);
  });

  it("with no held stream the rule is not exercised, never passed", async () => {
    const session = await startClientSession(openaiChat, { mock: { settings: { ttftMs: 0, chunkDelayMs: 0 } } });
    await oneTurn(session.url, (stop) => stop());
    const r = byId((await session.finish()).checks, ID);
    expect(r.outcome).toBe("incomplete");
  });
});

describe("client/finishes-after-done: only evidence about the held stream counts", () => {
  const SYSTEM = { role: "system", content: "You are a coding assistant." };
  const USER = { role: "user", content: "Please do it." };
  const CALL = { id: "call_1", name: "read_file", arguments: '{"filepath":"README.md"}' };
  type Ev = Record<string, unknown>;
  /** A chat request at `t`; `held` makes the mock keep its answer open 30 s after [DONE]. */
  const request = (n: number, t: number, messages: unknown[], held = false, calls: unknown[] = []): Ev => ({
    kind: "http-request",
    probe: "client",
    exchange: `c${n}`,
    label: "chat-completions",
    method: "POST",
    url: "http://127.0.0.1/v1/chat/completions",
    path: "/v1/chat/completions",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", stream: true, messages }),
    meta: { stream: true, expectedCalls: calls, ...(held ? { holdAfterDoneMs: 30_000 } : {}) },
    t,
  });
  const note = (n: number, t: number, value: Ev): Ev => ({ kind: "note", probe: "client", name: AFTER_DONE_NOTE, value: { exchange: `c${n}`, ...value }, t });
  const done = (n: number, t: number) => note(n, t, { event: "done" });
  const closed = (n: number, t: number, by: "client" | "server") => note(n, t, { event: "closed", by });
  const title = (n: number, t: number) => request(n, t, [{ role: "user", content: "Give this conversation a short title: Please do it." }]);
  const verdict = (...events: Ev[]) => {
    const evaluation = new Evaluation([finishesAfterDoneCheck], { protocol: "openai-chat", profile: DEFAULT_PROFILE, params: {}, validate: () => ({ ok: true }) });
    events.forEach((e, seq) => evaluation.observe({ ...e, seq } as TranscriptEvent));
    return evaluation.finish()[0]!;
  };

  it("a title request right after [DONE] does not finish the stream the client kept reading until the server closed it", () => {
    const r = verdict(request(1, 0, [SYSTEM, USER], true), done(1, 50), title(2, 350), closed(1, 30_050, "server"));
    expect(r.verdict, r.message).toBe("warn");
    expect(r.message).toContain("exchange c1: the client waited for the server to close the connection, 30000 ms after [DONE]");
  });

  it("another conversation's request, then the client's own close in time: pass", () => {
    const r = verdict(request(1, 0, [SYSTEM, USER], true), done(1, 50), title(2, 350), closed(1, 400, "client"));
    expect(r.outcome, r.message).toBe("pass");
  });

  it("the next request of that conversation finishes it: after a text answer, after calls (history rebuilt), even before [DONE] was written", () => {
    const text = verdict(request(1, 0, [SYSTEM, USER], true), done(1, 50), request(2, 500, [SYSTEM, USER, { role: "assistant", content: "Hello" }, { role: "user", content: "more" }]), closed(1, 30_050, "server"));
    expect(text.outcome, text.message).toBe("pass");
    const echo = [{ role: "system", content: "A rebuilt prompt." }, { role: "user", content: "Please do it!" }, { role: "assistant", content: " ", tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: CALL.arguments } }] }, { role: "tool", tool_call_id: "call_1", content: "# a" }];
    const calls = verdict(request(1, 0, [SYSTEM, USER], true, [CALL]), done(1, 50), request(2, 500, echo), closed(1, 30_050, "server"));
    expect(calls.outcome, calls.message).toBe("pass");
    const early = verdict(request(1, 0, [SYSTEM, USER], true, [CALL]), request(2, 40, echo), done(1, 50), closed(1, 30_050, "server"));
    expect([early.outcome, early.message]).toEqual(["pass", expect.stringContaining("finished 1 held-open response(s)")]);
  });

  it("the next request of that conversation sent late is late", () => {
    const r = verdict(request(1, 0, [SYSTEM, USER], true), done(1, 50), title(2, 300), request(3, 2_600, [SYSTEM, USER, { role: "assistant", content: "Hello" }, { role: "user", content: "more" }]));
    expect(r.verdict).toBe("warn");
    expect(r.message).toContain("the client sent the next request of that conversation only 2550 ms after [DONE]");
  });
  describe("in a run the kit stopped", () => {
    const stop = (t: number, by = "SIGTERM"): Ev => ({ ...stopNote(by), t });

    it("a stream held within its limit when the kit stopped is not judged, whoever closes it after", () => {
      // The client ends as the stop tells it, past the 2 s after [DONE]: the stop's doing, not a late close.
      const ended = verdict(request(1, 0, [SYSTEM, USER], true), done(1, 50), stop(1000), closed(1, 2300, "client"));
      expect([ended.outcome, ended.message]).toEqual(["incomplete", expect.stringContaining("the kit stopped the run (SIGTERM) at 1000 ms while the client held c1 open after [DONE]")]);
      // Stopping mock --check-client ends the held body: no failure of the client.
      expect(verdict(request(1, 0, [SYSTEM, USER], true), done(1, 50), stop(1000, "Ctrl-C"), closed(1, 1010, "server")).outcome).toBe("incomplete");
      expect(verdict(request(1, 0, [SYSTEM, USER], true), done(1, 50), stop(1000)).outcome).toBe("incomplete");
    });

    it("a stream held past its limit when the kit stopped was late already, and fails", () => {
      const closedAfter = verdict(request(1, 0, [SYSTEM, USER], true), done(1, 50), stop(3000), closed(1, 3200, "client"));
      expect(closedAfter.verdict, closedAfter.message).toBe("warn");
      const open = verdict(request(1, 0, [SYSTEM, USER], true), done(1, 50), stop(3000, "Ctrl-C"));
      expect([open.verdict, open.message]).toEqual(["warn", expect.stringContaining("exchange c1: the client still held the connection when the kit stopped the run (Ctrl-C) at 3000 ms, 2950 ms after [DONE]")]);
    });
  });
});
