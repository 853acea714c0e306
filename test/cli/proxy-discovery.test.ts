/**
 * `agentwire proxy stagewise-chat` without --port listens where toolbars look: the first free port
 * of the discovery range (5746..5776), as the mock and the agent adapter do; --port still wins.
 * The whole range taken is tried on a range of one port this test owns, not on the real one.
 */
import http from "node:http";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { listen } from "../../src/proxy/index.js";
import { FIRST_PORT, LAST_PORT } from "../../src/stagewise/index.js";
import { runCliInProcess } from "../helpers/cli.js";

// Nothing answers there: the proxy only has to start, and --duration ends it.
const PROXY = ["proxy", "stagewise-chat", "--target", "http://127.0.0.1:1", "--duration", "1", "--quiet", "--reporter", "json", "--output", "/dev/null"];
const portOf = (stdout: string) => Number(new URL(stdout.split("\n")[0]!).port);

describe("agentwire proxy stagewise-chat: the discovery ports", () => {
  it("takes a port of the discovery range when no --port is given, and the --port given otherwise", async () => {
    const found = await runCliInProcess(PROXY);
    expect(found.code, found.stderr).not.toBe(2);
    expect(portOf(found.stdout)).toBeGreaterThanOrEqual(FIRST_PORT);
    expect(portOf(found.stdout)).toBeLessThanOrEqual(LAST_PORT);
    const explicit = await runCliInProcess([...PROXY, "--port", "0"]);
    expect(explicit.stderr).toBe("");
    const port = portOf(explicit.stdout);
    expect(port < FIRST_PORT || port > LAST_PORT).toBe(true);
  });

  it("with every port of the range taken, says so as a usage error", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const taken = (blocker.address() as net.AddressInfo).port;
    const server = http.createServer();
    try {
      await expect(listen(server, "127.0.0.1", undefined, [taken, taken])).rejects.toThrow(`no free port in ${taken}..${taken} on 127.0.0.1, where clients look; give --port`);
    } finally {
      server.close();
      blocker.close();
    }
  });
});
