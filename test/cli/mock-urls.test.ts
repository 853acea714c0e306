/**
 * `agentwire mock <protocol>` prints first the URL a client is pointed at, alone on its line, then
 * the mock's other URLs, one a line: every protocol's first line is tried as a client would use it.
 */
import type { ChildProcess } from "node:child_process";
import { WebSocket } from "ws";
import { describe, expect, it } from "vitest";
import { IMPLEMENTED_IDS } from "../../src/protocol-loader.js";
import { startCli, waitExit } from "../helpers/cli.js";

const HTTP = String.raw`http://127\.0\.0\.1:(\d+)`;

/** A client's first request through the first URL; resolves with what proves it reached the mock. */
async function pi(url: string): Promise<boolean> {
  const ws = new WebSocket(url, { headers: { origin: new URL(url.replace(/^ws/, "http")).origin } });
  try {
    const answer = new Promise<boolean>((resolve, reject) => {
      ws.once("error", reject);
      ws.on("message", (data) => {
        const m = JSON.parse(String(data)) as { type?: string; id?: string; success?: boolean };
        if (m.type === "response" && m.id === "s") resolve(m.success === true);
      });
    });
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    ws.send(JSON.stringify({ type: "get_state", id: "s" }));
    return await answer;
  } finally {
    ws.close();
  }
}

const ok = async (url: string) => (await fetch(url, { signal: AbortSignal.timeout(10_000) })).status === 200;

/** Per protocol: the lines (patterns, one capture: the port) and a client's use of the first. */
const EXPECTED: Record<string, { lines: string[]; client: (first: string) => Promise<boolean> }> = {
  "mcp-chat": { lines: [`${HTTP}`], client: (u) => ok(`${u}/servers`) },
  "openai-chat": { lines: [`${HTTP}/v1`, `${HTTP}`], client: (u) => ok(`${u}/models`) },
  "pi-web": { lines: [String.raw`ws://127\.0\.0\.1:(\d+)/ws`, `${HTTP}`], client: pi },
  "continue-remote": { lines: [`${HTTP}`], client: (u) => ok(`${u}/state`) },
  // The toolbar is given the agent's origin and finds the WebSocket through discovery.
  "stagewise-chat": { lines: [`${HTTP}`], client: (u) => ok(`${u}/stagewise/info`) },
};

/** Starts the mock and waits for its listening line (written after the URLs). */
async function mock(args: string[]): Promise<{ child: ChildProcess; lines: string[] }> {
  const { child, output } = await startCli(["mock", ...args, "--port", "0"]);
  for (let i = 0; i < 100 && !/listening/.test(output().stderr); i++) await new Promise((r) => setTimeout(r, 50));
  return { child, lines: output().stdout.split("\n").filter(Boolean) };
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill("SIGTERM");
  await waitExit(child, 20_000);
}

/** Each line matches its pattern, and all name the same port. */
function expectLines(lines: string[], patterns: string[]): void {
  expect(lines.length, lines.join("\n")).toBe(patterns.length);
  const ports = lines.map((line, i) => {
    const m = new RegExp(`^${patterns[i]}$`).exec(line);
    expect(m, `line ${i + 1}: ${line}`).not.toBeNull();
    return m![1];
  });
  expect(new Set(ports).size).toBe(1);
}

describe("agentwire mock: the URLs on stdout", () => {
  it("every implemented protocol has its expectation here", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...IMPLEMENTED_IDS].sort());
  });

  it.each(IMPLEMENTED_IDS)("%s: first the URL a client uses, then the others", async (id) => {
    const { child, lines } = await mock([id]);
    try {
      expectLines(lines, EXPECTED[id]!.lines);
      expect(await EXPECTED[id]!.client(lines[0]!)).toBe(true);
    } finally {
      await stop(child);
    }
  });

  it("follow the paths the mock is given, and --check-client prints the same", async () => {
    const based = await mock(["openai-chat", "--set", "basePath=/gateway"]);
    try {
      expectLines(based.lines, [`${HTTP}/gateway/v1`, `${HTTP}/gateway`]);
      expect(await ok(`${based.lines[0]}/models`)).toBe(true);
    } finally {
      await stop(based.child);
    }
    const socket = await mock(["pi-web", "--set", "wsPath=/agent"]);
    try {
      expectLines(socket.lines, [String.raw`ws://127\.0\.0\.1:(\d+)/agent`, `${HTTP}`]);
      expect(await pi(socket.lines[0]!)).toBe(true);
    } finally {
      await stop(socket.child);
    }
    const judging = await mock(["openai-chat", "--check-client"]);
    try {
      expectLines(judging.lines, EXPECTED["openai-chat"]!.lines);
    } finally {
      judging.child.kill("SIGTERM");
      await waitExit(judging.child, 20_000);
    }
  });
});

describe("agentwire mock continue-remote: POST /exit", () => {
  it("stops the mock as the real server stops: a line on stderr, exit 0", async () => {
    const { child, firstLine, output } = await startCli(["mock", "continue-remote", "--port", "0", "--set", "exitDelayMs=0"]);
    const answer = await fetch(`${firstLine}/exit`, { method: "POST" });
    expect(answer.status).toBe(200);
    expect(await waitExit(child, 20_000)).toBe(0);
    expect(output().stderr).toContain("agentwire: the continue-remote mock stopped: a client asked it to exit");
  });
});
