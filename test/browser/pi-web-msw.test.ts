/**
 * agentwire/msw/pi-web in a real browser: the BUILT per-protocol entry (dist/mocks/pi-web/msw.js,
 * built by the global setup) is bundled for the browser with esbuild, which also proves it pulls in no node
 * built-ins, and run under msw's `setupWorker` in headless Chromium. The page opens
 * `new WebSocket("ws://localhost:4781/ws")`; msw's `ws.link` handlers answer in the page, so
 * nothing needs to listen on port 4781. The same flow against the node mock (from node, with `ws`)
 * must see the same events, timestamps aside.
 *
 * Needs a system Chromium (/usr/bin/chromium, `apt-get install -y chromium`); without one the
 * test fails and says so.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startPiWebMock } from "../../src/mocks/pi-web/index.js";
import { mswPageHarness } from "../helpers/browser.js";
import { Client, grammarProblems, runEvents, type Json } from "../mocks/pi-web/helpers.js";
import type { PiWebPageResult } from "./page/pi-web-app.js";

const RESULT_TIMEOUT = 30_000;

/** The events without their timestamps (the only thing that differs between two runs). */
function untimed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(untimed);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== "timestamp").map(([k, v]) => [k, untimed(v)]));
  }
  return value;
}

/** The same flow against the node mock, from node with `ws`. */
async function nodeFlow(scenario: string) {
  const mock = await startPiWebMock({ port: 0 });
  try {
    const a = await Client.open(`${mock.url.replace(/^http/, "ws")}/ws`);
    const b = await Client.open(`${mock.url.replace(/^http/, "ws")}/ws`);
    a.send({ id: "req_1", type: "prompt", message: `scenario:${scenario} hi` });
    await a.waitFor((m) => m.type === "agent_end", 15_000);
    const state = (await a.request({ id: "req_2", type: "get_state" })).data as Json;
    const messages = (await a.request({ id: "req_3", type: "get_messages" })).data.messages as Json[];
    await b.waitFor((m) => m.type === "agent_end", 5_000);
    a.close();
    b.close();
    return { received: a.messages, passive: b.messages, state, messages };
  } finally {
    await mock.close();
  }
}

describe("agentwire/msw pi-web handlers (ws.link) in headless Chromium", () => {
  const harness = mswPageHarness<PiWebPageResult>(fileURLToPath(new URL("./page/pi-web-app.ts", import.meta.url)), "agentwire pi-web msw", "__piWebResult", RESULT_TIMEOUT);

  it("bundles the built pi-web entry alone for the browser, without node built-ins", () => {
    const inputs = Object.keys(harness.metafile().inputs);
    expect(inputs).toContain("dist/mocks/pi-web/msw.js");
    // The per-protocol entry brings one protocol's engine, not the others'.
    expect(inputs.filter((i) => i === "dist/msw.js" || /^dist\/mocks\/(?!pi-web\/)/.test(i))).toEqual([]);
    expect(inputs.filter((i) => i.startsWith("node:") || i.startsWith("src/"))).toEqual([]);
  });

  for (const scenario of ["text", "tool"]) {
    it(`the page gets the scripted conversation through msw, the same as from the node mock (${scenario})`, async () => {
      const [page, node] = await Promise.all([harness.open(`?scenario=${encodeURIComponent(scenario)}`), nodeFlow(scenario)]);
      expect(page.nonJsonFrames).toBe(0);
      for (const r of [page, node]) {
        expect(r.received[0]).toEqual({ type: "response", id: "req_1", command: "prompt", success: true });
        const run = runEvents(r.received);
        expect(run.length).toBeGreaterThan(8);
        expect(grammarProblems(run)).toEqual([]);
        // Fan-out: the passive socket saw the run; responses went only to the requester.
        expect(r.passive.filter((m) => m.type === "response")).toEqual([]);
        expect(untimed(runEvents(r.passive))).toEqual(untimed(run));
        expect(r.state).toMatchObject({ isStreaming: false, messageCount: scenario === "tool" ? 4 : 2 });
        expect(r.messages.slice(-run.at(-1)!.messages.length)).toEqual(run.at(-1)!.messages);
      }
      const conversation = (ms: Json[]) => ms.slice(0, ms.findIndex((m) => m.type === "agent_end") + 1);
      expect(untimed(conversation(page.received))).toEqual(untimed(conversation(node.received)));
      expect(untimed(page.messages)).toEqual(untimed(node.messages));
      // Same seed, same ids: the browser engine and the node engine agree on the session id.
      expect(page.state.sessionId).toBe(node.state.sessionId);
    });
  }
});
