/** Shared set-up of the proxy tests: a reference mock in-process, the proxy in front of it. */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { MockStartOptions, ProtocolDef, RunningMock } from "../../src/core/run/protocol.js";
import type { CheckResult } from "../../src/core/verdicts/result.js";
import { TranscriptBus } from "../../src/core/transcript/transcript.js";
import { startProxy, type ProxyOptions, type ProxyResult, type RunningProxy } from "../../src/proxy/index.js";

export const example = (name: string): string => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));

/**
 * Starts the protocol's mock (with a bus of its own, so it serves the kit's client cases the
 * example clients fetch) and the proxy in front of it.
 */
export async function mockBehindProxy(
  protocol: ProtocolDef,
  mock: MockStartOptions = {},
  proxy: Partial<ProxyOptions> = {},
): Promise<{ mock: RunningMock; proxy: RunningProxy; close(): Promise<ProxyResult> }> {
  const m = await protocol.startMock({ host: "127.0.0.1", port: 0, bus: new TranscriptBus(), ...mock });
  const p = await startProxy({ protocol: protocol.id, target: m.url, ...proxy });
  return {
    mock: m,
    proxy: p,
    async close() {
      const result = await p.close();
      await m.close();
      return result;
    },
  };
}

/** Runs a node script with the given environment; resolves with its exit code and stderr. */
export function runNode(script: string, args: string[], env: Record<string, string>, timeout = 40_000): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { env: { ...process.env, ...env }, timeout }, (err, _out, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr });
    });
  });
}

export const failed = (checks: CheckResult[]): string[] => checks.filter((c) => c.outcome === "fail").map((c) => c.id).sort();
export const judgedIds = (checks: CheckResult[]): string[] => checks.filter((c) => c.verdict === "pass" || c.outcome === "fail").map((c) => c.id);
