import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { continueRemoteHandlers } from "../../../src/mocks/continue-remote/msw.js";
import { startContinueRemoteMock, type RunningContinueRemoteMock } from "../../../src/mocks/continue-remote/server.js";

const BASE = "http://localhost:8000";
const server = setupServer(...continueRemoteHandlers({ baseUrl: BASE }));
let node: RunningContinueRemoteMock;

beforeAll(async () => {
  // Requests to the node mock (127.0.0.1) are not matched and go to the network.
  server.listen({ onUnhandledRequest: "bypass" });
  node = await startContinueRemoteMock({ port: 0, clock: "poll" });
});
afterAll(async () => {
  server.close();
  await node.close();
});

async function turn(base: string): Promise<unknown[]> {
  await fetch(`${base}/message`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message: "#scenario:read-file go" }),
  });
  const seen: unknown[] = [];
  for (let i = 0; i < 200; i++) {
    const s = (await (await fetch(`${base}/state`)).json()) as { isProcessing: boolean };
    seen.push(s);
    if (!s.isProcessing) break;
  }
  return seen;
}

describe("continue-remote msw handlers", () => {
  it("run the same state machine as the node mock: the same snapshots, poll by poll", async () => {
    const viaMsw = await turn(BASE);
    expect(viaMsw.length).toBeGreaterThan(3);
    expect(viaMsw).toEqual(await turn(node.url));
  });
});
