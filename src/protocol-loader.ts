/**
 * The implemented protocols by id, each imported on first use: a command about one protocol loads
 * only that one, and `agentwire mock` only its mock (not its checks, probes or schemas).
 */
import type { MockStartOptions, ProtocolDef, RunningMock } from "./core/run/protocol.js";

/** Every protocol id the kit knows of, implemented or planned, in a stable order. */
export const ALL_PROTOCOL_IDS = ["mcp-chat", "openai-chat", "pi-web", "continue-remote", "stagewise-chat"];

/** What `agentwire mock` needs of a protocol. */
export interface MockEntry {
  defaultPort: number;
  startMock(options: MockStartOptions): Promise<RunningMock>;
}

const SUITES: Record<string, () => Promise<ProtocolDef>> = {
  "mcp-chat": async () => (await import("./suites/mcp-chat/index.js")).mcpChat,
  "openai-chat": async () => (await import("./suites/openai-chat/index.js")).openaiChat,
  "pi-web": async () => (await import("./suites/pi-web/index.js")).piWeb,
  "continue-remote": async () => (await import("./suites/continue-remote/index.js")).continueRemote,
  "stagewise-chat": async () => (await import("./suites/stagewise-chat/index.js")).stagewiseChat,
};

const MOCKS: Record<string, () => Promise<MockEntry>> = {
  "mcp-chat": async () => mockEntry(await import("./suites/mcp-chat/mock.js")),
  "openai-chat": async () => mockEntry(await import("./suites/openai-chat/mock.js")),
  "pi-web": async () => mockEntry(await import("./suites/pi-web/mock.js")),
  "continue-remote": async () => mockEntry(await import("./suites/continue-remote/mock.js")),
  "stagewise-chat": async () => mockEntry(await import("./suites/stagewise-chat/mock.js")),
};

const mockEntry = (m: { DEFAULT_PORT: number; startMock: MockEntry["startMock"] }): MockEntry => ({ defaultPort: m.DEFAULT_PORT, startMock: m.startMock });

/** Ids of the implemented protocols, in the order `agentwire test` runs them. */
export const IMPLEMENTED_IDS = Object.keys(SUITES);

export const isImplemented = (id: string): boolean => Object.hasOwn(SUITES, id);

export function loadProtocol(id: string): Promise<ProtocolDef> {
  const load = SUITES[id];
  if (!load) throw new Error(`protocol "${id}" is not implemented`);
  return load();
}

/** Whether a protocol has a reference mock (it may come before the protocol's suite). */
export const hasMock = (id: string): boolean => Object.hasOwn(MOCKS, id);

export function loadMock(id: string): Promise<MockEntry> {
  const load = MOCKS[id];
  if (!load) throw new Error(`protocol "${id}" is not implemented`);
  return load();
}

export function loadAllProtocols(): Promise<ProtocolDef[]> {
  return Promise.all(IMPLEMENTED_IDS.map(loadProtocol));
}
