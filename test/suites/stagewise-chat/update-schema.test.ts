/**
 * chat/update-shape judges an update against the one branch of the ChatUpdate union its type names, and validates it
 * whole only when that does not pass: the branch must hold exactly when the whole does.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import { UPDATE_TYPES, updateHolds } from "../../../src/suites/stagewise-chat/checks/chat-sync.js";

const validate = (m: string, v: unknown) => registry.validate("stagewise-chat", m, v);
const whole = (v: unknown) => validate("chat-update", v).ok;
const dir = (kind: string) => fileURLToPath(new URL(`../../../fixtures/stagewise-chat/${kind}/chat-update/`, import.meta.url));
const fixtures = (kind: string) => readdirSync(dir(kind)).map((f) => JSON.parse(readFileSync(dir(kind) + f, "utf8")) as Record<string, unknown>);

describe("stagewise-chat chat updates judged by their branch", () => {
  it("each update type names one branch of the union, whose type const it is, and the union has no other", () => {
    const schema = registry.schema("stagewise-chat", "chat-update") as Record<string, unknown> & { oneOf: { $ref: string }[]; $defs: Record<string, { required: string[]; properties: { type: { const: string } } }> };
    const branches = schema.oneOf.map((b) => b.$ref.replace("#/$defs/", ""));
    expect(branches.map((b) => schema.$defs[b]!.properties.type.const).sort()).toEqual([...UPDATE_TYPES].sort());
    for (const b of branches) expect(schema.$defs[b]!.required).toContain("type");
    // Nothing beside the union constrains an update.
    expect(Object.keys(schema).sort()).toEqual(["$defs", "$id", "$schema", "description", "oneOf", "title"].filter((k) => k in schema).sort());
    expect(schema).not.toHaveProperty("type");
  });

  it("the branch passes exactly when the whole update is valid", () => {
    const valid = fixtures("valid");
    const samples: unknown[] = [...valid, ...fixtures("invalid")];
    for (const v of valid) samples.push({ ...v, type: "chat-updated" }, { ...v, extra: 1 }, { ...v, chatId: 7 });
    samples.push(null, "chat-list", [], {});
    let ok = 0;
    for (const v of samples) {
      expect(updateHolds(validate, v), JSON.stringify(v)?.slice(0, 200)).toBe(whole(v));
      if (whole(v)) ok++;
    }
    expect(ok).toBeGreaterThanOrEqual(valid.length);
    expect(samples.length - ok).toBeGreaterThan(10);
  });
});
