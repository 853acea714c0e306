/**
 * The §6 scenarios: what the reference agent does with a turn, played through the adapter's emitters. A message
 * whose text starts with `scenario:<name>` plays that scenario's turn; otherwise the mock's current scenario does
 * (chosen at start or by `POST /__agentwire/scenario`). Browser-safe.
 */
import { echoed } from "../../core/mock/echo.js";
import { timerMs } from "../../core/mock/timing.js";
import type { Chat, ChatMessage, UserChatMessage } from "../../generated/stagewise-chat.js";
import type { ChatAgent } from "../../stagewise/adapter/chat-agent.js";
import type { MockContext, StagewiseHooks, TurnStyle } from "./hooks.js";
import type { Pace } from "./pace.js";
import { CHAT_PATH } from "./wire.js";

export interface Turn {
  ctx: MockContext;
  agent: ChatAgent;
  chatId: string;
  /** The user's text (all text parts). */
  text: string;
  signal: AbortSignal;
  pace: Pace;
  style: TurnStyle;
  /** Asks every toolbar to reconnect. */
  reconnect(): void;
  /** Plays an agent restart: event ids start again from 0 and every connection drops. */
  restart(): void;
}

export interface Scenario extends StagewiseHooks {
  name: string;
  description: string;
  /** The chats the agent starts with (default: one empty active chat). */
  initialChats?: () => Chat[];
  play(turn: Turn): Promise<void>;
}

export const DEFAULT_SCENARIO = "echo";

/** How long a toolbar tool may take to report (§6). */
const TOOLBAR_WAIT_MS = 30_000;
const CLI_DELAY_MS = 300;
/** busy-send keeps the agent working this long after the reply. */
const BUSY_HOLD_MS = 1_500;
const LONG_REPLY = 2_000;
/**
 * Deltas with no pause between them go out in one turn of the event loop, so they leave in one write; this many at
 * most, so a huge reply still lets the socket drain and a stop in.
 */
const BURST = 1024;

function aborted(): Error {
  return new DOMException("the turn was stopped", "AbortError");
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise((resolve, reject) => {
    // A zero pause only yields to I/O: a timer would hold every delta for at least a millisecond.
    const zero = ms <= 0 && typeof setImmediate === "function";
    const done = () => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    };
    const timer = zero ? setImmediate(done) : setTimeout(done, timerMs(ms));
    const onAbort = () => {
      if (zero) clearImmediate(timer as ReturnType<typeof setImmediate>);
      else clearTimeout(timer as ReturnType<typeof setTimeout>);
      reject(aborted());
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function race<T>(promise: Promise<T>, signal: AbortSignal, timeoutMs?: number): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    promise.then(resolve, reject);
    signal.addEventListener("abort", () => reject(aborted()), { once: true });
    if (timeoutMs !== undefined) setTimeout(() => resolve(undefined), timeoutMs).unref?.();
  });
}

/** Pieces of at most `size` UTF-16 units that never cut a surrogate pair. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + size);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end = end - 1 > at ? end - 1 : end + 1;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/** The reply's deltas: `splitAt` forces a cut at that unit (inside a surrogate pair or a ZWJ sequence). */
function chunksOf(t: Turn, text: string): string[] {
  const size = Math.max(1, t.pace.chunkSize);
  if (t.style.splitAt > 0 && t.style.splitAt < text.length) return [...pieces(text.slice(0, t.style.splitAt), size), ...pieces(text.slice(t.style.splitAt), size)];
  return pieces(text, size);
}

/** Streams `text` into part `index` of an assistant message, as the turn's style says. */
async function stream(t: Turn, messageId: string, index: number, text: string, type: "text" | "reasoning" = "text"): Promise<void> {
  const { agent, style } = t;
  const chunks = chunksOf(t, text);
  if (style.buffered) {
    // As long as streaming would take, then all at once.
    await sleep(t.pace.chunkDelayMs * (chunks.length - 1), t.signal);
    agent.setPart(messageId, index, { type, text });
    return;
  }
  let sent = "";
  for (const [i, chunk] of chunks.entries()) {
    if (i > 0 && (t.pace.chunkDelayMs > 0 || i % BURST === 0)) await sleep(t.pace.chunkDelayMs, t.signal);
    else if (i > 0 && t.signal.aborted) throw aborted();
    sent += chunk;
    if (style.replaceStreaming && i > 0 && type === "text") agent.setPart(messageId, index, { type, text: sent });
    else agent.streamPart(messageId, index, { type, text: chunk });
  }
}

/** What a reply repeats of the user's text: its start only, so a huge message still gets a short turn. */
const said = (t: Turn): string => echoed(t.text);

/** The reply of an echo turn, with what a framing adds (astral characters to cut). */
function reply(t: Turn): { text: string; splitAt: number } {
  const base = `Echo: ${said(t)}`;
  return { text: base + t.style.suffix, splitAt: t.style.splitAt > 0 ? base.length + t.style.splitAt : 0 };
}

async function echoTurn(t: Turn, body?: string, reasoning?: string): Promise<string> {
  await sleep(t.pace.firstDelayMs, t.signal);
  const { agent } = t;
  const id = agent.addMessage({ role: "assistant", content: [] }, { chatId: t.chatId });
  let index = 0;
  const thought = reasoning ?? (t.style.finalReplace ? "Echoing." : undefined);
  if (thought !== undefined) await stream({ ...t, style: { ...t.style, buffered: false, replaceStreaming: false } }, id, index++, thought, "reasoning");
  if (t.style.twoTextParts) agent.setPart(id, index++, { type: "text", text: "Echo" });
  const r = body === undefined ? reply(t) : { text: body, splitAt: 0 };
  await stream({ ...t, style: { ...t.style, splitAt: r.splitAt } }, id, index, r.text);
  if (t.style.finalReplace) agent.setPart(id, index, { type: "text", text: r.text });
  agent.finishMessage(id);
  return id;
}

/** A result placed by the adapter (checked), or directly when a fault breaks the rules the adapter enforces. */
function placeResult(t: Turn, toolCallId: string, output: unknown, isError: boolean, asToolMessage = false): void {
  if (!t.style.directResults && !asToolMessage) {
    t.agent.addToolResult(toolCallId, output, { isError });
    return;
  }
  const found = t.agent.findToolCall(toolCallId)!;
  const status = asToolMessage ? { ...found.status, call: { ...found.status.call, runtime: "cli" as const } } : found.status;
  t.agent.storeResult(found.chatId, status, output, isError);
}

async function toolApprovalTurn(t: Turn): Promise<boolean> {
  await sleep(t.pace.firstDelayMs, t.signal);
  const { agent } = t;
  const id = agent.addMessage({ role: "assistant", content: [] }, { chatId: t.chatId });
  await stream(t, id, 0, "I'll write the file.");
  const approval = agent.requestApproval(id, { toolName: "writeFile", input: { path: "b.css", content: "body { color: blue; }" }, runtime: "backend" });
  approval.catch(() => {});
  const answer = await race(approval, t.signal);
  if (!answer) return false;
  const length = () => agent.messages(t.chatId).find((m) => m.id === id)!.content.length;
  const ok = answer.approved || t.style.executeRejected;
  placeResult(t, approval.toolCallId, ok ? "wrote b.css" : `rejected${answer.reason ? `: ${answer.reason}` : ""}`, !ok, t.style.backendResultInToolMessage);
  if (t.style.orphanResult) {
    agent.emit({ type: "message-updated", chatId: t.chatId, update: { messageId: id, partIndex: length(), updateType: "create", content: { type: "tool-result", toolCallId: "call-orphan", toolName: "writeFile", output: "wrote b.css" } } });
  }
  if (t.style.backendResultInToolMessage) {
    await echoTurn({ ...t, pace: { ...t.pace, firstDelayMs: 0 } }, ok ? "Done: wrote b.css." : "Cancelled.");
    return answer.approved;
  }
  await sleep(t.pace.chunkDelayMs, t.signal);
  await stream(t, id, length(), ok ? "Done: wrote b.css." : "Cancelled.");
  agent.finishMessage(id);
  return answer.approved;
}

/** The default scenario's tool turn: writeFile with approval, then (approved) a toolbar tool, so both runtimes show. */
async function fileTurn(t: Turn): Promise<void> {
  if (await toolApprovalTurn(t)) await toolbarToolTurn({ ...t, pace: { ...t.pace, firstDelayMs: 0 } });
}

async function toolbarToolTurn(t: Turn): Promise<void> {
  await sleep(t.pace.firstDelayMs, t.signal);
  const { agent } = t;
  const id = agent.addMessage({ role: "assistant", content: [] }, { chatId: t.chatId });
  await stream(t, id, 0, "Reading the styles.");
  const call = agent.addToolCall(id, { toolName: "getSelectedElementStyles", input: {}, runtime: "toolbar" });
  agent.finishMessage(id);
  const waiting = agent.waitForToolResult(call);
  waiting.catch(() => {});
  const result = await race(waiting, t.signal, TOOLBAR_WAIT_MS);
  await echoTurn({ ...t, pace: { ...t.pace, firstDelayMs: 0 } }, result ? (result.isError ? "The tool failed." : "Got the styles.") : "The toolbar sent no result.");
}

async function cliToolTurn(t: Turn): Promise<void> {
  await sleep(t.pace.firstDelayMs, t.signal);
  const { agent } = t;
  const id = agent.addMessage({ role: "assistant", content: [] }, { chatId: t.chatId });
  await stream(t, id, 0, "Running the tests.");
  const call = agent.addToolCall(id, { toolName: "runCommand", input: { command: "npm test" }, runtime: "cli" });
  agent.finishMessage(id);
  await sleep(CLI_DELAY_MS, t.signal);
  agent.addToolResult(call, "all tests passed");
  await echoTurn({ ...t, pace: { ...t.pace, firstDelayMs: 0 } }, "The tests passed.");
}

const LOREM = "The quick brown fox jumps over the lazy dog while the agent streams a long answer. ";

const echo = (t: Turn) => echoTurn(t).then(() => undefined);

const METADATA = {
  currentUrl: "http://localhost:3000/",
  currentTitle: "App",
  currentZoomLevel: 1,
  viewportResolution: { width: 1280, height: 800 },
  devicePixelRatio: 2,
  userAgent: "Mozilla/5.0",
  locale: "en-US",
  selectedElements: [],
};

/** Three chats with history: text, reasoning, an approved backend tool, a cli tool. */
function richChats(): Chat[] {
  const at = (minute: number) => new Date(Date.UTC(2025, 7, 8, 10, minute)).toISOString();
  const user = (id: string, minute: number, text: string): UserChatMessage => ({ id, role: "user", createdAt: at(minute), content: [{ type: "text", text }], metadata: METADATA });
  const first: ChatMessage[] = [
    user("mc-u1", 1, "Make the button blue"),
    {
      id: "mc-a1",
      role: "assistant",
      createdAt: at(2),
      content: [
        { type: "reasoning", text: "Edit the CSS." },
        { type: "tool-call", toolCallId: "mc-t1", toolName: "writeFile", input: { path: "b.css" }, runtime: "backend", requiresApproval: true },
      ],
    },
    { id: "mc-u2", role: "user", createdAt: at(3), content: [{ type: "tool-approval", toolCallId: "mc-t1", approved: true }], metadata: METADATA },
  ];
  (first[1]!.content as unknown[]).push({ type: "tool-result", toolCallId: "mc-t1", toolName: "writeFile", output: "wrote b.css" }, { type: "text", text: "Done: the button is blue." });
  const second: ChatMessage[] = [
    user("mc-u3", 11, "Run the tests"),
    { id: "mc-a2", role: "assistant", createdAt: at(12), content: [{ type: "text", text: "Running them." }, { type: "tool-call", toolCallId: "mc-t2", toolName: "runCommand", input: { command: "npm test" }, runtime: "cli", requiresApproval: false }] },
    { id: "mc-x1", role: "tool", createdAt: at(13), content: [{ type: "tool-result", toolCallId: "mc-t2", toolName: "runCommand", output: "all tests passed" }] },
    { id: "mc-a3", role: "assistant", createdAt: at(14), content: [{ type: "text", text: "All green." }] },
  ];
  const third: ChatMessage[] = [user("mc-u4", 21, "Hello"), { id: "mc-a4", role: "assistant", createdAt: at(22), content: [{ type: "text", text: "Echo: Hello" }] }];
  return [
    { id: "chat-styles", title: "Blue button", createdAt: at(0), isActive: false, messages: first },
    { id: "chat-tests", title: "Tests", createdAt: at(10), isActive: false, messages: second },
    { id: "chat-hello", title: "Greeting", createdAt: at(20), isActive: true, messages: third },
  ];
}

/** A message that asks for a file gets the writeFile tool, as the example agent does. */
const ASKS_FOR_FILE = /\bfile\b/i;

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "echo",
    description:
      'Replies "Echo: <text>" (its first 200 characters), streamed by append (the default); a message that mentions a file runs writeFile as tool-approval does, then (approved) getSelectedElementStyles in the toolbar',
    play: (t) => (ASKS_FOR_FILE.test(t.text) ? fileTurn(t) : echo(t)),
  },
  { name: "reasoning", description: "A reasoning part first, then the echo", play: (t) => echoTurn(t, undefined, `Thinking about "${said(t)}".`).then(() => undefined) },
  {
    name: "tool-approval",
    description: 'writeFile (backend, requiresApproval): approved → a result part and "Done…", rejected → an error result and "Cancelled."',
    play: (t) => toolApprovalTurn(t).then(() => undefined),
  },
  { name: "toolbar-tool", description: "getSelectedElementStyles runs in the toolbar; the agent waits 30 s for reportToolResult", play: toolbarToolTurn },
  { name: "cli-tool", description: "runCommand runs in the cli: its tool message 300 ms after the call", play: cliToolTurn },
  { name: "multi-chat", description: "Starts with three chats and history (the last active); turns echo", initialChats: richChats, play: echo },
  { name: "no-chats", description: "Starts with no chat at all (the toolbar must create one); turns echo", initialChats: () => [], play: echo },
  { name: "long-stream", description: `A reply of ${LONG_REPLY} characters`, play: (t) => echoTurn(t, `Echo: ${t.text}. ${LOREM.repeat(Math.ceil(LONG_REPLY / LOREM.length))}`.slice(0, LONG_REPLY)).then(() => undefined) },
  {
    name: "busy-send",
    description: `Stays working ${BUSY_HOLD_MS} ms after the reply: a second send meets the working gate (rejected, agent-working)`,
    play: async (t) => {
      await echoTurn(t);
      await sleep(BUSY_HOLD_MS, t.signal);
    },
  },
  {
    name: "drop-after-n",
    description: "Closes each connection after 5 deltas",
    play: echo,
    outgoing: (frame, conn) => {
      if (frame.kind !== "event" || frame.sub?.path !== CHAT_PATH || frame.snapshot || conn.scratch.has("dropped")) return [frame];
      const n = ((conn.scratch.get("deltas") as number | undefined) ?? 0) + 1;
      conn.scratch.set("deltas", n);
      if (n < 5) return [frame];
      conn.scratch.set("dropped", true);
      return [{ ...frame, closeAfter: true }];
    },
  },
  {
    name: "reconnect-notice",
    description: 'After each turn the agent asks every toolbar to reconnect ({"id":null,"method":"reconnect"})',
    play: async (t) => {
      await echoTurn(t);
      setTimeout(() => t.reconnect(), 0);
    },
  },
  {
    name: "restart",
    description: "After each turn the agent restarts: every connection drops and event ids start again from 0",
    play: async (t) => {
      await echoTurn(t);
      setTimeout(() => t.restart(), 0);
    },
  },
];

export function findScenario(name: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

const PREFIX = /^\s*scenario:([a-z0-9-]+)\s*/;

/** The scenario a message names (`scenario:<name> …`), and the text without it. */
export function scenarioOf(text: string): { name?: string; text: string } {
  const m = PREFIX.exec(text);
  return m ? { name: m[1]!, text: text.slice(m[0].length) } : { text };
}
