/**
 * How the long commands end: `mock` and `proxy` stop on SIGINT and SIGTERM alike and write their reports, leave no
 * signal handler behind when they end another way, and the bin exits only once stdout and stderr went out.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { ROOT, runCliInProcess, startCli, waitExit } from "../helpers/cli.js";

const handlers = () => [process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")];

/** Bytes a stream gives, read only after `delayMs` (a reader slower than the writer). */
async function readLate(s: NodeJS.ReadableStream, delayMs: number): Promise<number> {
  await new Promise((r) => setTimeout(r, delayMs));
  let n = 0;
  for await (const chunk of s) n += (chunk as Buffer).length;
  return n;
}

describe("ending the long-running commands", () => {
  it("the bin's exit waits for stdout and stderr, read by a slow reader, to go out whole", async () => {
    const main = join(ROOT, "dist/cli/bundle/main.js");
    const script = `import { exitWhenFlushed } from ${JSON.stringify(main)};
process.stdout.write("o".repeat(2e6));
process.stderr.write("e".repeat(2e6));
exitWhenFlushed(0);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const [out, err] = await Promise.all([readLate(child.stdout, 1000), readLate(child.stderr, 1000)]);
    expect(await exited).toBe(0);
    expect([out, err]).toEqual([2e6, 2e6]);
  });

  it("mock --check-client on SIGTERM writes its report, as on Ctrl-C", async () => {
    const report = join(mkdtempSync(join(tmpdir(), "agentwire-stop-")), "client.json");
    const { child, firstLine, output } = await startCli(["mock", "mcp-chat", "--port", "0", "--check-client", "--report", report]);
    await (await fetch(`${firstLine}/servers`)).text();
    child.kill("SIGTERM");
    expect(await waitExit(child, 20_000)).toBe(3);
    expect(JSON.parse(readFileSync(report, "utf8"))).toMatchObject({ protocol: "mcp-chat", side: "client" });
    expect(output().stderr).toContain(`agentwire: client report written to ${report}`);
  });

  it("mock --check-client stopped right after a client's message: the poll it still owed is not failed", async () => {
    const report = join(mkdtempSync(join(tmpdir(), "agentwire-stop-")), "client.json");
    const { child, firstLine } = await startCli(["mock", "continue-remote", "--port", "0", "--check-client", "--report", report]);
    await (await fetch(`${firstLine}/message`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"message":"hi"}' })).text();
    child.kill("SIGTERM");
    expect(await waitExit(child, 20_000)).toBe(3);
    const { checks } = JSON.parse(readFileSync(report, "utf8")) as { checks: { id: string; verdict: string; message: string }[] };
    expect(checks.find((c) => c.id === "continue-remote/client/polls-state")).toMatchObject({ verdict: "incomplete", message: expect.stringContaining("when the kit stopped the run (SIGTERM)") });
  });

  it("proxy on Ctrl-C says what stopped it and reports", async () => {
    const { child, output } = await startCli(["proxy", "mcp-chat", "--target", "http://127.0.0.1:1", "--port", "0", "--reporter", "json"]);
    child.kill("SIGINT");
    expect(await waitExit(child, 20_000)).toBe(3);
    expect(output().stderr).toContain("agentwire: proxy stopping (Ctrl-C)");
    expect(output().stdout).toContain('"mcp-chat/servers/list-shape"');
  });

  it("proxy ended by --duration leaves no SIGINT or SIGTERM handler in the process it ran in", async () => {
    const before = handlers();
    const r = await runCliInProcess(["proxy", "mcp-chat", "--target", "http://127.0.0.1:1", "--port", "0", "--duration", "1", "--quiet", "--reporter", "json", "--output", "/dev/null"]);
    expect(r.code, r.stderr).toBe(3);
    expect(handlers()).toEqual(before);
  });

  it("mock ended by a client (continue-remote POST /exit) leaves no SIGINT or SIGTERM handler in the process it ran in", async () => {
    const before = handlers();
    let stderr = "";
    let asked: Promise<unknown> | undefined;
    const code = await run(["mock", "continue-remote", "--port", "0", "--set", "exitDelayMs=0"], {
      stdout: (text) => {
        // The first line is the mock's URL: the client asks it to exit.
        asked ??= fetch(`${text.split("\n")[0]}/exit`, { method: "POST" }).then((res) => res.text());
      },
      stderr: (text) => (stderr += text),
    });
    await asked;
    expect(code, stderr).toBe(0);
    expect(stderr).toContain("a client asked it to exit");
    expect(handlers()).toEqual(before);
  });
});
