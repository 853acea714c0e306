/** Every server-side check of pi-web, in catalogue order (§4). */
import type { CheckDef } from "../../../core/checks/check.js";
import { CMD_CHECKS } from "./cmd.js";
import { CONN_CHECKS } from "./conn.js";
import { EVENT_CHECKS } from "./events.js";
import { EXT_CHECKS } from "./ext.js";
import { FANOUT_CHECKS } from "./fanout.js";
import { FRAMING_CHECKS } from "./framing.js";
import { HISTORY_CHECKS } from "./history.js";
import { QUEUE_CHECKS } from "./queue.js";
import { RPC_CHECKS } from "./rpc.js";
import { SESSION_CHECKS } from "./sessions.js";
import { STREAM_CHECKS } from "./stream.js";
import { TIMING_CHECKS } from "./timing.js";
import { TOOL_CHECKS } from "./tools.js";

/** Catalogue order of §4 (short ids). framing/json-object-frames is "both": this is its server half. */
export const PI_WEB_SERVER_ORDER = [
  "conn/ws-upgrade",
  "conn/other-path-404",
  "conn/token-401",
  "conn/origin-403",
  "conn/health",
  "framing/json-object-frames",
  "framing/server-schema",
  "framing/known-types",
  "rpc/response-per-command",
  "rpc/response-echo",
  "rpc/single-response",
  "rpc/result-shape",
  "rpc/unknown-command",
  "rpc/bad-input",
  "rpc/response-unicast",
  "cmd/prompt-accepted",
  "cmd/prompt-busy",
  "cmd/prompt-invalid",
  "cmd/prompt-images",
  "cmd/get-state-streaming",
  "cmd/get-messages",
  "cmd/list-sessions",
  "cmd/list-sessions-default-scope",
  "cmd/switch-session",
  "cmd/switch-session-missing",
  "cmd/new-session",
  "cmd/clear-queue",
  "cmd/abort",
  "cmd/abort-order",
  "queue/steer-injected",
  "queue/steer-skips-tools",
  "queue/follow-up-at-end",
  "queue/abort-keeps-queue",
  "event/agent-bracketing",
  "event/extras-consistent",
  "event/message-nesting",
  "event/error-run",
  "stream/block-grammar",
  "stream/end-values",
  "stream/toolcall-end",
  "stream/stop-reason",
  "stream/observed-variants",
  "stream/incremental",
  "tool/pairing",
  "tool/round-trip",
  "session/changed",
  "fanout/broadcast",
  "ext/dialog-resolves",
  "ext/first-reply-wins",
  "ext/stray-reply-ignored",
  "history/message-shapes",
  "timing/query-latency",
].map((id) => `pi-web/${id}`);

const ALL: CheckDef[] = [
  ...CONN_CHECKS,
  ...FRAMING_CHECKS,
  ...RPC_CHECKS,
  ...CMD_CHECKS,
  ...SESSION_CHECKS,
  ...QUEUE_CHECKS,
  ...EVENT_CHECKS,
  ...STREAM_CHECKS,
  ...TOOL_CHECKS,
  ...FANOUT_CHECKS,
  ...EXT_CHECKS,
  ...HISTORY_CHECKS,
  ...TIMING_CHECKS,
];

const rank = new Map(PI_WEB_SERVER_ORDER.map((id, i) => [id, i]));
for (const c of ALL) if (!rank.has(c.id)) throw new Error(`pi-web: check ${c.id} is not in the catalogue order`);

export const PI_WEB_SERVER_CHECKS: CheckDef[] = [...ALL].sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
