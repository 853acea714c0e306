/**
 * Runs the continue-remote engine as a real HTTP server (node:http through serveMock). Settings are
 * validated before the port is opened; `/exit` closes the server after `exitDelayMs` (§3.13).
 */
import type { MockStartOptions, RunningMock } from "../../core/run/protocol.js";
import { serveMock } from "../../core/mock/serve-fetch.js";
import { createContinueRemoteEngine, type ContinueRemoteEngine } from "./engine.js";
import type { ContinueRemoteMockOptions } from "./options.js";

export const CONTINUE_REMOTE_DEFAULT_PORT = 8000;

export type ContinueRemoteStartOptions = Pick<MockStartOptions, "host" | "port" | "settings"> &
  Omit<ContinueRemoteMockOptions, "onExit">;

export interface RunningContinueRemoteMock extends RunningMock {
  engine: ContinueRemoteEngine;
  /** Resolves once the server has closed, after `/exit` or close(). */
  closed: Promise<void>;
}

export async function startContinueRemoteMock(options: ContinueRemoteStartOptions = {}): Promise<RunningContinueRemoteMock> {
  const { host = "127.0.0.1", port = CONTINUE_REMOTE_DEFAULT_PORT, settings, ...rest } = options;
  // The validator (zod) loads only when there are settings to check, so a plain mock starts quickly.
  const fromSettings =
    settings && Object.keys(settings).length > 0 ? (await import("./settings.js")).parseSettings(settings) : {};
  let close: () => Promise<void> = () => Promise.resolve();
  const engine = createContinueRemoteEngine({ ...fromSettings, ...rest, onExit: () => void close() });
  // A fault may bind elsewhere (all interfaces, as the real server); the URL stays a loopback one.
  const faultHost = engine.hooks.server?.host;
  const served = await serveMock(engine.reply, {
    host: faultHost ?? host,
    port,
    maxBodyBytes: engine.options.bodyLimit,
    errorBody: (_status, message) => ({ error: message }),
  });
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let closing: Promise<void> | undefined;
  close = () => {
    closing ??= (async () => {
      engine.dispose();
      await served.close();
      resolveClosed();
    })();
    return closing;
  };
  const url = faultHost ? `http://127.0.0.1:${new URL(served.url).port}` : served.url;
  return { url, engine, closed, close: () => close() };
}
