/**
 * framing/server-schema judges a message_update by parts (its message, the one branch of the update union its type
 * names) and validates it whole only when that does not pass: the parts must hold exactly when the whole does.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { registry, UnknownMessageError } from "../../../src/core/schemas/schema-registry.js";
import { UPDATE_TYPES, updateHolds } from "../../../src/suites/pi-web/checks/framing.js";

const validate = (m: string, v: unknown) => registry.validate("pi-web", m, v);
const whole = (v: unknown) => validate("message-update-event", v).ok;
const dir = (kind: string, message: string) => fileURLToPath(new URL(`../../../fixtures/pi-web/${kind}/${message}/`, import.meta.url));
const fixtures = (kind: string, message: string) => readdirSync(dir(kind, message)).map((f) => JSON.parse(readFileSync(dir(kind, message) + f, "utf8")) as Record<string, unknown>);

describe("pi-web message_update judged by parts", () => {
  it("a schema name may point into its message's schema", () => {
    expect(validate("assistant-message-event#/$defs/textDelta", { type: "text_delta", contentIndex: 0, delta: "x" }).ok).toBe(true);
    expect(validate("assistant-message-event#/$defs/textDelta", { type: "text_end", contentIndex: 0, content: "x" }).ok).toBe(false);
    expect(() => validate("no-such-message#/$defs/x", {})).toThrow(UnknownMessageError);
  });

  it("each update type names one branch of the union, whose type const it is, and the union has no other", () => {
    const schema = registry.schema("pi-web", "assistant-message-event") as { oneOf: { $ref: string }[]; $defs: Record<string, { properties: { type: { const: string } } }> };
    const branches = schema.oneOf.map((b) => b.$ref.replace("#/$defs/", ""));
    expect(branches.map((b) => schema.$defs[b]!.properties.type.const).sort()).toEqual([...UPDATE_TYPES].sort());
    // The wrapper holds nothing but the type, the message and the update (what the parts judge).
    const wrapper = registry.schema("pi-web", "message-update-event") as Record<string, unknown>;
    expect(Object.keys(wrapper).sort()).toEqual(["$id", "$schema", "description", "properties", "required", "title", "type"]);
    expect(Object.keys(wrapper.properties as object).sort()).toEqual(["assistantMessageEvent", "message", "type"]);
  });

  it("the parts pass exactly when the whole message_update is valid", () => {
    const [base] = fixtures("valid", "message-update-event");
    const samples: unknown[] = [...fixtures("valid", "message-update-event"), ...fixtures("invalid", "message-update-event")];
    for (const u of [...fixtures("valid", "assistant-message-event"), ...fixtures("invalid", "assistant-message-event")]) samples.push({ ...base, assistantMessageEvent: u });
    const ame = base!.assistantMessageEvent as Record<string, unknown>;
    samples.push(
      { ...base, message: { ...(base!.message as object), role: "user" } },
      { ...base, message: undefined },
      { ...base, assistantMessageEvent: { ...ame, partial: { role: "assistant" } } },
      { ...base, assistantMessageEvent: { ...ame, contentIndex: -1 } },
      { ...base, assistantMessageEvent: { ...ame, type: "text_chunk" } },
      { ...base, assistantMessageEvent: "text_delta" },
      { ...base, assistantMessageEvent: undefined },
    );
    let valid = 0;
    for (const v of samples) {
      expect(updateHolds(validate, v as Record<string, unknown>), JSON.stringify(v).slice(0, 200)).toBe(whole(v));
      if (whole(v)) valid++;
    }
    expect(valid).toBeGreaterThan(10);
    expect(samples.length - valid).toBeGreaterThan(8);
  });
});
