/**
 * The messaging reducer (§3 r16–r18): a whole message on resync, a new messageId or no message, with contentIndex
 * exactly 0..n−1; otherwise per part push, text concatenation, image replace or data append, and violations for a
 * type mismatch or an index beyond the end.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AgentMessageUpdate } from "../../src/generated/stagewise-chat.js";
import { applyMessageUpdate, compareMessagingStates, type MessagingState } from "../../src/stagewise/messaging-state.js";
import { describeViolation } from "../../src/stagewise/reduced.js";

const T0 = "2025-08-08T10:00:00.000Z";
const text = (contentIndex: number, t: string) => ({ contentIndex, part: { type: "text" as const, text: t } });
const image = (contentIndex: number, data: string, replacing: boolean, mimeType = "image/png") => ({ contentIndex, part: { type: "image" as const, mimeType, data, replacing } });
const update = (updateParts: AgentMessageUpdate["updateParts"], resync = false, messageId = "r1"): AgentMessageUpdate => ({ messageId, updateParts, createdAt: T0, resync });

function apply(state: MessagingState, u: unknown): MessagingState {
  const result = applyMessageUpdate(state, u as AgentMessageUpdate);
  if (!result.ok) throw new Error(`unexpected violation: ${describeViolation(result.violation)}`);
  return result.state;
}

function broken(state: MessagingState, u: unknown) {
  const result = applyMessageUpdate(state, u as AgentMessageUpdate);
  if (result.ok) throw new Error(`expected a violation for ${JSON.stringify(u)}`);
  return result.violation;
}

const hello = (): MessagingState => apply(null, update([text(0, "Hello"), image(1, "AAA", true)], true));

describe("whole messages (resync, new messageId, no message)", () => {
  it("resync:true holds all parts, by contentIndex", () => {
    expect(apply(null, update([image(1, "AAA", true), text(0, "Hello")], true))).toEqual({
      messageId: "r1",
      createdAt: T0,
      parts: [
        { type: "text", text: "Hello" },
        { type: "image", mimeType: "image/png", data: "AAA" },
      ],
    });
  });

  it("resync replaces the message we hold rather than extending it (no doubled text)", () => {
    expect(apply(hello(), update([text(0, "Hello world")], true))?.parts).toEqual([{ type: "text", text: "Hello world" }]);
    expect(apply(hello(), update([], true))?.parts).toEqual([]);
  });

  it("a delta for another messageId starts that message", () => {
    expect(apply(hello(), update([text(0, "Next")], false, "r2"))).toMatchObject({ messageId: "r2", parts: [{ type: "text", text: "Next" }] });
  });

  it("with no message yet, a delta is taken whole", () => {
    expect(apply(null, update([text(0, "Hi")]))?.parts).toEqual([{ type: "text", text: "Hi" }]);
  });

  it.each([
    ["a repeated index", [text(0, "a"), text(0, "b")]],
    ["a hole", [text(0, "a"), text(2, "b")]],
    ["an index from 1", [text(1, "a")]],
  ])("%s is a violation", (_name, parts) => {
    expect(broken(null, update(parts, true))).toMatchObject({ rule: "r17", clause: "resync-indices" });
    expect(broken(hello(), update(parts, false, "r2"))).toMatchObject({ rule: "r17", clause: "resync-indices" });
  });
});

describe("deltas to the current message", () => {
  it("index == length pushes a part", () => {
    expect(apply(hello(), update([text(2, "!")]))?.parts[2]).toEqual({ type: "text", text: "!" });
  });

  it("text below length concatenates", () => {
    expect(apply(hello(), update([text(0, " world")]))?.parts[0]).toEqual({ type: "text", text: "Hello world" });
  });

  it("an image with replacing:true replaces it", () => {
    expect(apply(hello(), update([image(1, "BBB", true, "image/jpeg")]))?.parts[1]).toEqual({ type: "image", mimeType: "image/jpeg", data: "BBB" });
  });

  it("an image with replacing:false appends its data", () => {
    expect(apply(hello(), update([image(1, "BBB", false)]))?.parts[1]).toEqual({ type: "image", mimeType: "image/png", data: "AAABBB" });
  });

  it("parts apply in order within one update", () => {
    expect(apply(hello(), update([text(2, "a"), text(2, "b"), text(3, "c")]))?.parts.slice(2)).toEqual([
      { type: "text", text: "ab" },
      { type: "text", text: "c" },
    ]);
  });

  it("a type mismatch is a violation", () => {
    expect(broken(hello(), update([image(0, "BBB", true)]))).toMatchObject({ rule: "r17", clause: "type-mismatch", path: "/updateParts/0/part/type" });
    expect(broken(hello(), update([text(1, "x")]))).toMatchObject({ clause: "type-mismatch" });
  });

  it("an index beyond the end is a violation", () => {
    expect(broken(hello(), update([text(0, "ok"), text(3, "x")]))).toMatchObject({ rule: "r17", clause: "index-beyond-end", path: "/updateParts/1/contentIndex" });
  });

  it("the previous state is untouched", () => {
    const before = hello();
    const json = JSON.stringify(before);
    apply(before, update([text(0, " world"), image(1, "B", false), text(2, "!")]));
    expect(JSON.stringify(before)).toBe(json);
  });
});

describe("never throws on what is not an AgentMessageUpdate", () => {
  it.each([
    ["null", null],
    ["a string", "x"],
    ["no updateParts", { messageId: "r1", createdAt: T0, resync: true }],
    ["a part without contentIndex", update([{ part: { type: "text", text: "x" } } as never])],
    ["a negative contentIndex", update([text(-1, "x")])],
    ["an unknown part type", update([{ contentIndex: 0, part: { type: "video" } } as never])],
    ["text without text", update([{ contentIndex: 0, part: { type: "text" } } as never])],
  ])("%s", (_name, u) => {
    expect(broken(hello(), u)).toMatchObject({ rule: "r17", clause: "update" });
  });
});

describe("the valid AgentMessageUpdate fixtures", () => {
  const read = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../fixtures/stagewise-chat/valid/agent-message-update/${name}`, import.meta.url), "utf8"));

  it("resync, then the seed delta, gives \"Hello world\" with the image kept", () => {
    const s = apply(apply(null, read("resync-text-and-image.json")), read("delta-append.json"));
    expect(s?.parts).toEqual([
      { type: "text", text: "Hello world" },
      { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
    ]);
  });

  it("an empty resync is an empty message", () => {
    expect(apply(hello(), read("resync-empty.json"))?.parts).toEqual([]);
  });
});

describe("compareMessagingStates (messaging/reduced-equals-fresh)", () => {
  it("a reduced message equals a fresh resync of it", () => {
    const reduced = apply(hello(), update([text(0, " world")]));
    const fresh = apply(null, { ...update([text(0, "Hello world"), image(1, "AAA", false)], true), createdAt: "2025-08-08T10:00:00Z" });
    expect(compareMessagingStates(reduced, fresh)).toBeNull();
  });

  it("reports where they differ: a replayed delta doubles the text", () => {
    const replayed = apply(apply(hello(), update([text(0, " world")])), update([text(0, " world")]));
    const fresh = apply(null, update([text(0, "Hello world"), image(1, "AAA", true)], true));
    expect(compareMessagingStates(replayed, fresh)).toMatchObject({ path: "/parts/0/text", actual: "Hello world world", expected: "Hello world" });
    expect(compareMessagingStates(null, fresh)?.path).toBe("");
  });
});
