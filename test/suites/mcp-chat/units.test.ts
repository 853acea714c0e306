/** The small pieces the checks and probes rely on. */
import { describe, expect, it } from "vitest";
import { classifyPayload, dataValue, lineKind } from "../../../src/suites/mcp-chat/checks/support.js";
import { Utf8Validator } from "../../../src/suites/mcp-chat/checks/utf8.js";
import { readParams } from "../../../src/suites/mcp-chat/params.js";
import { retryAfterMs } from "../../../src/suites/mcp-chat/probe-client.js";

const bytes = (...b: number[]) => new Uint8Array(b);

describe("Utf8Validator", () => {
  it("accepts multi-byte characters split across chunks", () => {
    const v = new Utf8Validator();
    const all = new TextEncoder().encode("é°中😀");
    for (const b of all) expect(v.push(bytes(b))).toBe(-1);
    expect(v.truncated).toBe(false);
  });

  it.each([
    ["a lone 0xFF", [0x61, 0xff], 1],
    ["an overlong slash", [0xc0, 0xaf], 0],
    ["a surrogate", [0xed, 0xa0, 0x80], 1],
    ["a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 1],
    ["a lead byte followed by ASCII", [0xe4, 0x41], 1],
  ])("names the offset of %s", (_name, input, offset) => {
    expect(new Utf8Validator().push(bytes(...input))).toBe(offset);
  });

  it("counts offsets across chunks and flags a body ending inside a character", () => {
    const v = new Utf8Validator();
    expect(v.push(bytes(0x61, 0x62))).toBe(-1);
    expect(v.push(bytes(0xe4, 0xb8))).toBe(-1);
    expect(v.truncated).toBe(true);
    expect(v.push(bytes(0x41))).toBe(4);
  });
});

describe("payloads and lines", () => {
  it.each([
    ["[DONE]", "terminal"],
    ["[ERROR] boom", "terminal"],
    ["[ERROR]", "terminal"],
    ["[done]", "bracket"],
    ["[1,2]", "bracket"],
    ['{"type":"text","content":"x"}', "object"],
    ["Thinking...", "not-object"],
    ["42", "not-object"],
  ])("classifies %s as %s", (data, kind) => {
    expect(classifyPayload(data).kind).toBe(kind);
  });

  it("reads lines as WHATWG SSE does", () => {
    expect(lineKind("")).toBe("blank");
    expect(lineKind(": ping")).toBe("comment");
    expect(lineKind("data:{}")).toBe("data");
    expect(lineKind("data")).toBe("data");
    expect(lineKind("Data: x")).toBe("field");
    expect(lineKind("event: x")).toBe("field");
    expect(dataValue("data:  x")).toBe(" x");
    expect(dataValue("data:x")).toBe("x");
  });
});

describe("probe helpers", () => {
  it("reads Retry-After as seconds or a date", () => {
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs("soon")).toBeUndefined();
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    expect(retryAfterMs(inAMinute)).toBeGreaterThan(55_000);
  });

  it("types parameters, falling back to defaults on nonsense", () => {
    const p = readParams({ minGapMs: "250", keepConnection: "true", closeTimeoutMs: "x", allowedEventTypes: ["a"], origin: 3 });
    expect(p.minGapMs).toBe(250);
    expect(p.keepConnection).toBe(true);
    expect(p.closeTimeoutMs).toBe(2000);
    expect(p.allowedEventTypes).toEqual(["a"]);
    expect(p.origin).toBe("http://localhost:3000");
  });
});
