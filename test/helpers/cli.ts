/** Runs the built CLI (bin/agentwire.js → dist/) as a user would, with a time limit; or, quicker, inside the test's process. */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { run } from "../../src/cli/main.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BIN = fileURLToPath(new URL("../../bin/agentwire.js", import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], opts: { input?: string; timeoutMs?: number; env?: Record<string, string>; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: { ...process.env, ...(opts.env ?? {}) },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`agentwire ${args.join(" ")} did not finish in ${opts.timeoutMs ?? 60000} ms\n${stderr}`));
    }, opts.timeoutMs ?? 60_000);
    // "close", not "exit": the process may exit before its output is all read. A child of its own
    // still holding the pipes: what it wrote is read soon after its exit.
    let settled = false;
    const done = (code: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    };
    child.on("close", done);
    child.on("exit", (code) => setTimeout(() => done(code), 500).unref());
    // A command that exits without reading its input (--help, a usage error) closes the pipe first.
    child.stdin.on("error", () => undefined);
    child.stdin.end(opts.input ?? "");
  });
}

/**
 * The same command line run inside this process (no node start-up, modules loaded once per file):
 * for what the command decides — its output and exit code — where how the bin starts and ends the
 * process is not the point. Runs take turns; a command must finish by itself.
 */
export async function runCliInProcess(args: string[]): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await run(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

/** Starts a long-running CLI command and resolves with the first stdout line (a mock's URL). */
export function startCli(args: string[]): Promise<{ child: ChildProcess; firstLine: string; output: () => { stdout: string; stderr: string } }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let done = false;
    const timer = setTimeout(() => {
      if (!done) {
        child.kill("SIGKILL");
        reject(new Error(`no first line from agentwire ${args.join(" ")}\n${stderr}`));
      }
    }, 20_000);
    child.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString();
      const nl = stdout.indexOf("\n");
      if (!done && nl >= 0) {
        done = true;
        clearTimeout(timer);
        resolve({ child, firstLine: stdout.slice(0, nl), output: () => ({ stdout, stderr }) });
      }
    });
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) => {
      if (!done) {
        done = true;
        clearTimeout(timer);
        reject(new Error(`agentwire ${args.join(" ")} exited ${code} before printing a URL\n${stderr}`));
      }
    });
  });
}

/** The exit code, once the process has ended and its output is all read (so `output()` is whole). */
export function waitExit(child: ChildProcess, timeoutMs = 10_000): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const drained = (s: NodeJS.ReadableStream | null) => !s || (s as { readableEnded?: boolean }).readableEnded === true;
    if (child.exitCode !== null && drained(child.stdout) && drained(child.stderr)) return resolve(child.exitCode);
    const timer = setTimeout(() => reject(new Error("process did not exit in time")), timeoutMs);
    const done = (code: number | null) => {
      clearTimeout(timer);
      resolve(code);
    };
    child.on("close", done);
    // A process whose pipes a child of its own still holds: its output is as whole as it gets soon after its exit.
    child.on("exit", (code) => setTimeout(() => done(code), 500).unref());
  });
}
