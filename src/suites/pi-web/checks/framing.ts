/** §1 Framing and §2 shapes of what the server sends. */
import { excerpt, type CheckContext, type CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { frameEvidence, onWire, serverCheck, where } from "./support.js";

/** Event types of the seed and the §2.3 extras. */
export const SEED_EVENTS = [
  "agent_start",
  "agent_end",
  "message_start",
  "message_update",
  "message_end",
  "tool_execution_start",
  "tool_execution_end",
  "session_changed",
  "extension_ui_request",
  "extension_error",
] as const;
export const EXTRA_EVENTS = [
  "turn_start",
  "turn_end",
  "tool_execution_update",
  "auto_compaction_start",
  "auto_compaction_end",
  "auto_retry_start",
  "auto_retry_end",
] as const;
export const KNOWN_TYPES: ReadonlySet<string> = new Set(["response", ...SEED_EVENTS, ...EXTRA_EVENTS]);

const schemaNames = new Map<string, string>();

/** Schema of an event type: `<type-kebab>-event` (named once per type: every server message asks). */
export function eventSchema(type: string): string {
  let name = schemaNames.get(type);
  if (name === undefined) schemaNames.set(type, (name = `${type.replace(/_/g, "-")}-event`));
  return name;
}

/** The `assistantMessageEvent` types, each the `const` of one branch of the union, named `$defs/<camelCase>`. */
export const UPDATE_TYPES = ["start", "text_start", "text_delta", "text_end", "thinking_start", "thinking_delta", "thinking_end", "toolcall_start", "toolcall_delta", "toolcall_end", "done", "error"] as const;
const UPDATE_BRANCH = new Map<string, string>(UPDATE_TYPES.map((t) => [t, `assistant-message-event#/$defs/${t.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase())}`]));

/**
 * Whether a message_update holds its schema, judged by parts: `message` as an assistant message,
 * `assistantMessageEvent` against the one branch of the union its `type` names. The branches'
 * `type` consts differ, so the union holds exactly when that branch does; the whole oneOf makes ajv
 * try (and build errors for) all twelve, and every streamed delta is one. Only a pass is taken from
 * here: anything else is validated whole, which gives the finding.
 */
export function updateHolds(validate: CheckContext["validate"], v: Record<string, unknown>): boolean {
  const u = v.assistantMessageEvent;
  const branch = typeof u === "object" && u !== null && !Array.isArray(u) ? UPDATE_BRANCH.get((u as { type?: unknown }).type as string) : undefined;
  return branch !== undefined && validate("assistant-message", v.message).ok && validate(branch, u).ok;
}

export const FRAMING_CHECKS: CheckDef[] = [
  serverCheck("pi-web/framing/json-object-frames", (t) => {
    const observe = onWire({
      frame: (ev, m, c) => {
        if (ev.binary) t.fail("a text frame", `${where(ev, c, "frame")} is a binary frame`, frameEvidence(ev));
        else if (ev.invalidUtf8) t.fail("valid UTF-8 in a text frame", `${where(ev, c, "frame")} is a text frame of invalid UTF-8`, frameEvidence(ev));
        else if (m.kind !== "object") t.fail("exactly one JSON object", `${where(ev, c, "frame")}: ${m.reason}`, frameEvidence(ev));
        else t.ok();
      },
    });
    return { observe, finish: () => t.outcome(`${t.count} server message(s) were single JSON objects in text frames`, "the server sent no message") };
  }),
  serverCheck("pi-web/framing/server-schema", (t, ctx) => {
    const observe = onWire(
      {
        in: (ev, m, c) => {
          if (m.kind !== "object" || typeof m.type !== "string") return;
          if (m.type === "response") {
            const v = m.value;
            const bad =
              typeof v.success !== "boolean"
                ? `success is ${excerpt(v.success)}`
                : "id" in v && typeof v.id !== "string"
                  ? `id is ${excerpt(v.id)}`
                  : "command" in v && typeof v.command !== "string"
                    ? `command is ${excerpt(v.command)}`
                    : undefined;
            if (bad) t.fail("a response envelope: boolean success, string id and command", `${where(ev, c)}: ${bad}`, frameEvidence(ev));
            else t.ok();
            return;
          }
          if (!KNOWN_TYPES.has(m.type)) return;
          if (m.type === "message_update" && updateHolds(ctx.validate, m.value)) {
            t.ok();
            return;
          }
          const name = eventSchema(m.type);
          const r = ctx.validate(name, m.value);
          if (r.ok) t.ok();
          else t.fail(`a valid ${m.type} (${name}.schema.json)`, `${where(ev, c)}: ${formatSchemaErrors(r.errors)}`, frameEvidence(ev));
        },
      },
      { clientsOnly: true },
    );
    return { observe, finish: () => t.outcome(`${t.count} server message(s) validated`, "the server sent no message of a known type") };
  }),
  serverCheck("pi-web/framing/known-types", (t) => {
    const counts = new Map<string, number>();
    const observe = onWire(
      {
        in: (ev, m, c) => {
          if (m.kind !== "object") return;
          if (typeof m.type === "string" && KNOWN_TYPES.has(m.type)) {
            counts.set(m.type, (counts.get(m.type) ?? 0) + 1);
            t.ok();
          } else t.fail("a known type", `${where(ev, c, "message")} has type ${m.type === undefined ? "(missing)" : excerpt(m.type)}`, frameEvidence(ev));
        },
      },
      { clientsOnly: true },
    );
    return {
      observe,
      finish: () =>
        t.outcome(
          `types seen: ${[...counts]
              .sort((a, b) => b[1] - a[1])
              .map(([k, v]) => `${k} ×${v}`)
              .join(", ")}`,
          "the server sent no JSON object",
        ),
    };
  }),
];
