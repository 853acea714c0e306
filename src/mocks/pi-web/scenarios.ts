/**
 * The scripted conversations (§6 scenarios, §8 client robustness cases). A prompt starting with
 * `scenario:<name> ` selects one; otherwise the connection's `?scenario=` or the mock's default.
 * A scenario is a model (`reply`: the assistant message of each turn) and, where the prompt is
 * handled specially (extension commands, odd responses), a `prompt` handler. `onConnect` runs
 * when a connection selects the scenario with `?scenario=` on the upgrade.
 */
import { echoed } from "../../core/mock/echo.js";
import { timerMs } from "../../core/mock/timing.js";
import type { NamedItem } from "../../core/run/protocol.js";
import { confirmed, valueOf } from "./dialogs.js";
import type { EventRewrite } from "./hooks.js";
import { text, thinking, toolCall, type ReplyPlan, type Turn } from "./plan.js";
import type { Json, UserInput } from "./types.js";
import type { DialogAnswer } from "./validate.js";

/** What a scenario's prompt handler may do (the engine implements it). */
export interface PromptContext {
  /** The prompt as sent (the user echo uses it verbatim). */
  input: UserInput;
  /** The prompt without its `scenario:<name>` prefix. */
  said: string;
  /** The success response to the requester (extra keys allowed). */
  respond(extra?: Json): void;
  /** Another response object to the requester: `id` is added when the command had one and `withId`. */
  respondRaw(response: Json, withId?: boolean): void;
  /** Sends text or bytes to every open socket, bypassing JSON encoding. */
  sendRaw(data: string | Uint8Array): void;
  /** Broadcasts an event. */
  emit(event: Json): void;
  /** Sends an extension UI request; dialogs resolve with the reply (undefined: none / timed out). */
  ui(method: string, fields: Json): Promise<DialogAnswer | undefined>;
  /** Starts a run of this scenario once the agent is idle; resolves when it has ended. */
  run(options?: { first?: ReplyPlan }): Promise<void>;
  /** Leaves commands from every socket unanswered until the shutdown (server-shutdown). */
  holdCommands(): void;
  chunkDelay: number;
}

export interface ConnectContext {
  /** Sends an extension UI request to every socket. */
  ui(method: string, fields: Json): void;
  /** Starts a run nobody here prompted, if the agent is idle. */
  foreignRun(input: UserInput): void;
}

export interface PiWebScenario extends NamedItem {
  /** The model: the assistant message for each turn (default: the `text` reply). */
  reply?(turn: Turn): ReplyPlan;
  /** Handles the prompt; default: success response, then a run. */
  prompt?(ctx: PromptContext): Promise<void> | void;
  /** When a connection opens with this as its scenario (?scenario=, or the mock's default). */
  onConnect?(ctx: ConnectContext): void;
  /** Rewrites the events of this scenario's runs. */
  events?: () => EventRewrite;
  /** Responses to a connection with this scenario (?scenario= or default) come in reverse order, per 50 ms window. */
  reorderResponses?: boolean;
}

export const DEFAULT_SCENARIO = "text";

/** What a reply repeats of the turn's text: its start only, so a huge prompt still gets a short turn. */
const said = (turn: Turn) => echoed(turn.text);

export const textReply = (turn: Turn): ReplyPlan => ({
  blocks: [text(`Hello from the pi-web mock. You said: ${said(turn)}`)],
});

/** Replies to injected messages, shared by every scenario (the UI matches them by text). */
function injected(turn: Turn): ReplyPlan | undefined {
  if (turn.trigger === "steer") return { blocks: [text(`Steering received: ${said(turn)}`)] };
  if (turn.trigger === "followUp") return { blocks: [text(`Follow-up: ${said(turn)}`)] };
  return undefined;
}

/** The model of a scenario, with the shared replies to steers and follow-ups. */
export function replyOf(scenario: PiWebScenario): (turn: Turn) => ReplyPlan {
  const own = scenario.reply ?? textReply;
  return (turn) => injected(turn) ?? own(turn);
}

// Long streams mix ASCII, accents, CJK, a 4-byte emoji, U+2028/2029, quotes, backslashes and newlines.
const LONG_SOURCE = 'Plain ASCII, café é, 漢字 and 🙂; "quoted", back\\slash, a new\nline, U+2028:\u2028 U+2029:\u2029 end. ';

export function longText(codePoints: number): string {
  const src = Array.from(LONG_SOURCE);
  const out: string[] = [];
  for (let i = 0; i < codePoints; i++) out.push(src[i % src.length] as string);
  return out.join("");
}

/** Code points of `long` (400 deltas at the default chunk size) and of `abort` (1,000). */
export const LONG_CODE_POINTS = 1600;
export const ABORT_CODE_POINTS = 4000;

const README = "# Mock README";

const readCall = () => toolCall("call_1", "read", { path: "README.md" }, { text: README });

function twoTools(parallel: boolean) {
  return (turn: Turn): ReplyPlan =>
    turn.index === 0
      ? {
          parallelTools: parallel,
          blocks: [
            text("I will read the README and list the files."),
            readCall(),
            toolCall("call_2", "bash", { command: "ls" }, { text: "README.md\npackage.json\nsrc" }),
          ],
        }
      : { blocks: [text('The README is titled "Mock README" and the directory holds three entries.')] };
}

const withVariant =
  (variant: ReplyPlan["variant"], base: (turn: Turn) => ReplyPlan = textReply) =>
  (turn: Turn): ReplyPlan => ({ ...base(turn), variant });

const thinkingReply = (turn: Turn): ReplyPlan => ({
  blocks: [thinking("The user said something; a short, friendly answer fits."), text(`Hello from the pi-web mock. You said: ${said(turn)}`)],
});

/** Inserts events after every event of a type (unknown-events). */
const after =
  (type: string, extra: () => Json): (() => EventRewrite) =>
  () =>
  (e) =>
    e.type === type ? [e, extra()] : [e];

/** A dialog's answer as a reply shows it: the user's text too, so capped like an echo. */
const shown = (answer: DialogAnswer | undefined) => echoed(valueOf(answer) ?? "none");

async function extDialogs(ctx: PromptContext): Promise<void> {
  ctx.respond();
  await ctx.ui("notify", { message: "Mock extension starting", notifyType: "info" });
  await ctx.ui("setStatus", { statusKey: "mock", statusText: "asking" });
  const confirm = await ctx.ui("confirm", { title: "Proceed?", message: "Run the dialog demo?" });
  const select = await ctx.ui("select", { title: "Pick one", options: ["alpha", "beta", "gamma"], timeout: 30000 });
  const input = await ctx.ui("input", { title: "Your name", placeholder: "name" });
  const editor = await ctx.ui("editor", { title: "Edit text", prefill: "draft" });
  await ctx.ui("set_editor_text", { text: "Text set by the mock extension" });
  await ctx.ui("setWidget", { widgetKey: "mock", widgetLines: ["line 1"], widgetPlacement: "belowEditor" });
  await ctx.ui("setTitle", { title: "pi-web mock" });
  const summary = `confirm=${confirmed(confirm)} select=${shown(select)} input=${shown(input)} editor=${shown(editor)}`;
  await ctx.run({ first: { blocks: [text(summary)] } });
}

async function extTimeout(ctx: PromptContext): Promise<void> {
  ctx.respond();
  const select = await ctx.ui("select", { title: "Pick one quickly", options: ["alpha", "beta", "gamma"], timeout: 500 });
  await ctx.run({ first: { blocks: [text(`select=${shown(select)}`)] } });
}

export const SCENARIOS: readonly PiWebScenario[] = [
  // --- §6 ---
  { name: "text", description: 'One text block: "Hello from the pi-web mock. You said: <text>" (its first 200 characters)', reply: textReply },
  { name: "thinking", description: "A thinking block 0, then a text block 1", reply: thinkingReply },
  {
    name: "thinking-overlap",
    description: "Like thinking, but thinking_end 0 comes after two text_delta 1",
    reply: withVariant({ overlap: true }, thinkingReply),
  },
  {
    name: "tool",
    description: 'read {path:"README.md"} → "# Mock README", then a text reply (4 messages)',
    reply: (turn) =>
      turn.index === 0
        ? { blocks: [readCall()] }
        : { blocks: [text('README.md starts with the heading "Mock README".')] },
  },
  {
    name: "two-tools",
    description: "Text, then call_1 read and call_2 bash ls in one message; both run in order; a text reply",
    reply: twoTools(false),
  },
  {
    name: "parallel-tools",
    description: "Like two-tools, but both tools start first and call_2 ends first (results in source order)",
    reply: twoTools(true),
  },
  {
    name: "long",
    description: `One text block of ${LONG_CODE_POINTS} code points (400 deltas at chunk size 4) mixing ASCII, é, 漢字, 🙂, U+2028/2029, quotes, backslashes, newlines`,
    reply: () => ({ blocks: [text(longText(LONG_CODE_POINTS))] }),
  },
  {
    name: "error",
    description: 'A provider error: no updates, stopReason "error", errorMessage "Mock provider error: 500"',
    reply: () => ({ blocks: [], error: "Mock provider error: 500" }),
  },
  {
    name: "error-retry",
    description: "A 429 error run, then auto_retry_start, a second run without a prompt, and auto_retry_end",
    reply: (turn) =>
      turn.trigger === "retry"
        ? { blocks: [text("Retried after the rate limit: hello from the pi-web mock.")] }
        : { blocks: [], error: "Mock provider error: 429 rate limit", retry: { maxAttempts: 3, delayMs: 200 } },
  },
  {
    name: "queue",
    description:
      "call_1 bash sleep (5× tool-delay, 2 updates) and call_2 bash echo: a steer queued by then skips call_2; follow-ups come one per turn at the end",
    reply: (turn) =>
      turn.trigger === "prompt"
        ? {
            blocks: [
              text("Running two commands."),
              toolCall("call_1", "bash", { command: "sleep 1" }, { text: "(slept 1 s)", duration: 5, updates: ["", "sleeping"] }),
              toolCall("call_2", "bash", { command: "echo done" }, { text: "done" }),
            ],
          }
        : { blocks: [text("Both tools finished.")] },
  },
  {
    name: "abort",
    description: `One text block of ${ABORT_CODE_POINTS} code points (1,000 deltas, ~20 s at the defaults), made to be aborted`,
    reply: () => ({ blocks: [text(longText(ABORT_CODE_POINTS))] }),
  },
  {
    name: "abort-open-block",
    description: "Like abort, but an abort leaves the open text block without text_end",
    reply: () => ({ blocks: [text(longText(ABORT_CODE_POINTS))], variant: { openBlockOnAbort: true } }),
  },
  {
    name: "ext-dialogs",
    description:
      "An extension command: the response, then notify, setStatus, confirm, select, input, editor (each after the previous resolves), set_editor_text, setWidget, setTitle, then a run replying confirm=… select=… input=… editor=…",
    prompt: extDialogs,
  },
  {
    name: "ext-timeout",
    description: "A select with timeout 500 ms; on expiry nothing is sent and the run says select=none",
    prompt: extTimeout,
  },
  {
    name: "ext-error",
    description: "extension_error from /mock/extensions/demo.ts, then a text run",
    prompt: async (ctx) => {
      ctx.respond();
      ctx.emit({ type: "extension_error", extensionPath: "/mock/extensions/demo.ts", event: "tool_call", error: "Mock extension failure" });
      await ctx.run();
    },
  },
  // --- §8 client robustness ---
  {
    name: "ext-unknown-method",
    description: "A fire-and-forget extension_ui_request with an unknown method, then a text run",
    prompt: async (ctx) => {
      ctx.respond();
      await ctx.ui("mock_unknown_method", { title: "Unknown method" });
      await ctx.run();
    },
  },
  {
    name: "dup-prompt-response",
    description: "The prompt gets a failure, then a success, for the same id; then a text run",
    prompt: async (ctx) => {
      ctx.respondRaw({ type: "response", command: "prompt", success: false, error: "Mock duplicate response (failure first)" });
      ctx.respond();
      await ctx.run();
    },
  },
  {
    name: "reorder-responses",
    description:
      "As the connection's scenario (?scenario= or --scenario): responses come in reverse order per 50 ms window. As a prompt: agent_start and updates come before the prompt's response",
    reorderResponses: true,
    prompt: async (ctx) => {
      const run = ctx.run();
      setTimeout(() => ctx.respond(), timerMs(100 + 3 * ctx.chunkDelay));
      await run;
    },
  },
  {
    name: "idless-error",
    description: "An id-less failure response, then the prompt's success and a text run",
    prompt: async (ctx) => {
      ctx.respondRaw({ type: "response", command: "prompt", success: false, error: "Mock id-less failure" }, false);
      ctx.respond();
      await ctx.run();
    },
  },
  {
    name: "silent-command",
    description: "The prompt is never answered and starts nothing",
    prompt: () => undefined,
  },
  {
    name: "unknown-events",
    description: "A text run with extra event types (queue_update, agent_settled) and fields (responseId, mockExtra)",
    events: () => {
      const a = after("agent_start", () => ({ type: "queue_update", steering: [], followUp: [] }))();
      const b = after("agent_end", () => ({ type: "agent_settled", mockExtra: true }))();
      return (e) => a(e.type === "turn_start" ? { ...e, mockExtra: true } : e).flatMap(b);
    },
    prompt: async (ctx) => {
      ctx.respond({ responseId: "resp_mock_1" });
      await ctx.run();
    },
  },
  {
    name: "lifecycle-updates",
    description: "A text run whose blocks are bracketed by `start` and `done` updates",
    reply: withVariant({ lifecycle: true }),
  },
  {
    name: "snapshot-ahead",
    description: "A text run whose text_start snapshot already holds the first chunk",
    reply: withVariant({ snapshotAhead: true }),
  },
  {
    name: "switch-mid-run",
    description: "After 3 updates the session changes (session_changed reason new) and the run ends without agent_end",
    reply: (turn) => ({ ...textReply(turn), interrupt: { afterUpdates: 3, action: "switch" } }),
  },
  {
    name: "foreign-run",
    description: "As the connection's scenario: a run nobody on this socket prompted starts right after connecting",
    onConnect: (ctx) => ctx.foreignRun({ text: "Hello from another client", images: [] }),
  },
  {
    name: "connect-notify",
    description: "As the connection's scenario: a notify extension_ui_request right after connecting",
    onConnect: (ctx) => ctx.ui("notify", { message: "Welcome from the pi-web mock", notifyType: "info" }),
  },
  {
    name: "server-shutdown",
    description:
      "After 3 updates every socket is closed with 1001 \"server shutting down\"; commands sent meanwhile stay unanswered",
    prompt: async (ctx) => {
      ctx.respond();
      ctx.holdCommands();
      await ctx.run({ first: { ...textReply({ trigger: "prompt", text: ctx.said, index: 0 }), interrupt: { afterUpdates: 3, action: "shutdown" } } });
    },
  },
  {
    name: "garbage-frames",
    description: 'Frames a client must ignore ({"type":, [], 42, a binary frame), then a text run',
    prompt: async (ctx) => {
      ctx.respond();
      ctx.sendRaw('{"type":');
      ctx.sendRaw("[]");
      ctx.sendRaw("42");
      ctx.sendRaw(new Uint8Array([0xde, 0xad, 0xbe, 0xef]));
      await ctx.run();
    },
  },
];

export function findScenario(name: string): PiWebScenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

const PREFIX = /^scenario:([A-Za-z0-9_.-]+)(?:\s+|$)/;

/** `scenario:<name> rest` → the name and the rest. */
export function scenarioPrefix(message: string): { name: string; rest: string } | undefined {
  const m = PREFIX.exec(message);
  return m ? { name: m[1] as string, rest: message.slice(m[0].length) } : undefined;
}
