/** The protocols this build of the kit implements, by id. */
import type { ProtocolDef } from "./core/protocol.js";
import { mcpChat } from "./suites/mcp-chat/index.js";
import { openaiChat } from "./suites/openai-chat/index.js";
import { piWeb } from "./suites/pi-web/index.js";

export const PROTOCOLS: ProtocolDef[] = [mcpChat, openaiChat, piWeb];

/** Every protocol id the kit knows of, implemented or planned, in a stable order. */
export const ALL_PROTOCOL_IDS = ["mcp-chat", "openai-chat", "pi-web", "continue-remote", "stagewise-chat"];

export function findProtocol(id: string): ProtocolDef | undefined {
  return PROTOCOLS.find((p) => p.id === id);
}
