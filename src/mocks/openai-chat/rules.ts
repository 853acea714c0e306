/**
 * Choosing the answer (protocol doc §6), first rule that applies:
 *   script turn → follow-up after tool results → a named scenario → `tool_choice: "none"` or no
 *   tools → a forced function → `call` directives → `"required"` → text.
 * The mock never calls a tool the request does not offer: such a request gets a text answer
 * that says why.
 */
import {
  callsAnswer,
  textAnswer,
  TEXT_ONLY_TEXT,
  type Answer,
  type PlannedCall,
} from "./answer.js";
import { argsFor, hasExample } from "./args.js";
import type { Catalogue } from "./catalogues.js";
import { directiveArgs, type CallDirective, type Directives } from "./directives.js";
import { isFollowUp, trailingToolResults } from "./history.js";
import { forcedFunction } from "./request-fields.js";
import type { ChatRequest, ToolDefinitionT } from "./request.js";
import type { ScenarioScript } from "./script.js";
import { matchScript, scriptAnswer } from "./script-turns.js";

export interface AnswerContext {
  request: ChatRequest;
  catalogue: Catalogue;
  /** The request's tools by name. */
  offered: ReadonlyMap<string, ToolDefinitionT>;
  directives: Directives;
  lastUserText: string;
  model: string;
  stream: boolean;
  /** Status of the http-error scenario (429, 500 or 503). */
  httpErrorStatus: number;
  newCallId(): string;
}

export interface AnswerScenario {
  name: string;
  answer(ctx: AnswerContext): Answer;
}

export function offeredTools(request: ChatRequest): Map<string, ToolDefinitionT> {
  const map = new Map<string, ToolDefinitionT>();
  for (const t of request.tools ?? []) if (!map.has(t.function.name)) map.set(t.function.name, t);
  return map;
}

/** A call of an offered tool with the given (or example) arguments. */
export function plannedCall(ctx: AnswerContext, name: string, args?: Record<string, unknown> | null): PlannedCall {
  const parameters = ctx.offered.get(name)?.function.parameters;
  return { id: ctx.newCallId(), name, arguments: JSON.stringify(args ?? argsFor(name, parameters, ctx.catalogue)) };
}

export function refusal(text: string): Answer {
  return textAnswer(text, "refused");
}

export function notOffered(what: string, name: string, ctx: AnswerContext): Answer {
  const offered = [...ctx.offered.keys()];
  return refusal(
    `${what} calls ${name}, which this request does not offer in tools[]` +
      (offered.length ? ` (offered: ${offered.join(", ")}).` : " (no tools offered)."),
  );
}

/** The tool `"required"` picks: read_file if offered, else the first with example arguments, else the first. */
export function defaultTool(ctx: AnswerContext): string | undefined {
  const names = [...ctx.offered.keys()];
  if (names.includes("read_file")) return "read_file";
  return names.find((n) => hasExample(n, ctx.catalogue)) ?? names[0];
}

function fromDirective(ctx: AnswerContext, d: CallDirective): PlannedCall | Answer {
  if (!ctx.offered.has(d.name)) return notOffered(`The directive \`${d.line}\``, d.name, ctx);
  const parsed = directiveArgs(d);
  if (!parsed.ok) return refusal(`The arguments of the directive \`${d.line}\` are unusable: ${parsed.why}.`);
  return plannedCall(ctx, d.name, parsed.args);
}

const isAnswer = (x: PlannedCall | Answer): x is Answer => "rule" in x;

/** Rules 3-7: what the default (`auto`) scenario answers. */
export function autoAnswer(ctx: AnswerContext): Answer {
  const { request } = ctx;
  if (request.tool_choice === "none" || ctx.offered.size === 0) return textAnswer(TEXT_ONLY_TEXT, "no-tools");
  const forced = forcedFunction(request);
  if (forced !== undefined) {
    const d = ctx.directives.calls.find((c) => c.name === forced);
    const call = d ? fromDirective(ctx, d) : plannedCall(ctx, forced);
    return isAnswer(call) ? call : callsAnswer([call], "forced");
  }
  if (ctx.directives.calls.length) {
    const lines = request.parallel_tool_calls === false ? ctx.directives.calls.slice(0, 1) : ctx.directives.calls;
    const calls: PlannedCall[] = [];
    for (const d of lines) {
      const call = fromDirective(ctx, d);
      if (isAnswer(call)) return call;
      calls.push(call);
    }
    return callsAnswer(calls, "directive");
  }
  if (request.tool_choice === "required") {
    const name = defaultTool(ctx) as string;
    return callsAnswer([plannedCall(ctx, name)], "required");
  }
  return textAnswer(TEXT_ONLY_TEXT, "default");
}

/** Rule 1: after tool results, a final answer naming them, so no client loops forever. */
export function followUpAnswer(ctx: AnswerContext): Answer {
  const results = trailingToolResults(ctx.request);
  const list = results.map((r) => `${r.id} (${r.name}, ${r.chars} chars)`).join(", ");
  return textAnswer(`Done. I received ${results.length} tool result(s): ${list}.`, "follow-up");
}

/** The whole decision, before faults. */
export function chooseAnswer(ctx: AnswerContext, scenario: AnswerScenario, script: ScenarioScript | undefined): Answer {
  if (script) {
    const turn = ctx.request.messages.filter((m) => m.role === "assistant").length + 1;
    const scripted = matchScript(script, turn, ctx.lastUserText);
    if (scripted) {
      return scriptAnswer(scripted, { offered: new Set(ctx.offered.keys()), newCallId: ctx.newCallId });
    }
  }
  if (isFollowUp(ctx.request)) return followUpAnswer(ctx);
  return scenario.answer(ctx);
}
