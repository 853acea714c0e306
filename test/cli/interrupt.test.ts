/** Ctrl-C during `agentwire test`: the partial report says the run was interrupted, and so does stderr (built CLI). */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT } from "../helpers/cli.js";

// A server that accepts connections and never answers: the run waits until it is interrupted.
let silent: net.Server;
let url: string;
const sockets = new Set<net.Socket>();
beforeAll(async () => {
  silent = net.createServer((s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
});
afterAll(() => {
  for (const s of sockets) s.destroy();
  return new Promise((resolve) => silent.close(resolve));
});

/** Runs the command, sends SIGINT once it has started testing, and collects what it printed. */
function interrupt(args: string[], signal: NodeJS.Signals = "SIGINT"): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let sent = false;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no exit after SIGINT\n${stderr}`));
    }, 20_000);
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      // The probes are waiting on the silent server once the first request is under way.
      if (!sent && /GET \/servers/.test(stderr)) {
        sent = true;
        setTimeout(() => child.kill(signal), 200);
      }
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("Ctrl-C during agentwire test", () => {
  it("says the run was interrupted, on stderr and in the report's note; exit 3", async () => {
    const r = await interrupt(["test", "mcp-chat", "--url", url]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain("agentwire: interrupted: the report covers what ran before Ctrl-C");
    expect(r.stdout).toMatch(/^note: interrupted \(Ctrl-C\): checks cut short are incomplete/m);
  });

  it("SIGTERM (a CI job's time limit) stops the run the same way: the reports are written, exit 3", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "agentwire-interrupt-")), "report.json");
    const r = await interrupt(["test", "mcp-chat", "--url", url, "--reporter", "json", "--output", out, "--reporter", "console"], "SIGTERM");
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain("agentwire: interrupted: the report covers what ran before SIGTERM");
    expect(JSON.parse(readFileSync(out, "utf8"))).toMatchObject({ error: expect.stringContaining("interrupted (SIGTERM)") });
  });

  it("baseline write interrupted writes no file", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "agentwire-interrupt-")), "b.yaml");
    const r = await interrupt(["baseline", "write", "mcp-chat", "--url", url, "--output", out]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`${out} not written: the run did not finish`);
    expect(existsSync(out)).toBe(false);
  });
});
