/**
 * client/finishes-after-done seen from the mock's side: under the hold-open-after-done fault the
 * mock keeps every stream open 30 s after [DONE]. A client that stops at [DONE] and goes on passes;
 * one that waits for the server to close the connection fails, like Continue CLI's 30 s stall.
 */
import { describe, expect, it } from "vitest";
import { startClientSession } from "../../../src/core/run/runner.js";
import { openaiChat } from "../../../src/suites/openai-chat/index.js";
import { byId } from "../../helpers/run-results.js";

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

  it("with no held stream the rule is not exercised, never passed", async () => {
    const session = await startClientSession(openaiChat, { mock: { settings: { ttftMs: 0, chunkDelayMs: 0 } } });
    await oneTurn(session.url, (stop) => stop());
    const r = byId((await session.finish()).checks, ID);
    expect(r.outcome).toBe("incomplete");
  });
});
