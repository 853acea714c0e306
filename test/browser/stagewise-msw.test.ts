/**
 * agentwire/msw/stagewise-chat in a real browser: the BUILT per-protocol entry (dist/mocks/stagewise-chat/msw.js) bundled for the browser
 * (which proves it pulls in no node built-ins) and run under msw's `setupWorker` in headless Chromium. The page
 * fetches discovery, subscribes to chat.getChatUpdates, sends a message and must see the same snapshot and delta
 * frames as a toolbar of the node mock, timestamps aside.
 *
 * Needs a system Chromium (/usr/bin/chromium); without one the test fails and says so.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startStagewiseMock } from "../../src/mocks/stagewise-chat/index.js";
import { mswPageHarness } from "../helpers/browser.js";
import { Raw, type Json } from "../mocks/stagewise-chat/helpers.js";
import { PAGE_METADATA, PAGE_TEXT, type StagewisePageResult } from "./page/stagewise-shared.js";

const RESULT_TIMEOUT = 30_000;
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;

/** The chat subscription's frames and the mutation's answer, dates masked. */
function comparable(frames: string[]): { chat: Json[]; answer: Json | undefined } {
  const parsed = frames.map((f) => JSON.parse(f.replace(ISO, "<date>")) as Json);
  return { chat: parsed.filter((m) => m.id === 1), answer: parsed.find((m) => m.id === 2) };
}

/** The same flow against the node mock. */
async function nodeFlow(): Promise<{ info: Json; frames: string[] }> {
  const mock = await startStagewiseMock({ port: 0, firstDelayMs: 5, chunkDelayMs: 5 });
  try {
    const info = (await (await fetch(`${mock.url}/stagewise/info`)).json()) as Json;
    const raw = await Raw.open(mock.wsUrl);
    raw.subscribe("chat.getChatUpdates", { id: 1 });
    await raw.waitFor((f) => f.json?.id === 1 && f.json.result?.data?.json?.data?.type === "agent-state");
    const chatId = mock.engine.core.agent.activeChatId;
    const from = raw.frames.length;
    raw.send({ id: 2, method: "mutation", params: { path: "chat.sendMessage", input: { json: { chatId, content: [{ type: "text", text: PAGE_TEXT }], metadata: PAGE_METADATA } } } });
    await raw.waitFor((f) => f.json?.id === 2);
    await raw.waitFor((f) => f.json?.id === 1 && f.json.result?.data?.json?.data?.type === "agent-state" && f.json.result.data.json.data.isWorking === false, 10_000, from);
    raw.close();
    return { info, frames: raw.frames.map((f) => f.text) };
  } finally {
    await mock.close();
  }
}

describe("agentwire/msw stagewise-chat handlers (http.get + ws.link) in headless Chromium", () => {
  const harness = mswPageHarness<StagewisePageResult>(fileURLToPath(new URL("./page/stagewise-app.ts", import.meta.url)), "agentwire stagewise-chat msw", "__stagewiseResult", RESULT_TIMEOUT);

  it("bundles the built entry with the stagewise-chat mock and no node built-ins", () => {
    const inputs = Object.keys(harness.metafile().inputs);
    expect(inputs.some((i) => i.startsWith("dist/mocks/stagewise-chat/"))).toBe(true);
    expect(inputs.filter((i) => i.startsWith("node:") || i.startsWith("src/"))).toEqual([]);
  });

  it("the page sees the same discovery, snapshot and deltas through msw as a toolbar of the node mock", async () => {
    const [page, node] = await Promise.all([harness.open(), nodeFlow()]);
    expect(page.info).toEqual(node.info);
    const p = comparable(page.frames);
    const n = comparable(node.frames);
    expect(p.chat.map((m) => m.result?.data?.json?.data?.type ?? m.result?.type).slice(0, 4)).toEqual(["started", "chat-list", "chat-full-sync", "agent-state"]);
    expect(p.chat.length).toBeGreaterThan(8);
    expect(p.chat).toEqual(n.chat);
    expect(p.answer).toEqual(n.answer);
  });
});
