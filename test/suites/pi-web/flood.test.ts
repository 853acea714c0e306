/**
 * A flooding WebSocket target costs about a second, not a timeout per wait: a connection that
 * delivers more messages in one second than any agent streams is cut (cause "limit"), and the run
 * ends long before `--timeout` times the number of waits.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import { runSuite } from "../../../src/core/run/runner.js";
import { piWeb } from "../../../src/suites/pi-web/index.js";
import { hostilePiWeb, wsBehaviours, type HostileWs, type WsBehaviour } from "../../helpers/pi-web-hostile.js";

const TIMEOUT = 5000;

/** message_update events from the upgrade on, 200 a millisecond, whatever the client says. */
const floodFromUpgrade: WsBehaviour = (ws: WebSocket) => {
  const update = JSON.stringify({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "flood " } });
  const timer = setInterval(() => {
    if (ws.readyState !== ws.OPEN) return clearInterval(timer);
    for (let i = 0; i < 200; i++) ws.send(update);
  }, 1);
  ws.on("close", () => clearInterval(timer));
};

let open: HostileWs | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe.each([
  ["after the first command", wsBehaviours.eventFlood],
  ["from the upgrade on", floodFromUpgrade],
])("a target flooding events %s", (_name, behaviour) => {
  it(`ends well within one --timeout ${TIMEOUT}, its connections cut as floods`, async () => {
    open = await hostilePiWeb(behaviour);
    const dir = mkdtempSync(join(tmpdir(), "agentwire-flood-"));
    const t0 = performance.now();
    const r = await runSuite(piWeb, { url: open.url, timeout: TIMEOUT, saveTranscript: dir });
    const ms = performance.now() - t0;
    expect(r.error ?? "").not.toMatch(/internal/);
    expect(ms).toBeLessThan(TIMEOUT);
    const closes = readdirSync(dir)
      .flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n"))
      .filter((l) => l.includes('"kind":"ws-close"'))
      .map((l) => JSON.parse(l) as { by?: string; cause?: string });
    expect(closes.some((c) => c.by === "kit" && c.cause === "limit")).toBe(true);
  });
});
