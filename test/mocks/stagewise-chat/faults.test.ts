/**
 * Every §7 fault shows its deviation on the wire, and the clean mock does not: each row drives a raw toolbar
 * through the flow that exposes the fault and says whether the deviation was seen. Both runs use the same flow, so a
 * row that sees the deviation without the fault (or misses it with it) fails.
 */
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { STAGEWISE_FAULTS, type RunningStagewiseMock, type StagewiseStartOptions } from "../../../src/mocks/stagewise-chat/index.js";
import { following, METADATA, quickMock, Raw, turn, type Json } from "./helpers.js";

interface Env {
  mock: RunningStagewiseMock;
  raw: Raw;
  sub: number;
}

const open: (RunningStagewiseMock | Raw)[] = [];
afterEach(async () => {
  for (const x of open.splice(0)) await x.close();
});

async function env(options: StagewiseStartOptions): Promise<Env> {
  const mock = await quickMock(options);
  open.push(mock);
  const raw = await Raw.open(mock.wsUrl);
  open.push(raw);
  const sub = await following(raw);
  return { mock, raw, sub };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const agentOf = (e: Env) => e.mock.engine.core.agent;
const updates = (e: Env, sub = e.sub) => e.raw.chat(sub).map((x) => x.update);
const send = (e: Env, text: string, chatId: unknown = agentOf(e).activeChatId) => e.raw.mutate("chat.sendMessage", { chatId, content: [{ type: "text", text }], metadata: METADATA });
const streamed = (e: Env, sub = e.sub) =>
  updates(e, sub)
    .filter((u) => u.type === "message-updated" && u.update.content.type === "text")
    .map((u) => u.update.content.text as string)
    .join("");
/** A fresh subscription on a new connection, after the snapshot. */
async function fresh(e: Env, options: { lastEventId?: string } = {}): Promise<{ raw: Raw; sub: number }> {
  const raw = await Raw.open(e.mock.wsUrl);
  open.push(raw);
  return { raw, sub: await following(raw, options) };
}
const snapshotOf = (raw: Raw, sub: number) => raw.chat(sub).slice(0, 3);
const lastReply = (snapshot: { update: Json }[]) => {
  const sync = snapshot.find((s) => s.update.type === "chat-full-sync")?.update.chat.messages as Json[] | undefined;
  return sync?.filter((m) => m.role === "assistant").at(-1);
};

/** Waits for the approval request of the tool-approval scenario; returns its call. */
async function toolCall(e: Env): Promise<Json> {
  await send(e, "write it");
  const f = await e.raw.waitFor((x) => x.json?.id === e.sub && x.json.result?.data?.json?.data?.update?.content?.type === "tool-call");
  return f.json!.result.data.json.data.update.content as Json;
}
const idleAgain = (e: Env, from: number) =>
  e.raw.waitFor((x) => x.json?.id === e.sub && x.json.result?.data?.json?.data?.type === "agent-state" && x.json.result.data.json.data.isWorking === false, 5_000, from);
async function approve(e: Env, approved: boolean): Promise<Json> {
  const call = await toolCall(e);
  const from = e.raw.frames.length;
  const answer = await e.raw.mutate("chat.approveToolCall", { chatId: agentOf(e).activeChatId, toolCallId: call.toolCallId, approved, metadata: METADATA });
  await idleAgain(e, from);
  return { call, answer };
}
const addedMessages = (e: Env) => updates(e).filter((u) => u.type === "message-added").map((u) => u.message as Json);
const parts = (e: Env) => updates(e).flatMap((u) => (u.type === "message-updated" ? [u.update.content as Json] : u.type === "message-added" ? (u.message.content as Json[]) : []));

interface Row {
  options?: StagewiseStartOptions;
  /** True when the fault's deviation shows. */
  seen(e: Env): Promise<boolean>;
}

const ROWS: Record<string, Row> = {
  "info-missing-description": { seen: async (e) => !("description" in ((await (await fetch(`${e.mock.url}/stagewise/info`)).json()) as Json)) },
  "info-advertises-toolcalling": { seen: async (e) => ((await (await fetch(`${e.mock.url}/stagewise/info`)).json()) as Json).capabilities.toolCalling === true },
  "info-no-cors": { seen: async (e) => (await fetch(`${e.mock.url}/stagewise/info`, { headers: { origin: "http://localhost:3000" } })).headers.get("access-control-allow-origin") === null },
  "port-outside-range": { seen: async (e) => Number(new URL(e.mock.url).port) >= 5800 && Number(new URL(e.mock.url).port) < 5831 },
  "ws-wrong-path": {
    seen: (e) =>
      new Promise((resolve) => {
        const ws = new WebSocket(`${e.mock.url.replace(/^http/, "ws")}/stagewise/ws`);
        ws.once("open", () => {
          ws.close();
          resolve(false);
        });
        ws.once("error", () => resolve(true));
      }),
  },
  "binary-frames": { seen: async (e) => (await turn(e.raw, e.mock, "hi", e.sub), e.raw.frames.some((f) => f.binary)) },
  "raw-json-results": { seen: async (e) => e.raw.frames.some((f) => f.json?.result?.type === "data" && f.json.result.data?.json === undefined) },
  "no-started-frame": { seen: async (e) => !e.raw.frames.some((f) => f.json?.result?.type === "started") },
  "dates-as-strings": { seen: async (e) => e.raw.chat(e.sub)[0]!.frame.json!.result.data.meta?.values?.["data.chats.0.createdAt"] === undefined },
  "double-mutation-result": {
    seen: async (e) => {
      const answer = await send(e, "hi");
      await pause(200);
      return e.raw.frames.filter((f) => f.json?.id === answer.id).length > 1;
    },
  },
  "subscription-completes": { seen: async (e) => e.raw.frames.some((f) => f.json?.id === e.sub && f.json.result?.type === "stopped") },
  "close-on-parse-error": {
    seen: async (e) => {
      e.raw.send("{bad");
      await pause(300);
      return e.raw.closed !== null;
    },
  },
  "unknown-path-internal-error": { seen: async (e) => (await e.raw.mutate("chat.nope", { a: 1 })).error?.json?.data?.code === "INTERNAL_SERVER_ERROR" },
  "no-pong": {
    seen: async (e) => {
      e.raw.send("PING");
      await pause(300);
      return !e.raw.frames.some((f) => f.text === "PONG");
    },
  },
  "no-ping": {
    options: { framing: "server-ping" },
    seen: async (e) => {
      await pause(1_600);
      return !e.raw.frames.some((f) => f.text === "PING");
    },
  },
  "state-bad-description": {
    seen: async (e) => {
      const s = e.raw.subscribe("state.getState");
      await e.raw.waitFor((f) => f.json?.id === s && f.json.result?.type === "data");
      return e.raw.values(s).some((v) => v.description === "ok");
    },
  },
  "state-incoherent": {
    seen: async (e) => {
      const s = e.raw.subscribe("state.getState");
      await e.raw.waitFor((f) => f.json?.id === s && f.json.result?.type === "data");
      await turn(e.raw, e.mock, "hi", e.sub);
      await pause(50);
      const states = e.raw.values(s).map((v) => v.state);
      // Idle at rest, working in the turn, idle again; the fault says the opposite.
      return states[0] !== "idle" || !states.includes("working") || states.at(-1) !== "idle";
    },
  },
  "messaging-extra-field": {
    seen: async (e) => {
      const m = e.raw.subscribe("messaging.getMessage");
      await turn(e.raw, e.mock, "hi", e.sub);
      return e.raw.values(m).some((v) => "source" in v);
    },
  },
  "messaging-no-initial-resync": {
    seen: async (e) => {
      const m = e.raw.subscribe("messaging.getMessage");
      await e.raw.waitFor((f) => f.json?.id === m && f.json.result?.type === "data");
      return e.raw.values(m)[0]!.resync === false;
    },
  },
  "messaging-replay-after-resync": {
    seen: async (e) => {
      await turn(e.raw, e.mock, "hello there", e.sub);
      const m = e.raw.subscribe("messaging.getMessage");
      await pause(200);
      return e.raw.values(m).length > 1;
    },
  },
  "messaging-replace-truncates": {
    seen: async (e) => {
      await turn(e.raw, e.mock, "hello there", e.sub);
      const m = e.raw.subscribe("messaging.getMessage");
      await e.raw.waitFor((f) => f.json?.id === m && f.json.result?.type === "data");
      const indices = (e.raw.values(m)[0]!.updateParts as Json[]).map((p) => p.contentIndex);
      return indices.some((i, n) => i !== n);
    },
  },
  "messaging-aliasing": {
    seen: async (e) => {
      const m = e.raw.subscribe("messaging.getMessage");
      await turn(e.raw, e.mock, "hello there", e.sub);
      const text = e.raw
        .values(m)
        .filter((v) => !v.resync)
        .flatMap((v) => (v.updateParts as Json[]).map((p) => p.part.text))
        .join("");
      return text !== "Echo: hello there";
    },
  },
  "messaging-accepts-invalid": { seen: async (e) => (await e.raw.mutate("messaging.sendUserMessage", { id: "m" })).result !== undefined },
  "snapshot-replays-last-update": {
    seen: async (e) => {
      await turn(e.raw, e.mock, "hi", e.sub);
      const b = await fresh(e);
      return !b.raw.chat(b.sub).some((x) => x.update.type === "chat-full-sync");
    },
  },
  "snapshot-first-subscribe-only": {
    seen: async (e) => {
      const second = e.raw.subscribe("chat.getChatUpdates", { lastEventId: "0" });
      await pause(200);
      return !e.raw.chat(second).some((x) => x.update.type === "chat-list");
    },
  },
  "two-active-chats": {
    seen: async (e) => {
      await e.raw.mutate("chat.createChat", { title: "Second" });
      const b = await fresh(e);
      return (b.raw.chat(b.sub)[0]!.update.chats as Json[]).filter((c) => c.isActive).length > 1;
    },
  },
  "untracked-updates": { seen: async (e) => e.raw.chat(e.sub).some((x) => x.seq === undefined) },
  "snapshot-fresh-ids": {
    seen: async (e) => {
      await turn(e.raw, e.mock, "hi", e.sub);
      const b = await fresh(e);
      return new Set(snapshotOf(b.raw, b.sub).map((x) => x.seq)).size > 1;
    },
  },
  "seq-reset-on-resume": {
    seen: async (e) => {
      await turn(e.raw, e.mock, "hi", e.sub);
      const last = e.raw.chat(e.sub).at(-1)!.seq!;
      const b = await fresh(e, { lastEventId: last });
      return snapshotOf(b.raw, b.sub)[0]!.seq === "0";
    },
  },
  "seq-gap": {
    seen: async (e) => {
      await turn(e.raw, e.mock, "hi", e.sub);
      const ids = e.raw.chat(e.sub).slice(3).map((x) => Number(x.seq));
      return ids.some((id, i) => i > 0 && id !== ids[i - 1]! + 1);
    },
  },
  "seq-per-subscriber": {
    seen: async (e) => {
      await turn(e.raw, e.mock, "one", e.sub);
      const b = await fresh(e);
      await turn(e.raw, e.mock, "two", e.sub);
      await pause(100);
      const a = new Map(e.raw.chat(e.sub).slice(3).map((x) => [x.seq, JSON.stringify(x.update)]));
      return b.raw
        .chat(b.sub)
        .slice(3)
        .some((x) => a.has(x.seq) && a.get(x.seq) !== JSON.stringify(x.update));
    },
  },
  "bad-runtime": { options: { scenario: "tool-approval" }, seen: async (e) => (await toolCall(e)).runtime === "server" },
  "append-to-tool-call": {
    options: { scenario: "tool-approval" },
    seen: async (e) => {
      const { call } = await approve(e, true);
      const index = agentOf(e).messages().find((m) => m.content.some((p) => p.type === "tool-call"))!.content.findIndex((p) => p.type === "tool-call" && p.toolCallId === call.toolCallId);
      return updates(e).some((u) => u.type === "message-updated" && u.update.updateType === "append" && u.update.partIndex === index);
    },
  },
  "switch-without-full-sync": {
    seen: async (e) => {
      const first = agentOf(e).activeChatId;
      await e.raw.mutate("chat.createChat", { title: "Second" });
      await e.raw.mutate("chat.switchChat", { chatId: first });
      await pause(200);
      const list = updates(e);
      const at = list.findIndex((u) => u.type === "chat-switched");
      return at >= 0 && list[at + 1]?.type !== "chat-full-sync";
    },
  },
  "stream-not-stored": {
    seen: async (e) => {
      await turn(e.raw, e.mock, "hello there", e.sub);
      const b = await fresh(e);
      return lastReply(snapshotOf(b.raw, b.sub))!.content[0].text !== streamed(e);
    },
  },
  "silent-message-edit": {
    seen: async (e) => {
      await turn(e.raw, e.mock, "hello there", e.sub);
      const b = await fresh(e);
      return lastReply(snapshotOf(b.raw, b.sub))!.content.at(-1).text !== streamed(e);
    },
  },
  "replace-truncates-stored": {
    seen: async (e) => {
      await turn(e.raw, e.mock, "hello there", e.sub);
      const reduced = updates(e).filter((u) => u.type === "message-updated" && u.update.updateType === "create").length;
      const b = await fresh(e);
      return lastReply(snapshotOf(b.raw, b.sub))!.content.length !== reduced;
    },
  },
  "aliased-frames": { seen: async (e) => (await turn(e.raw, e.mock, "hello there", e.sub), streamed(e) !== "Echo: hello there") },
  "create-chat-silent": {
    seen: async (e) => {
      const answer = await e.raw.mutate("chat.createChat", { title: "Second" });
      await pause(200);
      return typeof answer.result?.data?.json === "string" && !updates(e).some((u) => u.type === "chat-created");
    },
  },
  "switch-chat-silent": {
    seen: async (e) => {
      const first = agentOf(e).activeChatId;
      await e.raw.mutate("chat.createChat", { title: "Second" });
      const answer = await e.raw.mutate("chat.switchChat", { chatId: first });
      await pause(200);
      return answer.result !== undefined && !updates(e).some((u) => u.type === "chat-switched");
    },
  },
  "delete-chat-silent": {
    seen: async (e) => {
      const answer = await e.raw.mutate("chat.deleteChat", { chatId: agentOf(e).activeChatId });
      await pause(200);
      return answer.result !== undefined && !updates(e).some((u) => u.type === "chat-deleted");
    },
  },
  "title-not-broadcast": {
    seen: async (e) => {
      const answer = await e.raw.mutate("chat.updateChatTitle", { chatId: agentOf(e).activeChatId, title: "Renamed" });
      await pause(200);
      return answer.result !== undefined && !updates(e).some((u) => u.type === "chat-title-updated");
    },
  },
  "send-no-echo": { seen: async (e) => (await turn(e.raw, e.mock, "hi", e.sub), !addedMessages(e).some((m) => m.role === "user")) },
  "send-blocks-until-done": {
    seen: async (e) => {
      const from = e.raw.frames.length;
      const answer = await send(e, "hello there");
      const idle = e.raw.frames.slice(from).findIndex((f) => f.json?.result?.data?.json?.data?.type === "agent-state" && f.json.result.data.json.data.isWorking === false);
      const result = e.raw.frames.slice(from).findIndex((f) => f.json?.id === answer.id);
      return idle >= 0 && idle < result;
    },
  },
  "wrong-deleted-count": {
    seen: async (e) => {
      await turn(e.raw, e.mock, "hi", e.sub);
      const user = agentOf(e).messages()[0]!;
      await e.raw.mutate("chat.deleteMessageAndSubsequent", { chatId: agentOf(e).activeChatId, messageId: user.id });
      await pause(200);
      return updates(e).find((u) => u.type === "messages-deleted")?.deletedCount !== 2;
    },
  },
  "stop-idle-rejects": { seen: async (e) => (await e.raw.mutate("chat.stop", undefined)).error !== undefined },
  "no-working-state": {
    seen: async (e) => {
      await send(e, "hello there");
      await pause(500);
      return !updates(e).some((u) => u.type === "agent-state" && u.isWorking === true);
    },
  },
  "buffered-reply": { seen: async (e) => (await turn(e.raw, e.mock, "hello there", e.sub), !updates(e).some((u) => u.type === "message-updated" && u.update.updateType === "append")) },
  "replace-streaming": { seen: async (e) => (await turn(e.raw, e.mock, "hello there", e.sub), updates(e).some((u) => u.type === "message-updated" && u.update.updateType === "replace")) },
  "generic-errors": {
    seen: async (e) => {
      const error = (await send(e, "hi", "chat-unknown")).error?.json;
      return error?.data?.code === "INTERNAL_SERVER_ERROR" && error.data.reason === undefined;
    },
  },
  "accept-unknown-ids": { seen: async (e) => (await e.raw.mutate("chat.switchChat", { chatId: "chat-unknown" })).result !== undefined },
  "accept-non-active-send": {
    seen: async (e) => {
      const first = agentOf(e).activeChatId;
      await e.raw.mutate("chat.createChat", { title: "Second" });
      return (await send(e, "hi", first)).result !== undefined;
    },
  },
  "allow-switch-while-working": {
    options: { scenario: "busy-send" },
    seen: async (e) => {
      const first = agentOf(e).activeChatId;
      const second = (await e.raw.mutate("chat.createChat", { title: "Second" })).result.data.json;
      await e.raw.mutate("chat.switchChat", { chatId: first });
      await send(e, "hi");
      await pause(100);
      return (await e.raw.mutate("chat.switchChat", { chatId: second })).result !== undefined;
    },
  },
  "lenient-input": { seen: async (e) => (await e.raw.mutate("chat.sendMessage", { chatId: agentOf(e).activeChatId, content: [], metadata: METADATA })).error?.json?.data?.code !== "BAD_REQUEST" },
  "reject-after-side-effect": {
    seen: async (e) => {
      const before = e.raw.chat(e.sub).length;
      const answer = await e.raw.mutate("chat.switchChat", { chatId: "chat-unknown" });
      await pause(200);
      return answer.error !== undefined && e.raw.chat(e.sub).length > before;
    },
  },
  "legacy-toolcalling-router": { seen: async (e) => (await e.raw.mutate("toolCalling.onToolCallResult", { toolCallId: "t" })).result !== undefined },
  "approval-not-recorded": {
    options: { scenario: "tool-approval" },
    seen: async (e) => (await approve(e, true), !addedMessages(e).some((m) => m.content.some((p: Json) => p.type === "tool-approval"))),
  },
  "accept-double-approval": {
    options: { scenario: "tool-approval" },
    seen: async (e) => {
      const { call } = await approve(e, true);
      return (await e.raw.mutate("chat.approveToolCall", { chatId: agentOf(e).activeChatId, toolCallId: call.toolCallId, approved: true, metadata: METADATA })).result !== undefined;
    },
  },
  "orphan-tool-result": { options: { scenario: "tool-approval" }, seen: async (e) => (await approve(e, true), parts(e).some((p) => p.type === "tool-result" && p.toolCallId === "call-orphan")) },
  "backend-result-in-tool-message": {
    options: { scenario: "tool-approval" },
    seen: async (e) => (await approve(e, true), addedMessages(e).some((m) => m.role === "tool" && m.content.some((p: Json) => p.toolName === "writeFile"))),
  },
  "execute-rejected-tool": { options: { scenario: "tool-approval" }, seen: async (e) => (await approve(e, false), parts(e).some((p) => p.type === "tool-result" && p.isError !== true)) },
  "toolbar-result-dropped": {
    options: { scenario: "toolbar-tool" },
    seen: async (e) => {
      await send(e, "styles?");
      const call = await e.raw.waitFor((f) => f.json?.result?.data?.json?.data?.update?.content?.type === "tool-call");
      const from = e.raw.frames.length;
      await e.raw.mutate("chat.reportToolResult", { chatId: agentOf(e).activeChatId, toolCallId: call.json!.result.data.json.data.update.content.toolCallId, output: "red" });
      await idleAgain(e, from);
      return !addedMessages(e).some((m) => m.role === "tool");
    },
  },
  "stop-leaves-pending": {
    options: { scenario: "tool-approval" },
    seen: async (e) => {
      await toolCall(e);
      const from = e.raw.frames.length;
      await e.raw.mutate("chat.stop", undefined);
      await idleAgain(e, from);
      return !parts(e).some((p) => p.type === "tool-result" && p.output === "cancelled");
    },
  },
  "leak-stack": { seen: async (e) => (await e.raw.mutate("chat.nope", { a: 1 })).error?.json?.data?.stack !== undefined },
};

describe("stagewise-chat mock faults on the wire", () => {
  it("has a wire proof for every fault, and every fault names full check ids", () => {
    expect(Object.keys(ROWS).sort()).toEqual(STAGEWISE_FAULTS.map((f) => f.name).sort());
    for (const f of STAGEWISE_FAULTS) for (const id of f.violates) expect(id).toMatch(/^stagewise-chat\/(wire|trpc|state|messaging|chat|tools|security)\/[a-z-]+$/);
  });

  for (const fault of STAGEWISE_FAULTS) {
    const row = ROWS[fault.name];
    it(`${fault.name}: deviates with the fault, not without`, async () => {
      if (!row) throw new Error(`no wire proof for ${fault.name}`);
      const clean = await env({ ...row.options });
      expect(await row.seen(clean), "the clean mock shows the deviation").toBe(false);
      const broken = await env({ ...row.options, faults: [fault.name] });
      expect(await row.seen(broken), "the fault does not show").toBe(true);
    });
  }
});
