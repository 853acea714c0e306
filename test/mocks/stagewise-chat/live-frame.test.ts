/** One live chat update as the mock writes it: the frame tRPC's handler would write, superjson envelope and all. */
import superjson from "superjson";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { ChatUpdate } from "../../../src/generated/stagewise-chat.js";
import { framePrefix, liveFrame, TextDeltas } from "../../../src/mocks/stagewise-chat/live-chat.js";
import { loadSuperjson } from "../../../src/mocks/stagewise-chat/superjson-ref.js";
import { updateToWire } from "../../../src/stagewise/adapter/wire-dates.js";

beforeAll(loadSuperjson);

/** What @trpc/server's ws handler writes for a tracked value: result `{type, data, id}`, data through superjson. */
const viaTrpc = (id: unknown, seq: number, update: unknown) =>
  JSON.stringify({ id, result: { type: "data", data: superjson.serialize({ id: String(seq), data: updateToWire(update as ChatUpdate) }), id: String(seq) } });

const delta = (text: string, extra: Record<string, unknown> = {}) => ({
  type: "message-updated",
  chatId: "chat-1",
  update: { messageId: "msg-2", partIndex: 0, updateType: "append", content: { type: "text", text }, ...extra },
});
const shared = { a: 1 };
const USER = { id: "u", role: "user", createdAt: "2025-08-08T10:00:01.000Z", content: [{ type: "text", text: "hi" }], metadata: { currentUrl: "http://a.b/" } };

const UPDATES: [string, unknown][] = [
  ["a text delta", delta("héllo 🎨 \"q\" \\ \u2028 \ud800")],
  ["a reasoning delta", { type: "message-updated", chatId: "c", update: { messageId: "m", partIndex: 3, updateType: "create", content: { type: "reasoning", text: "" } } }],
  ["a delta at part -0 (superjson tags it)", { ...delta("x"), update: { ...delta("x").update, partIndex: -0 } }],
  ["a delta with an extra key", delta("x", { extra: true })],
  ["a delta with an undefined key (superjson notes it)", delta("x", { extra: undefined })],
  ["a tool call with nested input", { type: "message-updated", chatId: "c", update: { messageId: "m", partIndex: 1, updateType: "create", content: { type: "tool-call", toolCallId: "t", toolName: "w", input: { path: "a", n: [1, 2.5, null, { deep: true }] }, runtime: "backend", requiresApproval: true } } }],
  ["an object met twice (superjson references)", { type: "message-updated", chatId: "c", update: { messageId: "m", partIndex: 1, updateType: "create", content: { type: "tool-result", toolCallId: "t", toolName: "w", output: { x: shared, y: shared } } } }],
  ["a message with its date", { type: "message-added", chatId: "c", message: { id: "m", role: "assistant", createdAt: "2025-08-08T10:00:00.000Z", content: [] } }],
  ["a chat list with dates", { type: "chat-list", chats: [{ id: "c", title: "T", createdAt: "2025-08-08T10:00:00.000Z", isActive: true, messageCount: 0 }] }],
  ["a chat list of several, and of none", { type: "chat-list", chats: [{ id: "c", title: "T", createdAt: "2025-08-08T10:00:00.000Z", isActive: false, messageCount: 0 }, { id: "d", title: "U", createdAt: "2025-08-09T10:00:00.000Z", isActive: true, messageCount: 2 }] }],
  ["an empty chat list", { type: "chat-list", chats: [] }],
  ["a full sync, dates of the chat and its messages", { type: "chat-full-sync", chat: { id: "c", title: "T", createdAt: "2025-08-08T10:00:00.000Z", isActive: true, messages: [USER, { id: "a", role: "assistant", createdAt: "2025-08-08T10:00:02.000Z", content: [{ type: "text", text: "x" }] }] } }],
  ["a full sync with the chat's date after its messages", { type: "chat-full-sync", chat: { id: "c", title: "T", isActive: true, messages: [USER], createdAt: "2025-08-08T10:00:00.000Z" } }],
  ["a chat created with no messages", { type: "chat-created", chat: { id: "c", title: "T", createdAt: "2025-08-08T10:00:00.000Z", isActive: true, messages: [] } }],
  ["a date written otherwise than toISOString (Date reads it, superjson writes it back changed)", { type: "message-added", chatId: "c", message: { id: "m", role: "assistant", createdAt: "2025-08-08T10:00:00Z", content: [] } }],
  ["a date that is no date (stays a string)", { type: "message-added", chatId: "c", message: { id: "m", role: "assistant", createdAt: "yesterday", content: [] } }],
  ["a date that is no string", { type: "chat-list", chats: [{ id: "c", title: "T", createdAt: 5, isActive: true, messageCount: 0 }] }],
  ["a message without its date (superjson notes the undefined)", { type: "message-added", chatId: "c", message: { id: "m", role: "assistant", content: [] } }],
  ["a full sync whose chat has no date", { type: "chat-full-sync", chat: { id: "c", title: "T", isActive: true, messages: [] } }],
  ["a full sync with a message met twice", { type: "chat-full-sync", chat: { id: "c", title: "T", createdAt: "2025-08-08T10:00:00.000Z", isActive: true, messages: [USER, USER] } }],
  ["agent state", { type: "agent-state", isWorking: true, description: "thinking" }],
  ["NaN and Infinity", { type: "message-updated", chatId: "c", update: { messageId: "m", partIndex: 1, updateType: "create", content: { type: "tool-result", toolCallId: "t", toolName: "w", output: [Number.NaN, Infinity] } } }],
];

describe("stagewise-chat mock: a live chat update's frame", () => {
  for (const id of [1, "a\"b"]) {
    const prefix = framePrefix(JSON.stringify({ id, jsonrpc: "2.0", result: { type: "started" } }))!;
    for (const [name, update] of UPDATES) {
      it(`${name}, subscription ${JSON.stringify(id)}`, () => {
        const expected = viaTrpc(id, 7, update).replace(/^\{"id":(1|"a\\"b"),/, `{"id":$1,"jsonrpc":"2.0",`);
        expect(liveFrame(prefix, { seq: 7, update: update as ChatUpdate })).toBe(expected);
        // The text-delta writer keeps what it prepared per part: a second delta of the same part, and another part.
        const texts = new TextDeltas();
        expect(liveFrame(prefix, { seq: 7, update: update as ChatUpdate }, texts)).toBe(expected);
        expect(liveFrame(prefix, { seq: 8, update: delta("more") as ChatUpdate }, texts)).toBe(viaTrpc(id, 8, delta("more")).replace(/^\{"id":(1|"a\\"b"),/, `{"id":$1,"jsonrpc":"2.0",`));
      });
    }
  }

  it("writes plain updates with their dates without superjson, and leaves it the others", () => {
    const prefix = framePrefix('{"id":1,"result":{"type":"started"}}')!;
    const serialize = vi.spyOn(superjson, "serialize");
    try {
      const uses = (name: string) => {
        serialize.mockClear();
        liveFrame(prefix, { seq: 7, update: UPDATES.find(([n]) => n === name)![1] as ChatUpdate });
        return serialize.mock.calls.length;
      };
      for (const name of ["a text delta", "a message with its date", "a chat list of several, and of none", "a full sync, dates of the chat and its messages", "a full sync with the chat's date after its messages", "a date that is no date (stays a string)"]) {
        expect(uses(name), name).toBe(0);
      }
      for (const name of ["a date written otherwise than toISOString (Date reads it, superjson writes it back changed)", "a message without its date (superjson notes the undefined)", "a full sync with a message met twice", "a delta at part -0 (superjson tags it)"]) {
        expect(uses(name), name).toBe(1);
      }
    } finally {
      serialize.mockRestore();
    }
  });

  it("takes the id part from tRPC's started frame, and nothing else", () => {
    expect(framePrefix('{"id":3,"result":{"type":"started"}}')).toBe('{"id":3,"result":');
    expect(framePrefix('{"id":3,"result":{"type":"stopped"}}')).toBeUndefined();
  });
});
