/** POST /disconnect: its answer, its effect, and disconnecting while idle. */
import type { CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { L } from "../labels.js";
import { describe, evidenceOf, isObject, judgeExchanges, serverCheck } from "./support.js";

const DISCONNECTS = new Set<string>([L.disconnectReset, L.disconnectIdle, L.disconnect]);

/** Which status probe follows which disconnect. */
const STATUS_AFTER: Record<string, string> = {
  [L.disconnectReset]: L.statusAfterReset,
  [L.disconnect]: L.statusAfterDisconnect,
};

export const DISCONNECT_CHECKS: CheckDef[] = [
  serverCheck("mcp-chat/disconnect/success-shape", (t, ctx) => {
    let n = 0;
    const observe = judgeExchanges(t, (x) => DISCONNECTS.has(x.label), (x) => {
      // Only the disconnect of a live connection must be 200; the resets may find nothing to do.
      if (x.status !== 200) {
        if (x.label === L.disconnect) t.fail("200 {success: true} when disconnecting a live connection", describe(x), evidenceOf(x));
        return;
      }
      n++;
      const r = ctx.validate("disconnect-response", x.json);
      if (r.ok) t.ok();
      else t.fail("{success: true}", `${describe(x)}: ${x.isJson ? formatSchemaErrors(r.errors) : "body is not JSON"}`, evidenceOf(x));
    });
    return { observe, finish: () => t.outcome(`${n} disconnect answer(s) were 200 {success: true}`, "no disconnect got a 200 answer") };
  }),
  serverCheck("mcp-chat/disconnect/clears-state", (t) => {
    let after: string | undefined;
    let n = 0;
    const observe = judgeExchanges(t, (x) => x.label in STATUS_AFTER || Object.values(STATUS_AFTER).includes(x.label), (x) => {
      if (x.label in STATUS_AFTER) {
        after = x.status === 200 ? STATUS_AFTER[x.label] : undefined;
        return;
      }
      if (x.label !== after) return;
      after = undefined;
      const connected = isObject(x.json) ? x.json.connected : undefined;
      if (connected === false) {
        n++;
        t.ok();
      } else if (connected === true) {
        t.fail("connected: false after a 200 disconnect", `${x.label}: GET /status still says connected to ${JSON.stringify(x.json && (x.json as { server_id?: unknown }).server_id)}`, evidenceOf(x));
      } else {
        t.untestable(`${x.label} did not say whether it is connected (${describe(x)}); see status/disconnected-shape`);
      }
    });
    return { observe, finish: () => t.outcome(`/status said disconnected after ${n} successful disconnect(s)`, "no disconnect succeeded") };
  }),
  serverCheck("mcp-chat/disconnect/idempotent", (t) => {
    let idle = false;
    let reset = false;
    let stuck = false;
    const observe = judgeExchanges(t, (x) => x.label === L.disconnectReset || x.label === L.statusAfterReset || x.label === L.disconnectIdle, (x) => {
      if (x.label === L.disconnectReset) {
        reset = x.status === 200;
        return;
      }
      if (x.label === L.statusAfterReset) {
        // Only a disconnect that /status confirmed idle is "while disconnected".
        idle = isObject(x.json) && x.json.connected === false;
        // Still connected after a 200 disconnect: disconnect/clears-state's failure.
        stuck = reset && x.status === 200 && isObject(x.json) && x.json.connected === true;
        return;
      }
      if (!idle && stuck) t.knockOn("mcp-chat/disconnect/clears-state", L.statusAfterReset);
      else if (!idle) t.untestable("/status did not confirm the target was disconnected before the idle disconnect");
      else if (x.status === 200) t.ok();
      else t.fail("200 {success: true} when already disconnected", describe(x), evidenceOf(x));
    });
    return { observe, finish: () => t.outcome("disconnecting while disconnected answered 200", "no disconnect was probed after /status confirmed the target idle") };
  }),
];
