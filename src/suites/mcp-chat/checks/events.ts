/** Stream event types and their fields. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { readParams } from "../params.js";
import { eventEvidence, eventWhere, onStreams, serverCheck } from "./support.js";
import { ownEntry } from "../../../core/checks/check-helpers.js";


/** The seed's three event types and their schemas; profile-allowed extras use the StreamEvent overlay. */
export const EVENT_SCHEMAS: Record<string, string> = {
  tool_start: "tool-start-event",
  tool_end: "tool-end-event",
  text: "text-event",
};

export const EVENTS_CHECKS: CheckDef[] = [
  serverCheck("mcp-chat/events/known-type", (t, ctx) => {
    const known = new Set([...Object.keys(EVENT_SCHEMAS), ...readParams(ctx.params).allowedEventTypes]);
    const counts = new Map<string, number>();
    const observe = onStreams({
      start: () => undefined,
      only: ["text", "tool", "object"],
      event: (ev, p) => {
        if (p.kind !== "object") return;
        if (typeof p.type === "string" && known.has(p.type)) {
          counts.set(p.type, (counts.get(p.type) ?? 0) + 1);
          t.ok();
        } else {
          t.fail(`type one of ${[...known].join(", ")}`, `${eventWhere(ev)} has type ${p.type === undefined ? "(missing)" : excerpt(p.type)}`, eventEvidence(ev));
        }
      },
    });
    return {
      observe,
      finish: () => t.outcome(`event types seen: ${[...counts].map(([k, v]) => `${k} ×${v}`).join(", ")}`, "no JSON event was observed"),
    };
  }),
  serverCheck("mcp-chat/events/schema", (t, ctx) => {
    const extra = new Set(readParams(ctx.params).allowedEventTypes);
    let n = 0;
    const observe = onStreams({
      start: () => undefined,
      only: ["text", "tool", "object"],
      event: (ev, p) => {
        if (p.kind !== "object" || typeof p.type !== "string") return;
        const message = ownEntry(EVENT_SCHEMAS, p.type) ?? (extra.has(p.type) ? "stream-event" : undefined);
        if (!message) return;
        n++;
        const r = ctx.validate(message, p.value);
        if (r.ok) t.ok();
        else t.fail(`a valid ${p.type} event (${message}.schema.json)`, `${eventWhere(ev)}: ${formatSchemaErrors(r.errors)}`, eventEvidence(ev));
      },
    });
    return { observe, finish: () => t.outcome(`${n} event(s) of known types had valid fields`, "no event of a known type was observed") };
  }),
];
