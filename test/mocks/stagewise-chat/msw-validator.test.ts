/**
 * The msw handlers' validator: the precompiled validators are what schemas/stagewise-chat compiles to today, cover
 * every schema the adapter and the mock validate against, and judge input (in the same words) as the node registry does.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { stagewiseSchemas, VALIDATED_SCHEMAS, validatorsSource } from "../../../scripts/stagewise-validators-lib.js";
import { bundledValidate } from "../../../src/mocks/stagewise-chat/browser-validate.js";
import { nodeValidate } from "../../../src/mocks/stagewise-chat/server.js";
import { METADATA } from "./helpers.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? tsFiles(join(dir, d.name)) : d.name.endsWith(".ts") ? [join(dir, d.name)] : []));
}

describe("stagewise-chat precompiled validators", () => {
  it("are up to date with schemas/stagewise-chat (npm run gen)", () => {
    const onDisk = readFileSync(join(ROOT, "src/generated/stagewise-chat-validators.ts"), "utf8");
    expect(onDisk === validatorsSource(), "src/generated/stagewise-chat-validators.ts is stale: run npm run gen").toBe(true);
  });

  it("cover every schema named in the stagewise adapter and mock sources", () => {
    const names = new Set(stagewiseSchemas().keys());
    const named = new Set<string>();
    for (const file of [...tsFiles(join(ROOT, "src/stagewise")), ...tsFiles(join(ROOT, "src/mocks/stagewise-chat"))]) {
      for (const m of readFileSync(file, "utf8").matchAll(/["'`]([a-z][a-z-]*)["'`]/g)) if (names.has(m[1]!)) named.add(m[1]!);
    }
    expect([...named].sort()).toEqual([...VALIDATED_SCHEMAS].sort());
  });

  it("accept and refuse what the node registry accepts and refuses", () => {
    const cases: [string, unknown][] = [
      ["send-message-input", { chatId: "c1", content: [{ type: "text", text: "hi" }], metadata: METADATA }],
      ["send-message-input", { chatId: "c1", content: [], metadata: METADATA }],
      ["send-message-input", { chatId: "c1", content: [{ type: "text", text: "hi" }] }],
      ["create-chat-input", null],
      ["create-chat-input", { title: "" }],
      ["approve-tool-call-input", { chatId: "c1", toolCallId: "t1", approved: true, metadata: METADATA }],
      ["approve-tool-call-input", { chatId: "c1", toolCallId: "t1", approved: true }],
      ["void-input", null],
      ["void-input", { a: 1 }],
      ["chat-message", { id: "a1", role: "assistant", createdAt: "2025-08-08T10:00:00.000Z", content: [] }],
      ["chat-message", { id: "a1", role: "assistant", createdAt: "yesterday", content: [] }],
      ["messaging-user-message", { id: "u1", role: "user", parts: [{ type: "text", text: "hi" }], metadata: METADATA }],
    ];
    // The same verdicts in the same words.
    for (const [schema, value] of cases) expect(bundledValidate(schema, value), `${schema} ${JSON.stringify(value)}`).toBe(nodeValidate(schema, value));
    expect(cases.filter(([s, v]) => bundledValidate(s, v) !== null).length).toBe(7);
  });

  it("refuse a schema the handlers do not validate, naming the ones they do", () => {
    expect(() => bundledValidate("chat-update", {})).toThrow(/no stagewise-chat validator for "chat-update".*send-message-input/);
  });
});
