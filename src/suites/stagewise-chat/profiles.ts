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
import type { Level, ProfileDef } from "../../core/check.js";

const id = (s: string) => `stagewise-chat/${s}`;
const levels = (ids: string[], level: Level): Record<string, Level> => Object.fromEntries(ids.map((s) => [id(s), level]));

/** Checks outside the groups the published package can pass (it has no chat capability). */
const CHAT_ONLY = [
  "wire/info-capabilities",
  "chat/snapshot-order",
  "chat/snapshot-every-subscribe",
  "chat/snapshot-coherent",
  "chat/seq-tracked",
  "chat/seq-snapshot-head",
  "chat/seq-gap-free",
  "chat/seq-global",
  "chat/update-shape",
  "chat/update-applicable",
  "chat/snapshot-equals-reduced",
  "chat/create-chat",
  "chat/switch-chat",
  "chat/delete-chat",
  "chat/update-title",
  "chat/send-message",
  "chat/send-returns-promptly",
  "chat/delete-messages",
  "chat/stop",
  "chat/working-brackets-turn",
  "chat/stream-incremental",
  "chat/stream-append",
  "chat/reject-error-shape",
  "chat/reject-unknown-ids",
  "chat/reject-not-active",
  "chat/reject-while-working",
  "chat/reject-invalid-input",
  "chat/reject-no-side-effects",
  "chat/no-toolcalling",
  "tools/approval-recorded",
  "tools/reject-not-pending",
  "tools/result-linked",
  "tools/approval-respected",
  "tools/toolbar-result-recorded",
  "tools/stop-closes-pending",
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
