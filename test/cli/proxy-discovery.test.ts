/**
 * `agentwire proxy stagewise-chat` without --port listens where toolbars look: the first free port
 * of the discovery range. The range is replaced here by one port this test owns, so the test does
 * not depend on 5746..5776 being free, nor takes them from other tests.
 */
import net from "node:net";
import { afterAll, describe, expect, it, vi } from "vitest";
import { runCliInProcess } from "../helpers/cli.js";

const range = vi.hoisted(() => ({ port: 0 }));

/** A port free a moment ago (listened on, then released). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

vi.mock("../../src/stagewise/adapter/ports.js", async () => {
  range.port = await freePort();
  return { FIRST_PORT: range.port, LAST_PORT: range.port };
});

const occupied: net.Server[] = [];
afterAll(() => Promise.all(occupied.map((s) => new Promise((r) => s.close(r)))));

// Nothing answers there: the proxy only has to start, and --duration ends it.
const PROXY = ["proxy", "stagewise-chat", "--target", "http://127.0.0.1:1", "--duration", "1", "--quiet", "--reporter", "json", "--output"];

describe("agentwire proxy stagewise-chat: the discovery ports", () => {
  it("takes the first free port of the range when no --port is given", async () => {
    const r = await runCliInProcess([...PROXY, "/dev/null"]);
    expect(range.port).toBeGreaterThan(0);
    expect(r.stdout.split("\n")[0]).toBe(`http://127.0.0.1:${range.port}`);
  });

  it("all ports of the range taken: exit 2 saying so; an explicit --port still wins", async () => {
    const blocker = net.createServer();
    occupied.push(blocker);
    await new Promise<void>((resolve) => blocker.listen(range.port, "127.0.0.1", resolve));
    const busy = await runCliInProcess([...PROXY, "/dev/null"]);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toContain(`no free port in ${range.port}..${range.port} on 127.0.0.1, where clients look; give --port`);
    expect(busy.stderr).not.toMatch(/internal error|\n\s+at /);
    const explicit = await runCliInProcess([...PROXY, "/dev/null", "--port", "0"]);
    expect(explicit.stderr).toBe("");
    expect(explicit.stdout.split("\n")[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(explicit.stdout.split("\n")[0]).not.toBe(`http://127.0.0.1:${range.port}`);
  });
});
