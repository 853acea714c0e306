/**
 * chat/update-shape judges an update against the one branch of the ChatUpdate union its type names, and validates it
 * whole only when that does not pass: the branch must hold exactly when the whole does. trpc/response-envelope does
 * the same with a server message that carries a result.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import { UPDATE_TYPES, updateHolds } from "../../../src/suites/stagewise-chat/checks/chat-sync.js";
import { responseHolds } from "../../../src/suites/stagewise-chat/checks/trpc.js";

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

describe("stagewise-chat server messages judged by the result branch", () => {
  const frames = (kind: string) => {
    const d = fileURLToPath(new URL(`../../../fixtures/stagewise-chat/${kind}/trpc-response/`, import.meta.url));
    return readdirSync(d).map((f) => JSON.parse(readFileSync(d + f, "utf8")) as Record<string, unknown>);
  };
  const union = (v: unknown) => validate("trpc-response", v).ok;

  it("the result branch admits no key of the other two branches, which each require one", () => {
    const schema = registry.schema("stagewise-chat", "trpc-response") as { oneOf: { $ref: string }[]; $defs: Record<string, { required: string[]; properties: Record<string, unknown>; additionalProperties: boolean }> };
    expect(schema.oneOf.map((b) => b.$ref)).toEqual(["#/$defs/result", "#/$defs/error", "#/$defs/reconnect"]);
    const result = schema.$defs.result!;
    expect(result.additionalProperties).toBe(false);
    expect(schema.$defs.error!.required).toContain("error");
    expect(schema.$defs.reconnect!.required).toContain("method");
    expect(Object.keys(result.properties)).not.toContain("error");
    expect(Object.keys(result.properties)).not.toContain("method");
  });

  it("a message the branch holds is one the whole union holds, and every valid result passes the branch", () => {
    const valid = frames("valid");
    const samples: Record<string, unknown>[] = [...valid, ...frames("invalid")];
    for (const v of valid) samples.push({ ...v, extra: 1 }, { ...v, error: { json: {} } }, { ...v, method: "reconnect" }, { ...v, id: {} });
    let held = 0;
    for (const v of samples) {
      const branch = responseHolds(validate, v);
      if (branch) {
        held++;
        expect(union(v), JSON.stringify(v).slice(0, 200)).toBe(true);
      } else if ("result" in v) expect(union(v), JSON.stringify(v).slice(0, 200)).toBe(false);
    }
    expect(held).toBeGreaterThan(3);
    expect(samples.length - held).toBeGreaterThan(10);
  });
});

describe("stagewise-chat schema errors gathered in place", () => {
  it("the registry reports the very errors, in order, of an unaltered allErrors ajv", () => {
    const require = createRequire(import.meta.url);
    const { Ajv2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
    const addFormats = require("ajv-formats") as (ajv: InstanceType<typeof Ajv2020>) => unknown;
    const plain = new Ajv2020({ allErrors: true, strict: false });
    addFormats(plain);
    const root = fileURLToPath(new URL("../../../schemas/stagewise-chat/", import.meta.url));
    for (const f of readdirSync(root).filter((n) => n.endsWith(".schema.json"))) plain.addSchema(JSON.parse(readFileSync(root + f, "utf8")) as object);
    const fn = plain.getSchema((registry.schema("stagewise-chat", "chat-update") as { $id: string }).$id)!;
    // Invalid in every branch of both unions, with parts that fail a referenced schema each.
    const update = {
      type: "message-added",
      chatId: "c1",
      message: { id: "u1", role: "user", createdAt: "2025-08-08T10:00:00.000Z", content: [{ type: "tool-approval", toolCallId: "t1" }, ...Array.from({ length: 50 }, (_, i) => ({ type: "text", text: `p${i}` })), { type: "tool-call" }], metadata: {} },
    };
    expect(fn(update)).toBe(false);
    const expected = fn.errors!.map((e) => `${e.instancePath} ${e.keyword} ${e.message}`);
    const r = validate("chat-update", update);
    expect(r.ok).toBe(false);
    const seen = (r as { errors: { pointer: string; keyword: string; message: string }[] }).errors.map((e) => `${e.keyword} ${e.message}`);
    expect(expected.length).toBeGreaterThan(250);
    expect(seen).toEqual(expected.map((e) => e.slice(e.indexOf(" ") + 1)));
  });
});
