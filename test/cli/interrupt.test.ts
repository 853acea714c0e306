/** Ctrl-C or SIGTERM during `agentwire test` or `test-client`: the partial report says the run was interrupted, and so does stderr (built CLI). */
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

/** Runs the command, sends `signal` once stderr shows `ready` (it has started testing), and collects what it printed. */
function interrupt(args: string[], signal: NodeJS.Signals = "SIGINT", ready = /GET \/servers/): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let sent = false;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      clientGone(stderr);
      reject(new Error(`no exit after ${signal}\n${stderr}`));
    }, 20_000);
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      // The probes are waiting on the silent server once the first request is under way.
      if (!sent && ready.test(stderr)) {
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

/** A client that says its pid on stderr, then runs until stopped; `stubborn`: it ignores SIGTERM too. */
function endlessClient(stubborn: boolean): string[] {
  const ignore = stubborn ? "process.on('SIGTERM', () => undefined);" : "";
  return ["--", process.execPath, "-e", `${ignore} process.stderr.write('client pid ' + process.pid + '\\n'); setInterval(() => undefined, 1000);`];
}

const clientPid = (stderr: string) => Number(/client pid (\d+)/.exec(stderr)?.[1]);
const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Whether the client the run started is gone; one left running is ended here, so a failing test leaves none behind. */
function clientGone(stderr: string): boolean {
  const pid = clientPid(stderr);
  if (!running(pid)) return true;
  process.kill(pid, "SIGKILL");
  return false;
}

describe("Ctrl-C or SIGTERM during agentwire test-client", () => {
  it("SIGTERM stops the client and writes the reports, which say the run was interrupted; exit 3", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "agentwire-interrupt-")), "report.json");
    const r = await interrupt(["test-client", "mcp-chat", "--reporter", "json", "--output", out, "--reporter", "console", ...endlessClient(false)], "SIGTERM", /client pid \d+/);
    const gone = clientGone(r.stderr);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain("agentwire: interrupted: the report covers what ran before SIGTERM");
    const report = JSON.parse(readFileSync(out, "utf8")) as { side: string; error: string };
    expect(report.side).toBe("client");
    // The client did nothing wrong by being stopped: the note says who stopped it.
    expect(report.error).toBe("interrupted (SIGTERM): checks cut short are incomplete; the client command was stopped with the run");
    expect(r.stdout).toMatch(/^note: interrupted \(SIGTERM\): checks cut short are incomplete/m);
    expect(gone).toBe(true);
  });

  it("Ctrl-C does the same, and a client that ignores SIGTERM is killed rather than left running", async () => {
    const r = await interrupt(["test-client", "mcp-chat", ...endlessClient(true)], "SIGINT", /client pid \d+/);
    const gone = clientGone(r.stderr);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain("agentwire: interrupted: the report covers what ran before Ctrl-C");
    expect(r.stdout).toMatch(/^note: interrupted \(Ctrl-C\): checks cut short are incomplete; the client command was stopped with the run/m);
    expect(gone).toBe(true);
  });
});
