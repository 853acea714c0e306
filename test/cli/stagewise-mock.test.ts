/** `agentwire mock stagewise-chat`: prints its URL first, serves discovery and the socket, stops on SIGTERM; bad flags exit 2. */
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { runCliInProcess, startCli, waitExit } from "../helpers/cli.js";

describe("agentwire mock stagewise-chat", () => {
  it("prints its URL first, answers discovery and the WebSocket, and stops on SIGTERM", async () => {
    const { child, firstLine } = await startCli(["mock", "stagewise-chat", "--port", "0", "--scenario", "reasoning", "--set", "chunkSize=4"]);
    try {
      expect(firstLine).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const info = await fetch(`${firstLine}/stagewise/info`);
      expect(info.status).toBe(200);
      expect(await info.json()).toMatchObject({ capabilities: { toolCalling: false, chatHistory: true } });
      const ws = new WebSocket(`${firstLine.replace(/^http/, "ws")}/stagewise/ws`);
      await new Promise((resolve, reject) => {
        ws.once("open", resolve);
        ws.once("error", reject);
      });
      const pong = new Promise<string>((resolve) => ws.once("message", (d: Buffer) => resolve(d.toString())));
      ws.send("PING");
      expect(await pong).toBe("PONG");
      ws.close();
    } finally {
      child.kill("SIGTERM");
    }
    expect(await waitExit(child)).toBe(0);
  });

  it("serves a fault by name: discovery without toolCalling:false", async () => {
    const { child, firstLine } = await startCli(["mock", "stagewise-chat", "--port", "0", "--fault", "info-advertises-toolcalling"]);
    try {
      expect(await (await fetch(`${firstLine}/stagewise/info`)).json()).toMatchObject({ capabilities: { toolCalling: true } });
    } finally {
      child.kill("SIGTERM");
    }
    expect(await waitExit(child)).toBe(0);
  });

  it("exits 2 on an unknown scenario, framing, fault or setting", async () => {
    for (const args of [["--scenario", "nope"], ["--framing", "nope"], ["--fault", "nope"], ["--set", "chunkSize=0"], ["--set", "colour=blue"]]) {
      const r = await runCliInProcess(["mock", "stagewise-chat", "--port", "0", ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/stagewise-chat mock: |fault/);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    }
  });
});
