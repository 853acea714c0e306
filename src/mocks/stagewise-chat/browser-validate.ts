/**
 * A stagewise-chat validator that reads no files and compiles no code: the validators are compiled ahead of time
 * (src/generated/stagewise-chat-validators.ts, ajv standalone code), so the msw handlers run under a
 * Content-Security-Policy without 'unsafe-eval'. It judges values, and words its errors, as the node registry does.
 * Browser-safe.
 */
import { STAGEWISE_CHAT_VALIDATORS } from "../../generated/stagewise-chat-validators.js";
import type { Validate } from "../../stagewise/adapter/chat-agent.js";

/** Where an error is, as the node registry says it: a missing property is pointed at, not its parent. */
function pointerOf(e: { instancePath: string; keyword: string; params?: { missingProperty?: unknown } }): string {
  const missing = e.params?.missingProperty;
  if (e.keyword !== "required" || typeof missing !== "string") return e.instancePath;
  return `${e.instancePath}/${missing.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

export const bundledValidate: Validate = (schema, value) => {
  const fn = Object.hasOwn(STAGEWISE_CHAT_VALIDATORS, schema) ? STAGEWISE_CHAT_VALIDATORS[schema] : undefined;
  if (!fn) throw new Error(`no stagewise-chat validator for "${schema}" in the msw handlers (compiled: ${Object.keys(STAGEWISE_CHAT_VALIDATORS).join(", ")})`);
  if (fn(value)) return null;
  return (fn.errors ?? []).map((e) => `${pointerOf(e) || "/"}: ${e.message ?? e.keyword}`).join("; ");
};
