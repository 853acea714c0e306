/**
 * The reference mock behind a relay that makes one of its messages longer than the kit's cap: the kit refuses it from
 * its header and cuts that connection. The cut is the kit's (a limit), so no check fails for what the kit did not read:
 * the rules it starved say the kit stopped reading, and the probes stop instead of going on with a conversation the
 * kit lost track of.
 */
import { describe, expect, it } from "vitest";
import { piWeb } from "../../../src/suites/pi-web/index.js";
import type { RunResult } from "../../../src/core/verdicts/result.js";
import { runSuite } from "../../../src/core/run/runner.js";
import { byId, explain, failedIds, serverSide } from "../../helpers/run-results.js";
import { padded, relayWs } from "../../helpers/ws-relay.js";

const CAP = 1024 * 1024;
const CUT = `limit: a message over ${CAP} bytes (the kit's cap), not read`;
const STOPPED = `the probes stopped early: the kit stopped reading the main connection (${CUT})`;

/**
 * A run against the mock whose `n`-th message of the kind `marker` names, on the connection opened `conn`-th (from 0;
 * 0 is the main client, 1 the passive one), goes out over the cap.
 */
async function runWithBigMessage(marker: string, conn: number, n = 0): Promise<RunResult> {
  const mock = await piWeb.startMock({ host: "127.0.0.1", port: 0, suite: true });
  let seen = 0;
  const relay = await relayWs(mock.url, (data, _binary, _n, c) => {
    if (c !== conn || !data.toString("utf8", 0, 200).includes(marker) || seen++ !== n) return undefined;
    return padded(data, CAP + 10);
  });
  try {
    // The mock's Origin: the relay passes the kit's upgrade on as it came.
    return await runSuite(piWeb, { url: relay.url, timeout: 3000, maxBytes: CAP, params: { origin: mock.url } });
  } finally {
    await relay.close();
    await mock.close();
  }
}

describe.concurrent("pi-web against a server that sends one message over the kit's cap", () => {
  it("the first agent_start on the main client: the run's rules say the kit stopped reading, and no check fails", async () => {
    const r = await runWithBigMessage('"type":"agent_start"', 0);
    const checks = serverSide(r);
    expect(failedIds(checks), explain(checks, (c) => c.outcome === "fail")).toEqual([]);
    const accepted = byId(checks, "pi-web/cmd/prompt-accepted");
    expect(accepted.verdict).toBe("incomplete");
    expect(accepted.message).toContain(`prompt [prompt:text]: the kit stopped reading main before an agent_start (${CUT})`);
    const fanout = byId(checks, "pi-web/fanout/broadcast");
    expect(fanout.verdict).toBe("incomplete");
    expect(fanout.message).toContain(`the kit stopped reading the main client (${CUT})`);
    // The probes stop once, saying why, rather than reconnecting into the run the kit lost track of.
    expect(byId(checks, "pi-web/event/agent-bracketing").message).toContain(STOPPED);
    expect(checks.filter((c) => c.message.split(STOPPED).length > 2).map((c) => c.id)).toEqual([]);
  }, 60_000);

  it("an answer to a query on the main client: the probes stop on the kit's cut, not on commands gone unanswered", async () => {
    const r = await runWithBigMessage('"command":"get_state"', 0);
    const checks = serverSide(r);
    expect(failedIds(checks), explain(checks, (c) => c.outcome === "fail")).toEqual([]);
    expect(byId(checks, "pi-web/cmd/prompt-accepted").message).toContain(STOPPED);
    expect(checks.filter((c) => /got no response/.test(c.message)).map((c) => c.id)).toEqual([]);
  }, 60_000);

  it("a message on the passive client: the broadcast rule says the kit stopped reading it, and no check fails", async () => {
    const r = await runWithBigMessage('"type":"message_start"', 1);
    const checks = serverSide(r);
    expect(failedIds(checks), explain(checks, (c) => c.outcome === "fail")).toEqual([]);
    const fanout = byId(checks, "pi-web/fanout/broadcast");
    expect(fanout.verdict).toBe("incomplete");
    expect(fanout.message).toContain(`the kit stopped reading the passive client (${CUT})`);
  }, 60_000);
});
