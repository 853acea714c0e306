/**
 * trpc/date-annotations, both halves, holds only the Dates §2 places to their tag: a Chat's, a chat list item's, a
 * message's, an AgentMessageUpdate's and a messaging UserMessage's createdAt. A key named createdAt in free-form data
 * (a selected element's ownProperties, attributes, a tool call's input or result's output) is page or tool data, which
 * superjson leaves a plain string, untagged; it is not judged.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import type { NewEvent, TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import { STAGEWISE_SERVER_CHECKS } from "../../../src/suites/stagewise-chat/checks/index.js";
import { dateAnnotationsCheck } from "../../../src/suites/stagewise-chat/client/checks.js";
import { SwScript } from "../../helpers/stagewise-synthetic.js";
import { judge } from "../../helpers/synthetic-transcript.js";

const ID = "stagewise-chat/trpc/date-annotations";
const DATE = "2025-08-08T10:00:00.000Z";
const SERVER_CHECK = STAGEWISE_SERVER_CHECKS.filter((c) => c.id === ID);

const element = {
  nodeType: 1,
  xpath: "/html/body/div",
  attributes: { "data-created-at": "x", createdAt: "2024-05-01" },
  textContent: "",
  ownProperties: { __reactProps: { createdAt: "2024-05-01", className: "card" } },
  boundingClientRect: { top: 0, left: 0, height: 1, width: 1 },
  pluginInfo: [],
};
const metadata = {
  currentUrl: "http://localhost:3000/",
  currentTitle: "App",
  currentZoomLevel: 1,
  viewportResolution: { width: 1280, height: 800 },
  devicePixelRatio: 2,
  userAgent: "Mozilla/5.0",
  locale: "en-US",
  selectedElements: [element],
};
const userMessage = { id: "m1", role: "user", createdAt: DATE, content: [{ type: "text", text: "Make it blue" }], metadata };
const toolCall = { id: "a1", role: "assistant", createdAt: DATE, content: [{ type: "tool-call", toolCallId: "t1", toolName: "getData", input: { createdAt: "today" }, runtime: "toolbar", requiresApproval: false }] };
const toolResult = { id: "x1", role: "tool", createdAt: DATE, content: [{ type: "tool-result", toolCallId: "t1", toolName: "getData", output: { rows: [{ createdAt: "2024-01-01" }] } }] };

/** A chat event as superjson writes it: the Dates of `dates` tagged, nothing else. */
const event = (sub: number, seq: number, update: unknown, dates: string[]) => {
  const id = String(seq);
  const meta = dates.length ? { meta: { values: Object.fromEntries(dates.map((d) => [d, ["Date"]])), v: 1 } } : {};
  return { id: sub, result: { type: "data", id, data: { json: { id, data: update }, ...meta } } };
};

function serverVerdict(tag: (path: string) => boolean) {
  const chat = { id: "c1", title: "New chat", createdAt: DATE, isActive: true, messages: [userMessage, toolCall, toolResult] };
  const frames: [unknown, string[]][] = [
    [{ type: "chat-list", chats: [{ id: "c1", title: "New chat", createdAt: DATE, isActive: true, messageCount: 3 }] }, ["data.chats.0.createdAt"]],
    [{ type: "chat-full-sync", chat }, ["data.chat.createdAt", "data.chat.messages.0.createdAt", "data.chat.messages.1.createdAt", "data.chat.messages.2.createdAt"]],
    [{ type: "agent-state", isWorking: false }, []],
    [{ type: "message-added", chatId: "c1", message: { ...userMessage, id: "m2" } }, ["data.message.createdAt"]],
  ];
  const s = new SwScript().open("w1", "main").subscribe("w1", "sub:chat:A", 1);
  frames.forEach(([u, dates], i) => s.recv("w1", event(1, 3 + Math.max(0, i - 2), u, dates.filter(tag))));
  // A mutation's result holds no Date: a createdAt there is not judged either.
  s.mutation("w1", "ok:send", 2, "chat.sendMessage", { chatId: "c1", content: [{ type: "text", text: "x" }], metadata }).answer("w1", 2, { createdAt: "2024-05-01" });
  return judge(SERVER_CHECK, s.events)[0]!;
}

describe("trpc/date-annotations (agent)", () => {
  it("passes when every Date of §2 is tagged, though page data and tool input/output hold untagged createdAt strings", () => {
    const r = serverVerdict(() => true);
    expect([r.verdict, r.message]).toEqual(["pass", expect.any(String)]);
  });

  it("fails on a message's createdAt left untagged", () => {
    const r = serverVerdict((p) => p !== "data.chat.messages.1.createdAt");
    expect(r.verdict).toBe("fail");
    expect(r.actual).toContain("data.chat.messages.1.createdAt");
  });

  it("fails on an untagged AgentMessageUpdate createdAt of messaging.getMessage", () => {
    const s = new SwScript()
      .open("w1", "main")
      .send("w1", "sub:messaging", { id: 5, method: "subscription", params: { path: "messaging.getMessage", input: { json: null, meta: { values: ["undefined"] } } } })
      .recv("w1", { id: 5, result: { type: "started" } })
      .recv("w1", { id: 5, result: { type: "data", data: { json: { messageId: "m", updateParts: [], createdAt: DATE, resync: true } } } });
    const r = judge(SERVER_CHECK, s.events)[0]!;
    expect([r.verdict, r.actual]).toEqual(["fail", expect.stringContaining("first: createdAt")]);
  });
});

function clientVerdict(requests: unknown[]) {
  const evaluation = new Evaluation([dateAnnotationsCheck], { protocol: "stagewise-chat", profile: DEFAULT_PROFILE, params: {}, validate: (m, v) => registry.validate("stagewise-chat", m, v) });
  let seq = 0;
  const emit = (e: NewEvent) => evaluation.observe({ ...e, seq, t: seq++ } as TranscriptEvent);
  emit({ kind: "ws-open", probe: "client", connection: "c1", url: "ws://127.0.0.1/stagewise/ws", label: "toolbar" });
  for (const r of requests) emit({ kind: "ws-frame", probe: "client", connection: "c1", direction: "in", binary: false, data: JSON.stringify(r) });
  return evaluation.finish()[0]!;
}

const mutation = (id: number, path: string, json: unknown, meta?: unknown) => ({ id, method: "mutation", params: { path, input: { json, ...(meta ? { meta } : {}) } } });
const userMessageInput = { id: "u1", contentItems: [{ type: "text", text: "Hello" }], createdAt: DATE, metadata, pluginContent: {}, sentByPlugin: false };

describe("trpc/date-annotations (toolbar)", () => {
  it("passes a sendUserMessage whose createdAt is tagged, though its selected element's ownProperties hold an untagged createdAt", () => {
    const r = clientVerdict([mutation(1, "messaging.sendUserMessage", userMessageInput, { values: { createdAt: ["Date"] }, v: 1 })]);
    expect(r.outcome).toBe("pass");
  });

  it("judges no Date in chat.sendMessage metadata or reportToolResult output: none of §2's Dates is there", () => {
    const r = clientVerdict([
      mutation(1, "chat.sendMessage", { chatId: "c1", content: [{ type: "text", text: "x" }], metadata }),
      mutation(2, "chat.reportToolResult", { chatId: "c1", toolCallId: "t1", output: { createdAt: "2024-05-01" } }),
    ]);
    expect([r.outcome, r.message]).toEqual(["skip", expect.stringMatching(/no Date/)]);
  });

  it("fails a sendUserMessage whose createdAt is untagged", () => {
    const r = clientVerdict([mutation(1, "messaging.sendUserMessage", userMessageInput)]);
    expect([r.outcome, r.actual]).toEqual(["fail", "messaging.sendUserMessage: createdAt not tagged Date"]);
  });
});
