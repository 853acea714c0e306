/**
 * Profiles of stagewise-chat (§5): what the known implementations do differently from the
 * contract, and nothing else.
 *
 * - `stagewise-published`: @stagewise/agent-interface ≤0.2.3 has no chat capability; only the
 *   wire, tRPC, state, messaging and security rules apply (the others are INFO, reported but not
 *   failed), and its messaging quirks (replace truncation, replay after a resync, aliasing) are
 *   SHOULD.
 * - `stagewise-internal-2025-08`: stagewise's private chat router: root procedure paths, a bare
 *   string as the switch/delete input (schema overlay), and the snapshot, sequence and error-shape
 *   rules at SHOULD.
 *
 * Neither requires a `stopped` frame after the kit stops an idle subscription: both upstream
 * routers send none, and no check requires one under any profile.
 */
import type { Level, ProfileDef } from "../../core/checks/check.js";
import { STAGEWISE_SERVER_CHECKS } from "./checks/index.js";

const id = (s: string) => `stagewise-chat/${s}`;
const levels = (ids: string[], level: Level): Record<string, Level> => Object.fromEntries(ids.map((s) => [id(s), level]));

/**
 * Checks the published package cannot pass (it has no chat capability): the chat and tools groups,
 * the capability flag that announces chat, and the state that must agree with the chat.
 */
const CHAT_ONLY = [
  ...STAGEWISE_SERVER_CHECKS.map((c) => c.id.slice("stagewise-chat/".length)).filter((s) => /^(chat|tools)\//.test(s)),
  "wire/info-capabilities",
  "state/coherent-with-chat",
];

export const STAGEWISE_PUBLISHED: ProfileDef = {
  name: "stagewise-published",
  description:
    "@stagewise/agent-interface as published (≤0.2.3): no chat capability (chat and tools rules reported as INFO), toolCalling still mounted; the messaging quirks (replace truncation, replay after resync, aliasing) are SHOULD.",
  levels: {
    ...levels(CHAT_ONLY, "INFO"),
    ...levels(["messaging/applicable", "messaging/no-replay", "messaging/reduced-equals-fresh"], "SHOULD"),
  },
};

export const STAGEWISE_INTERNAL: ProfileDef = {
  name: "stagewise-internal-2025-08",
  description:
    "stagewise's private chat router (2025-08): root procedure paths, string switch/delete inputs; the snapshot, sequence and error-shape rules are SHOULD.",
  levels: levels(
    [
      "chat/snapshot-order",
      "chat/snapshot-every-subscribe",
      "chat/snapshot-coherent",
      "chat/seq-tracked",
      "chat/seq-snapshot-head",
      "chat/seq-gap-free",
      "chat/seq-global",
      "chat/reject-error-shape",
    ],
    "SHOULD",
  ),
  params: { chatPrefix: "", chatIdAsString: true },
};

export const STAGEWISE_PROFILES: ProfileDef[] = [STAGEWISE_PUBLISHED, STAGEWISE_INTERNAL];
