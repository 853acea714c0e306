/**
 * agentwire/msw's continue-remote handlers in a real browser: the BUILT entry (dist/msw.js, built
 * by the global setup) is bundled for the browser with esbuild, which also proves it pulls in no
 * node built-ins, and run under msw's `setupWorker` in headless Chromium. The page posts a message
 * to http://localhost:8000 and polls `/state` until the turn is over; the worker answers, nothing
 * listens there. The same flow against the node mock (poll clock) must see the same snapshots,
 * poll by poll, permission timestamps aside.
 *
 * Needs a system Chromium (/usr/bin/chromium, `apt-get install -y chromium`); without one the
 * test fails and says so.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startContinueRemoteMock } from "../../src/mocks/continue-remote/index.js";
import { mswPageHarness } from "../helpers/browser.js";
import type { ContinueRemotePageResult } from "./page/continue-remote-app.js";

type Json = Record<string, any>;
type Profile = "seed" | "cn-session";
const RESULT_TIMEOUT = 30_000;

/** A snapshot without the permission's timestamp (the clock of the run, the only thing that differs). */
function untimed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(untimed);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== "timestamp").map(([k, v]) => [k, untimed(v)]));
  }
  return value;
}

/** The page's flow against the node mock, from node. */
async function nodeFlow(scenario: string, profile: Profile) {
  const mock = await startContinueRemoteMock({ port: 0, clock: "poll", profile });
  try {
    const post = (path: string, body: unknown) =>
      fetch(`${mock.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const accepted = (await (await post("/message", { message: `#scenario:${scenario} go` })).json()) as Json;
    const snapshots: Json[] = [];
    const permissions: Json[] = [];
    for (let i = 0; i < 500; i++) {
      const s = (await (await fetch(`${mock.url}/state`)).json()) as Json;
      snapshots.push(s);
      if (s.pendingPermission) permissions.push(await (await post("/permission", { requestId: s.pendingPermission.requestId, approved: true })).json());
      else if (!s.isProcessing) break;
    }
    return { accepted, snapshots, permissions };
  } finally {
    await mock.close();
  }
}

describe("agentwire/msw continue-remote handlers in headless Chromium", () => {
  const harness = mswPageHarness<ContinueRemotePageResult>(fileURLToPath(new URL("./page/continue-remote-app.ts", import.meta.url)), "agentwire continue-remote msw", "__continueRemoteResult", RESULT_TIMEOUT);

  it("bundles the built entry (dist/msw.js) for the browser without node built-ins", () => {
    const inputs = Object.keys(harness.metafile().inputs);
    expect(inputs).toContain("dist/msw.js");
    expect(inputs.some((i) => i.startsWith("dist/mocks/continue-remote/"))).toBe(true);
    expect(inputs.filter((i) => i.startsWith("node:") || i.startsWith("src/"))).toEqual([]);
  });

  for (const [scenario, profile] of [
    ["read-file", "seed"],
    ["permission", "seed"],
    ["permission", "cn-session"],
  ] as const) {
    it(`the page sees the same snapshots through msw as from the node mock (${scenario}, ${profile})`, async () => {
      const [page, node] = await Promise.all([harness.open(`?scenario=${encodeURIComponent(scenario)}&profile=${profile}`), nodeFlow(scenario, profile)]);
      expect(page.contentType).toBe("application/json; charset=utf-8");
      expect(page.accepted).toEqual({ queued: true, position: 1 });
      expect(page.snapshots.length).toBeGreaterThan(3);
      expect(page.snapshots.at(-1)!.isProcessing).toBe(false);
      expect(page.permissions).toEqual(scenario === "permission" ? [{ success: true, approved: true }] : []);
      expect(untimed(page)).toMatchObject(untimed(node) as Json);
      expect(untimed(page.snapshots)).toEqual(untimed(node.snapshots));
    });
  }
});
