/** Every server-side check of stagewise-chat, in catalogue order (§4). */
import type { CheckDef } from "../../../core/checks/check.js";
import { CHAT_CHECKS } from "./chat.js";
import { CHAT_SYNC_CHECKS } from "./chat-sync.js";
import { REJECT_CHECKS } from "./reject.js";
import { SIDE_CHECKS } from "./side.js";
import { TOOL_CHECKS } from "./tools.js";
import { TRPC_CHECKS } from "./trpc.js";
import { WIRE_CHECKS } from "./wire.js";

/** The groups of §4's catalogue, in its order: a check's group is the first segment of its short id. */
const GROUPS = ["wire", "trpc", "state", "messaging", "chat", "tools", "security"];

/** The check modules in catalogue order; a module may hold checks of several groups (side: state, messaging, security). */
const MODULES: CheckDef[] = [...WIRE_CHECKS, ...TRPC_CHECKS, ...SIDE_CHECKS, ...CHAT_SYNC_CHECKS, ...CHAT_CHECKS, ...REJECT_CHECKS, ...TOOL_CHECKS];

const groupOf = (c: CheckDef): number => {
  const i = GROUPS.indexOf(c.id.split("/")[1] ?? "");
  if (i < 0) throw new Error(`stagewise-chat: check ${c.id} is in no group of the catalogue (${GROUPS.join(", ")})`);
  return i;
};

/** Catalogue order (§4): by group, and within a group in the modules' order (the sort is stable). */
export const STAGEWISE_SERVER_CHECKS: CheckDef[] = [...MODULES].sort((a, b) => groupOf(a) - groupOf(b));

/** Their full ids, in that order ("both" checks contribute their server half). */
export const STAGEWISE_SERVER_ORDER: string[] = STAGEWISE_SERVER_CHECKS.map((c) => c.id);
