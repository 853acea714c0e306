/** timing/responsive judges how fast states and accepted messages come, not how fast errors do. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { runSuite } from "../../../src/core/run/runner.js";
import { continueRemote } from "../../../src/suites/continue-remote/index.js";
import { byId } from "../../helpers/run-results.js";

describe("continue-remote timing/responsive against a server that answers every request with an error", () => {
  it("does not pass on quick 503s: no state was read and no message accepted", async () => {
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(503, { "content-type": "text/html", "retry-after": "999999" }).end("<h1>down</h1>");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    try {
      const r = await runSuite(continueRemote, {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        timeout: 1000,
        params: { pollIntervalMs: 10, turnTimeoutMs: 500, getExitWaitMs: 10, noExit: true },
      });
      const c = byId(r.checks, "continue-remote/timing/responsive");
      expect(c.verdict).not.toBe("pass");
      expect(c.message).toMatch(/no poll or message was answered 200/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
