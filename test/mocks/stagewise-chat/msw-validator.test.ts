/** The msw handlers' validator: the bundled schemas are the files on disk, and judge input as the node registry does. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { schemaBundleSource } from "../../../scripts/stagewise-schema-bundle-lib.js";
import { bundledValidate } from "../../../src/mocks/stagewise-chat/browser-validate.js";
import { nodeValidate } from "../../../src/mocks/stagewise-chat/server.js";
import { METADATA } from "./helpers.js";

describe("stagewise-chat bundled schemas", () => {
  it("are up to date with schemas/stagewise-chat (npx tsx scripts/gen-stagewise-schemas.ts)", () => {
    expect(readFileSync(new URL("../../../src/generated/stagewise-chat-schemas.ts", import.meta.url), "utf8")).toBe(schemaBundleSource());
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
    ];
    for (const [schema, value] of cases) expect(bundledValidate(schema, value) === null, `${schema} ${JSON.stringify(value)}`).toBe(nodeValidate(schema, value) === null);
    expect(cases.filter(([s, v]) => bundledValidate(s, v) !== null).length).toBe(5);
  });
});
