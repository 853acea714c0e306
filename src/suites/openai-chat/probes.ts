/**
 * The probes that drive an OpenAI-compatible backend (§3.14). `--url` is the API base including
 * /v1 (an empty path gets /v1); the model is --model or the first id of GET /models.
 *
 * A live model is nondeterministic, so the tool probes force `tool_choice` and also spell the call
 * out in the prompt (`call <tool> <JSON>`, the mock's directive, which a real model reads as an
 * instruction). A forced probe that gets no call is sent again --retries times (`<label>#2`...);
 * if there is still none, the tool-call rules it was meant to feed stay incomplete.
 *
 * POSTs are spent in order of value — P2, P6, P4, P11, P10, P7, P8, P9, P12, P5, P3, P1, P13 — and
 * stop at --max-requests; the probes not sent are published in a note so their checks say why they
 * are incomplete. GET /models is free and comes first.
 */
import { untilStopped } from "../../core/probes/probe-session.js";
import type { ProbeContext } from "../../core/run/protocol.js";
import { activeCatalogue, isParameterless, offeredTools, toolDefinitions, type CatalogueTool } from "./catalogue.js";
import { attemptLabel, BAD_INPUT_NAMES, L, NOTE, type BadInputName } from "./labels.js";
import { readParams, type OpenaiChatParams } from "./params.js";
import { ProbeClient, REJECTION_MAX_BYTES, type Answer, type Timing } from "./probe-client.js";
import { findCatalogue } from "../../mocks/openai-chat/catalogues.js";

const CHAT = "/chat/completions";
const COUNT = "Count from 1 to 30, separated by spaces.";

export const SYSTEM_PROMPT =
  "You are a coding assistant working in the user's project. When the user's message contains a line of the form `call <tool> <JSON arguments>`, call that tool with exactly those arguments.";

/** The seed §3 follow-up request, verbatim but for the model. */
export function seedFollowUp(model: string): Record<string, unknown> {
  return {
    model,
    messages: [
      { role: "system", content: "..." },
      { role: "user", content: "프로젝트 의존성 설치해줘" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_install",
            type: "function",
            function: { name: "run_terminal_command", arguments: '{"command":"npm install","waitForCompletion": true}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_install", content: "added 420 packages...\n(found 0 vulnerabilities)" },
    ],
    stream: false,
  };
}

/** The tools a probe plays a role with, from the active catalogue (seed names as the fallback). */
interface Roles {
  offered: CatalogueTool[];
  read?: CatalogueTool;
  list?: CatalogueTool;
  noArg?: CatalogueTool;
  terminal?: CatalogueTool;
}

function roles(p: OpenaiChatParams): Roles {
  // --catalogue none still offers the seed's tools; only the argument rules stop using a catalogue.
  const catalogue = activeCatalogue(p.catalogue) ?? findCatalogue("seed");
  const offered = offeredTools(catalogue);
  const named = (...names: string[]) => names.map((n) => offered.find((t) => t.name === n)).find((t) => t !== undefined);
  return {
    offered,
    read: named("read_file", "Read") ?? offered.find((t) => (t.parameters.required ?? []).includes("filepath")),
    list: named("ls", "List"),
    noArg: named("view_diff") ?? offered.find((t) => isParameterless(t.parameters)),
    terminal: named("run_terminal_command", "Bash"),
  };
}

const directive = (tool: CatalogueTool, args: Record<string, unknown> = tool.exampleArgs) => `call ${tool.name} ${JSON.stringify(args)}`;

export async function runProbes(ctx: ProbeContext): Promise<void> {
  const params = readParams(ctx.params);
  const base = apiBase(ctx.url);
  const headers = { ...ctx.headers };
  const authenticated = !!ctx.token || Object.keys(ctx.headers).some((k) => k.toLowerCase() === "authorization");
  const client = new ProbeClient(ctx, params, base, headers);
  await untilStopped(
    () => sequence(client, params, headers, authenticated),
    () => client.finish(),
  );
}

/** The API base: the URL as given, with /v1 when its path is empty. */
export function apiBase(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  try {
    const u = new URL(trimmed);
    return u.pathname === "/" || u.pathname === "" ? `${trimmed}/v1` : trimmed;
  } catch {
    return trimmed;
  }
}

async function sequence(c: ProbeClient, p: OpenaiChatParams, headers: Record<string, string>, authenticated: boolean): Promise<void> {
  // P0
  const models = await c.group("models", "GET /models", () => c.get(L.models, "/models"));
  const model = p.model || modelIds(models.json)[0];
  if (!model) {
    const why = models.status === 200 ? "listed none" : `answered ${models.status ?? models.error ?? "nothing"}${models.status === 401 || models.status === 403 ? " (pass --token or set OPENAI_API_KEY)" : ""}`;
    c.stop(`no model to probe with: GET /models ${why} and --model was not given`);
  }
  c.note(NOTE.model, { model, source: p.model ? "param" : "models" });

  const r = roles(p);
  c.note(NOTE.offered, { catalogue: p.catalogue, tools: r.offered.map((t) => t.name) });
  const tools = toolDefinitions(r.offered);
  const common = { model, max_tokens: p.maxTokens };
  const usage = { stream_options: { include_usage: true } };
  const ask = (text: string) => [
    { role: "system", content: SYSTEM_PROMPT },
    { role: "user", content: text },
  ];
  const named = (t: CatalogueTool) => ({ type: "function", function: { name: t.name } });

  /** A probe group that is skipped (its labels recorded as unsent) when the budget is spent. */
  const probe = async (name: string, description: string, labels: string[], fn: () => Promise<void>) => {
    if (c.left <= 0) {
      c.skipped(...labels);
      return;
    }
    await c.group(name, description, fn);
  };

  /** Sends a forced probe, again while a complete 2xx answer brings no call. */
  const forced = async (label: string, body: object, timing: Timing) => {
    for (let n = 1; n <= 1 + Math.max(0, p.retries); n++) {
      const a: Answer | undefined = await c.post(attemptLabel(label, n), CHAT, { body: JSON.stringify(body), timing });
      if (!a || a.toolCalled || !completeAnswer(a)) return;
      if (n <= p.retries) c.note(NOTE.retry, { label, attempt: n + 1 });
    }
  };

  // P2
  await probe("bad-input", "six malformed chat requests (each must get 400)", BAD_INPUT_NAMES.map(L.badInput), async () => {
    for (const name of BAD_INPUT_NAMES) {
      await c.post(L.badInput(name), CHAT, { body: badInputBody(name, model), timing: "quick", maxBytes: REJECTION_MAX_BYTES });
    }
  });

  // P6
  if (r.read) {
    const read = r.read;
    const body = { ...common, messages: ask(`${read.probePrompt}\n${directive(read)}`), tools, tool_choice: named(read), parallel_tool_calls: false };
    await probe("forced-stream", `stream with tool_choice ${read.name}`, [L.forcedStream], () => forced(L.forcedStream, { ...body, stream: true, ...usage }, "stream"));
  }

  // P4
  await probe("text-stream", "stream a text answer (no tools)", [L.textStream], async () => {
    await c.post(L.textStream, CHAT, { body: JSON.stringify({ ...common, messages: [{ role: "user", content: COUNT }], stream: true, ...usage }), timing: "stream" });
  });

  // P11
  await probe("follow-up-sync", "the seed §3 follow-up request with a tool result", [L.followUpSync], async () => {
    await c.post(L.followUpSync, CHAT, { body: JSON.stringify({ ...seedFollowUp(model), max_tokens: p.maxTokens }), timing: "completion" });
  });

  // P10
  if (r.read) {
    const read = r.read;
    const second = { ...read.exampleArgs, ...("filepath" in read.exampleArgs ? { filepath: "package.json" } : {}) };
    const body = {
      ...common,
      messages: ask(`Read README.md and package.json.\n${directive(read)}\n${directive(read, second)}`),
      tools,
      tool_choice: "required",
      parallel_tool_calls: true,
      stream: true,
      ...usage,
    };
    await probe("parallel-stream", `stream with two ${read.name} calls requested in parallel`, [L.parallelStream], () => forced(L.parallelStream, body, "stream"));

    // P7
    const sync = { ...common, messages: ask(`${read.probePrompt}\n${directive(read)}`), tools, tool_choice: named(read), parallel_tool_calls: false, stream: false };
    await probe("forced-sync", `non-streamed request with tool_choice ${read.name}`, [L.forcedSync], () => forced(L.forcedSync, sync, "completion"));
  }

  // P8
  if (r.list) {
    const list = r.list;
    const args = "dirPath" in list.exampleArgs ? { dirPath: "." } : list.exampleArgs;
    const body = { ...common, messages: ask(`List the files in the project root.\n${directive(list, args)}`), tools, tool_choice: "required", parallel_tool_calls: false, stream: true, ...usage };
    await probe("required-stream", 'stream with tool_choice "required"', [L.requiredStream], () => forced(L.requiredStream, body, "stream"));
  }

  // P9
  if (r.noArg) {
    const t = r.noArg;
    const body = { ...common, messages: ask(`${t.probePrompt}\n${directive(t, {})}`), tools, tool_choice: named(t), stream: true };
    await probe("no-arg-stream", `stream forcing the parameterless ${t.name}, usage not requested`, [L.noArgStream], () => forced(L.noArgStream, body, "stream"));
  }

  // P12
  await probe("continue-shape", "a request shaped like the Continue IDE's (Accept: application/json, content \" \" and \"\")", [L.continueShape], async () => {
    await c.post(L.continueShape, CHAT, { body: JSON.stringify(continueShape(common, tools, r)), timing: "stream", headers: { accept: "application/json" } });
  });

  // P5
  await probe("text-sync", "a non-streamed text answer (no tools)", [L.textSync], async () => {
    await c.post(L.textSync, CHAT, { body: JSON.stringify({ ...common, messages: [{ role: "user", content: COUNT }], stream: false }), timing: "completion" });
  });

  // P3
  await probe("unknown-model", "stream: true with a model nobody serves", [L.unknownModel], async () => {
    const unknown = `agentwire-no-such-model-${Math.random().toString(36).slice(2, 10)}`;
    await c.post(L.unknownModel, CHAT, { body: JSON.stringify({ ...common, model: unknown, messages: [{ role: "user", content: "Say hi." }], stream: true, ...usage }), timing: "stream" });
  });

  // P1
  if (!authenticated) {
    c.note(NOTE.authSkipped, "no --token (or OPENAI_API_KEY) was given, so unauthenticated requests cannot be told from authenticated ones");
  } else {
    await probe("auth", "a request without Authorization, then one with a wrong key", [L.authMissing, L.authWrong], async () => {
      const body = JSON.stringify({ ...common, messages: [{ role: "user", content: "Say hi." }], stream: false });
      const others = withoutAuth(headers);
      await c.post(L.authMissing, CHAT, { body, timing: "quick", replaceHeaders: others, maxBytes: REJECTION_MAX_BYTES });
      const wrong = `agentwire-wrong-key-${Math.random().toString(36).slice(2, 12)}`;
      await c.post(L.authWrong, CHAT, { body, timing: "quick", replaceHeaders: { ...others, Authorization: `Bearer ${wrong}` }, maxBytes: REJECTION_MAX_BYTES });
    });
  }

  // P13
  if (p.perTool) {
    for (const t of r.offered) {
      const label = L.perTool(t.name);
      const body = { ...common, messages: ask(`${t.probePrompt}\n${directive(t)}`), tools, tool_choice: named(t), parallel_tool_calls: false, stream: true, ...usage };
      await probe(label, `stream forcing ${t.name}`, [label], () => forced(label, body, "stream"));
    }
  }
}

function withoutAuth(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== "authorization"));
}

/** A 2xx answer read to its end: one worth asking again when it brought no call. */
function completeAnswer(a: Answer): boolean {
  return a.status !== undefined && a.status >= 200 && a.status < 300 && (a.endReason === "eof" || a.endReason === "close-timeout");
}

/** Model ids of a listing: `{data: [{id}]}`, or leniently a bare array (the check judges the shape). */
export function modelIds(json: unknown): string[] {
  const data = Array.isArray(json) ? json : (json as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return [];
  return data.flatMap((m) => (m && typeof m === "object" && typeof (m as { id?: unknown }).id === "string" ? [(m as { id: string }).id] : []));
}

/** P2 bodies. */
export function badInputBody(name: BadInputName, model: string): string {
  const user = [{ role: "user", content: "hi" }];
  switch (name) {
    case "malformed-json":
      return `{"model": ${JSON.stringify(model)}, "messages": [{"role": "user", "content": "hi"}`;
    case "empty-object":
      return "{}";
    case "model-only":
      return JSON.stringify({ model });
    case "messages-string":
      return JSON.stringify({ model, stream: true, messages: "hi" });
    case "role-wizard":
      return JSON.stringify({ model, messages: [{ role: "wizard", content: "hi" }] });
    case "tool-without-name":
      return JSON.stringify({ model, messages: user, tools: [{ type: "function", function: { description: "A tool without a name", parameters: { type: "object", properties: {} } } }] });
  }
}

/** P12: what the Continue IDE sends after two tool rounds (§3.12). */
function continueShape(common: object, tools: object[], r: Roles): object {
  const terminal = r.terminal?.name ?? "run_terminal_command";
  const terminalArgs = r.terminal?.name === "Bash" ? { command: "npm install" } : { command: "npm install", waitForCompletion: true };
  const second = r.noArg ?? r.read;
  const secondName = second?.name ?? "view_diff";
  const secondArgs = second ? (isParameterless(second.parameters) ? {} : second.exampleArgs) : {};
  return {
    ...common,
    messages: [
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: "Install the project's dependencies." },
      { role: "assistant", content: " ", tool_calls: [{ id: "call_agentwire_cs1", type: "function", function: { name: terminal, arguments: JSON.stringify(terminalArgs) } }] },
      { role: "tool", tool_call_id: "call_agentwire_cs1", content: "added 420 packages in 3s\n\nfound 0 vulnerabilities" },
      { role: "user", content: "Now show me what changed." },
      { role: "assistant", content: "", tool_calls: [{ id: "call_agentwire_cs2", type: "function", function: { name: secondName, arguments: JSON.stringify(secondArgs) } }] },
      { role: "tool", tool_call_id: "call_agentwire_cs2", content: "The user cancelled this tool call." },
    ],
    tools,
    stream: true,
    stream_options: { include_usage: true },
    parallel_tool_calls: false,
  };
}
