/** The protocols this build of the kit implements, by id, all loaded (the CLI loads them one by one: protocol-loader.ts). */
import type { ProtocolDef } from "./core/run/protocol.js";
import { mcpChat } from "./suites/mcp-chat/index.js";
import { openaiChat } from "./suites/openai-chat/index.js";
import { piWeb } from "./suites/pi-web/index.js";
import { continueRemote } from "./suites/continue-remote/index.js";
import { stagewiseChat } from "./suites/stagewise-chat/index.js";

export const PROTOCOLS: ProtocolDef[] = [mcpChat, openaiChat, piWeb, continueRemote, stagewiseChat];

export { ALL_PROTOCOL_IDS } from "./protocol-loader.js";

export function findProtocol(id: string): ProtocolDef | undefined {
  return PROTOCOLS.find((p) => p.id === id);
}
