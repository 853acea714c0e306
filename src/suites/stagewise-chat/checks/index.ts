/** Every server-side check of stagewise-chat, in catalogue order (§4). */
import type { CheckDef } from "../../../core/check.js";
import { CHAT_CHECKS } from "./chat.js";
import { CHAT_SYNC_CHECKS } from "./chat-sync.js";
import { REJECT_CHECKS } from "./reject.js";
import { SIDE_CHECKS } from "./side.js";
import { TOOL_CHECKS } from "./tools.js";
import { TRPC_CHECKS } from "./trpc.js";
import { WIRE_CHECKS } from "./wire.js";

/** Catalogue order of §4 (short ids, server side; "both" checks contribute their server half). */
export const STAGEWISE_SERVER_ORDER = [
  "wire/info-shape",
  "wire/info-capabilities",
  "wire/info-cors",
  "wire/port-range",
  "wire/ws-upgrade",
  "wire/text-frames",
  "trpc/response-envelope",
  "trpc/date-annotations",
  "trpc/mutation-answered",
  "trpc/subscription-stays-open",
  "trpc/parse-error",
  "trpc/unknown-procedure",
  "trpc/keepalive-pong",
  "trpc/keepalive-ping",
  "state/initial-values",
  "state/coherent-with-chat",
  "messaging/update-shape",
  "messaging/initial-resync",
  "messaging/no-replay",
  "messaging/applicable",
  "messaging/reduced-equals-fresh",
  "messaging/send-user-message",
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
  "security/no-stack-leak",
  "security/ws-foreign-origin",
  "security/bind-address",
].map((id) => `stagewise-chat/${id}`);

const ALL: CheckDef[] = [...WIRE_CHECKS, ...TRPC_CHECKS, ...SIDE_CHECKS, ...CHAT_SYNC_CHECKS, ...CHAT_CHECKS, ...REJECT_CHECKS, ...TOOL_CHECKS];

const rank = new Map(STAGEWISE_SERVER_ORDER.map((id, i) => [id, i]));
for (const c of ALL) if (!rank.has(c.id)) throw new Error(`stagewise-chat: check ${c.id} is not in the catalogue order`);

export const STAGEWISE_SERVER_CHECKS: CheckDef[] = [...ALL].sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
