/**
 * `openai-chat/client/*` (contract §4): what any client sends, judged from the mock's recorded
 * `http-request` events (probe "client"). No adapter is needed, so Continue and any other
 * black-box client get these. Each rule judges one thing, so that one fault trips one check: the
 * schema check leaves tools, echoed arguments and empty ids to the checks that own them.
 */
import { redactHeaderValue } from "../../../core/transcript/redaction.js";
import { at, excerpt, Violations, type CheckContext, type CheckDef, type CheckObserver, type Outcome } from "../../../core/checks/check.js";
import { checkMaker, type CheckSpec } from "../../../core/checks/define-check.js";
import { requestRules, type RequestRule } from "../../../core/client-cases/request-check.js";
import { crossedReason, crossingGrace } from "../../../core/checks/crossing.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { compileForeignSchema } from "../../../core/schemas/foreign-schema.js";
import type { TranscriptEvent } from "../../../core/transcript/transcript.js";
import { caseOfPath } from "./cases.js";
import { DEFAULT_CATALOGUE, loadCatalogue, type CatalogueTool } from "./catalogue.js";
import { canonicalJson } from "./compare.js";
import { emittedCallsOf, type EmittedCall } from "./emitted.js";
import { callsOf, historyCalls, isObject, messagesOf, toolNames, tryJson, type Json } from "./history.js";
import { diffParameters, foldName } from "./shape.js";
import { SEED } from "../labels.js";
import { ownEntry } from "../../../core/checks/check-helpers.js";

/** The mock records client traffic under this probe name. */
export const CLIENT_PROBE = "client";

type HttpRequest = Extract<TranscriptEvent, { kind: "http-request" }>;

const COMPLETIONS = /(?:^|\/)chat\/completions\/?$/;
const RESPONSES = /(?:^|\/)responses\/?$/;

function pathname(path: string): string {
  const q = path.indexOf("?");
  return q < 0 ? path : path.slice(0, q);
}

/** A POST to `…/chat/completions` from the client under test. */
export function isCompletionRequest(event: TranscriptEvent): event is HttpRequest {
  return event.kind === "http-request" && event.probe === CLIENT_PROBE && event.method === "POST" && COMPLETIONS.test(pathname(event.path));
}

/** Whether a robustness case breaks this rule on purpose (the kit asked for it). */
function exempt(req: HttpRequest, checkId: string): boolean {
  return caseOfPath(req.path)?.exempt?.includes(checkId) ?? false;
}

/** The parsed body of a completion request, or undefined when it is not a JSON object. */
function bodyOf(req: HttpRequest): Json | undefined {
  const parsed = tryJson(req.body ?? "");
  return parsed && isObject(parsed.value) ? parsed.value : undefined;
}

const where = (req: HttpRequest) => `${req.method} ${req.path}`;

const clientCheck = checkMaker({ seed: SEED, side: "client" });

/** Rules judged on each request of the client under test that `select` keeps, unless a robustness case breaks the rule on purpose. */
const requestRule = <T>(select: (req: HttpRequest) => T | undefined) => requestRules<CheckSpec, T>(clientCheck, (req, rule) => (exempt(req, rule.id) ? undefined : select(req)));

/** Every request of the client (a preflight is the browser's). */
const clientRequest = requestRule((req) => (req.probe === CLIENT_PROBE && req.method !== "OPTIONS" ? req : undefined));
/** Every completion request. */
const completionRequest = requestRule((req) => (isCompletionRequest(req) ? req : undefined));
/** Completion requests whose body is a JSON object (`request-schema` judges the others). */
const bodyRule = requestRule((req) => {
  const body = isCompletionRequest(req) ? bodyOf(req) : undefined;
  return body ? { req, body } : undefined;
});

/** A rule about completion request bodies. */
function bodyCheck(spec: Omit<CheckSpec, "create" | "probes"> & Pick<RequestRule<{ req: HttpRequest; body: Json }>, "pass" | "judge">): CheckDef {
  return bodyRule({ untested: "the client sent no chat completion request this rule applies to", ...spec });
}

// ---------------------------------------------------------------------------------------------

/** Replaces what other checks own with valid stand-ins, so the schema judges only the rest. */
function withoutOwnedParts(body: Json): Json {
  const out: Json = { ...body };
  delete out.tools; // tools-well-formed
  if (Array.isArray(body.messages)) {
    out.messages = body.messages.map((m) => {
      if (!isObject(m)) return m;
      const copy: Json = { ...m };
      // tool-results-answer-calls owns empty result ids.
      if (copy.role === "tool" && copy.tool_call_id === "") copy.tool_call_id = "x";
      if (Array.isArray(m.tool_calls)) {
        copy.tool_calls = m.tool_calls.map((tc) => {
          if (!isObject(tc)) return tc;
          const call: Json = { ...tc };
          if (call.id === "") call.id = "x"; // tool-call-ids-unique
          if (isObject(tc.function) && "arguments" in tc.function && typeof tc.function.arguments !== "string") {
            call.function = { ...tc.function, arguments: "{}" }; // arguments-strings
          }
          return call;
        });
      }
      return copy;
    });
  }
  return out;
}

const ROLE_SCHEMAS: Record<string, string> = {
  system: "system-message",
  developer: "system-message",
  user: "user-message",
  assistant: "assistant-message",
  tool: "tool-message",
};

const REQUEST_SCHEMA_ID = "openai-chat/client/request-schema";

export const requestSchemaCheck = completionRequest({
  id: REQUEST_SCHEMA_ID,
  pass: "every request was application/json with a valid ChatCompletionRequest",
  untested: "the client sent no chat completion request",
  judge(event, t, ctx) {
    const type = (event.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json") {
      t.fail("Content-Type: application/json", `${where(event)} sent Content-Type ${JSON.stringify(event.headers["content-type"] ?? "(none)")}`, at(event));
    }
    const parsed = tryJson(event.body ?? "");
    if (!parsed || !isObject(parsed.value)) {
      return t.fail("a JSON object body", `${where(event)} body is not a JSON object`, at(event, { excerpt: excerpt(event.body ?? "") }));
    }
    const body = withoutOwnedParts(parsed.value);
    const result = ctx.validate("chat-completion-request", body);
    if (result.ok) return;
    // A message failing the role union says little; name its own schema's errors instead.
    const detail = result.errors.some((e) => /^\/messages\/\d+/.test(e.pointer)) ? messageErrors(ctx, body) : "";
    const top = result.errors.filter((e) => !/^\/messages\/\d+/.test(e.pointer));
    const text = [top.length ? formatSchemaErrors(top) : "", detail].filter(Boolean).join("; ");
    t.fail("a valid ChatCompletionRequest", `${where(event)} body is not a ChatCompletionRequest: ${text}`, at(event, { excerpt: excerpt(event.body ?? "") }));
  },
});

function messageErrors(ctx: CheckContext, body: Json): string {
  const out: string[] = [];
  (Array.isArray(body.messages) ? body.messages : []).forEach((m, i) => {
    const role = isObject(m) ? m.role : undefined;
    const schema = typeof role === "string" ? ownEntry(ROLE_SCHEMAS, role) : undefined;
    if (!schema) {
      if (!ctx.validate("chat-message", m).ok) out.push(`/messages/${i}/role: ${JSON.stringify(role ?? null)} is not one of system, developer, user, assistant, tool`);
      return;
    }
    const r = ctx.validate(schema, m);
    if (!r.ok) out.push(formatSchemaErrors(r.errors.map((e) => ({ ...e, pointer: `/messages/${i}${e.pointer}` }))));
  });
  return out.join("; ");
}

// ---------------------------------------------------------------------------------------------

export const authHeaderCheck = clientRequest({
  id: "openai-chat/client/auth-header",
  pass: "every request carried a bearer key the mock accepts",
  untested: "the client sent no request",
  judge(event, t) {
    const header = event.headers["authorization"];
    const m = header === undefined ? null : /^Bearer[ \t]+(\S.*)$/i.exec(header.trim());
    if (!m) {
      return t.fail("Authorization: Bearer <key>", `${where(event)} sent ${header === undefined ? "no Authorization header" : `Authorization ${JSON.stringify(redactHeaderValue("authorization", header))}`}`, at(event));
    }
    const meta = event.meta ?? {};
    const wrong =
      meta.authorized === false ||
      (typeof meta.apiKey === "string" && meta.apiKey !== "" && meta.apiKey !== m[1]!.trim());
    if (wrong) t.fail("the mock's API key", `${where(event)} sent a bearer key the mock does not accept`, at(event));
  },
});

// ---------------------------------------------------------------------------------------------

function hasTools(body: Json): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

export const optionsConsistentCheck = bodyCheck({
  id: "openai-chat/client/options-consistent",
  pass: "every request's stream_options, tool_choice and parallel_tool_calls agreed with stream and tools",
  judge({ req, body }, t) {
    const ev = at(req, { excerpt: excerpt(req.body ?? "") });
    if (body.stream_options !== undefined && body.stream_options !== null && body.stream !== true) {
      t.fail("stream_options only with stream: true", `${where(req)} sent stream_options with stream ${JSON.stringify(body.stream ?? "absent")}`, ev);
    }
    const tools = hasTools(body);
    for (const key of ["tool_choice", "parallel_tool_calls"]) {
      if (body[key] !== undefined && body[key] !== null && !tools) {
        t.fail(`${key} only with a non-empty tools[]`, `${where(req)} sent ${key} ${JSON.stringify(body[key])} without tools`, ev);
      }
    }
    const choice = body.tool_choice;
    if (tools && isObject(choice) && isObject(choice.function) && typeof choice.function.name === "string") {
      const name = choice.function.name;
      if (!toolNames(body).includes(name)) {
        t.fail("a named tool_choice that is one of tools[]", `${where(req)} forces ${JSON.stringify(name)}, which tools[] does not offer`, ev);
      }
    }
  },
});

// ---------------------------------------------------------------------------------------------

export const toolsWellFormedCheck = bodyCheck({
  id: "openai-chat/client/tools-well-formed",
  pass: "every tools[] entry was a valid ToolDefinition with a unique name and compilable parameters",
  judge({ req, body }, t, ctx) {
    // tools: null is the same as absent (OpenAI reads it so); request-schema owns the field's type.
    if (body.tools === undefined || body.tools === null) return false;
    const ev = at(req, { excerpt: excerpt(body.tools, 200) });
    if (!Array.isArray(body.tools)) {
      t.fail("tools as an array", `${where(req)} sent tools as ${typeof body.tools}`, ev);
      return;
    }
    const seen = new Set<string>();
    body.tools.forEach((tool, i) => {
      const r = ctx.validate("tool-definition", tool);
      if (!r.ok) t.fail("a valid ToolDefinition", `${where(req)} tools[${i}] is not a ToolDefinition: ${formatSchemaErrors(r.errors)}`, ev);
      const fn = isObject(tool) && isObject(tool.function) ? tool.function : undefined;
      const name = fn?.name;
      if (typeof name === "string") {
        if (seen.has(name)) t.fail("unique tool names", `${where(req)} offers ${JSON.stringify(name)} twice`, ev);
        seen.add(name);
      }
      if (fn && isObject(fn.parameters)) {
        // Each schema on its own, in the dialect its $schema names: clients resend the same tools every turn.
        const compiled = compileForeignSchema(fn.parameters);
        if (!compiled.ok) t.fail("parameters that compile as JSON Schema", `${where(req)} tools[${i}] (${String(name)}) parameters do not compile: ${compiled.error}`, ev);
      }
    });
  },
});

// ---------------------------------------------------------------------------------------------

function activeCatalogue(ctx: CheckContext, req: HttpRequest): string {
  const fromParams = ctx.params.catalogue;
  if (typeof fromParams === "string" && fromParams !== "") return fromParams;
  const fromMock = req.meta?.catalogue;
  return typeof fromMock === "string" && fromMock !== "" ? fromMock : DEFAULT_CATALOGUE;
}

export const toolsMatchCatalogueCheck: CheckDef = clientCheck({
  id: "openai-chat/client/tools-match-catalogue",
  create(ctx): CheckObserver {
    const v = new Violations();
    let exercised = false;
    let catalogueName: string | undefined;
    /** Offered names outside the catalogue: reported when nothing else was judged. */
    const others = new Set<string>();
    return {
      observe(event) {
        if (!isCompletionRequest(event) || exempt(event, toolsMatchCatalogueCheck.id)) return;
        const body = bodyOf(event);
        if (!body || !Array.isArray(body.tools)) return;
        catalogueName = activeCatalogue(ctx, event);
        const catalogue = loadCatalogue(catalogueName);
        if (!catalogue) return;
        const byName = new Map(catalogue.map((t) => [t.name, t]));
        const byFold = new Map(catalogue.map((t) => [foldName(t.name), t]));
        for (const tool of body.tools) {
          const fn = isObject(tool) && isObject(tool.function) ? tool.function : undefined;
          if (!fn || typeof fn.name !== "string") continue;
          const ev = at(event, { excerpt: excerpt(tool, 200) });
          const entry: CatalogueTool | undefined = byName.get(fn.name);
          // Only a tool named as a built-in (or nearly) is judged: nothing else exercises the rule.
          if (entry || byFold.has(foldName(fn.name))) exercised = true;
          else if (others.size < 20) others.add(fn.name);
          if (entry) {
            const diff = diffParameters(entry.parameters, fn.parameters);
            if (diff.length) v.add(`${fn.name} as in catalogue ${catalogueName}`, `${where(event)} offers ${fn.name} with ${diff.join("; ")}`, ev);
            continue;
          }
          const near = byFold.get(foldName(fn.name));
          if (near) v.add(`the exact identifier ${JSON.stringify(near.name)}`, `${where(event)} offers ${JSON.stringify(fn.name)}, a near miss of the built-in ${JSON.stringify(near.name)}`, ev);
        }
      },
      finish(): Outcome {
        if (!exercised && catalogueName !== undefined && !loadCatalogue(catalogueName)) {
          return { verdict: "skip", message: `no catalogue to match against (${catalogueName === "none" ? "--catalogue none" : `unknown catalogue ${catalogueName}`})` };
        }
        const name = catalogueName ?? DEFAULT_CATALOGUE;
        const untested = others.size
          ? `not exercised: the client offered none of catalogue ${name}'s tools (offered: ${[...others].join(", ")}); a profile such as continue-cli-2026 selects another catalogue`
          : "not exercised: the client offered no tools";
        return v.outcome({ pass: `every built-in tool offered matched catalogue ${name}`, exercised, untested });
      },
    };
  },
});

// ---------------------------------------------------------------------------------------------

export const toolResultsAnswerCallsCheck = bodyCheck({
  id: "openai-chat/client/tool-results-answer-calls",
  pass: "every tool message answered a call of the assistant message before it",
  judge({ req, body }, t) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    let judged = false;
    let owner: unknown;
    messages.forEach((m, i) => {
      if (!isObject(m)) return;
      if (m.role !== "tool") {
        owner = m;
        return;
      }
      judged = true;
      const ids = isObject(owner) && owner.role === "assistant" ? callsOf(owner).map((c) => c.id) : [];
      const id = m.tool_call_id;
      const ev = at(req, { excerpt: excerpt(m, 160), note: `messages[${i}]` });
      if (!isObject(owner) || owner.role !== "assistant" || ids.length === 0) {
        t.fail("a tool message right after an assistant message with tool_calls", `${where(req)} messages[${i}] (tool ${JSON.stringify(id)}) follows no assistant tool call`, ev);
      } else if (typeof id !== "string" || id === "" || !ids.includes(id)) {
        t.fail(`a tool_call_id among ${JSON.stringify(ids)}`, `${where(req)} messages[${i}] answers ${JSON.stringify(id ?? null)}, which the assistant message did not call`, ev);
      }
    });
    return judged;
  },
});

export const allCallsAnsweredCheck = bodyCheck({
  id: "openai-chat/client/all-calls-answered",
  pass: "every call in the history was answered by exactly one tool message",
  judge({ req, body }, t) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    let judged = false;
    messages.forEach((m, i) => {
      if (!isObject(m) || m.role !== "assistant") return;
      const calls = callsOf(m);
      if (calls.length === 0) return;
      judged = true;
      const answers = new Map<unknown, number>();
      for (let j = i + 1; j < messages.length; j++) {
        const t = messages[j];
        if (!isObject(t) || t.role !== "tool") break;
        answers.set(t.tool_call_id, (answers.get(t.tool_call_id) ?? 0) + 1);
      }
      for (const c of calls) {
        const n = answers.get(c.id) ?? 0;
        if (n !== 1) {
          t.fail(
            "exactly one tool message per call",
            `${where(req)} messages[${i}] call ${JSON.stringify(c.id)} (${String(c.name)}) is answered ${n === 0 ? "by no tool message" : `${n} times`}`,
            at(req, { excerpt: excerpt(m, 160), note: `messages[${i}]` }),
          );
        }
      }
    });
    return judged;
  },
});

export const toolCallIdsUniqueCheck = bodyCheck({
  id: "openai-chat/client/tool-call-ids-unique",
  pass: "every call id in the history was unique and non-empty",
  judge({ req, body }, t) {
    const calls = historyCalls(body);
    if (calls.length === 0) return false;
    const seen = new Map<string, number>();
    for (const c of calls) {
      if (typeof c.id !== "string") continue; // a missing id is the schema's
      const ev = at(req, { note: `messages[${c.message}].tool_calls[${c.position}]` });
      if (c.id === "") {
        t.fail("a non-empty call id", `${where(req)} messages[${c.message}].tool_calls[${c.position}] has id ""`, ev);
        continue;
      }
      const first = seen.get(c.id);
      if (first !== undefined) t.fail("unique call ids", `${where(req)} call id ${JSON.stringify(c.id)} occurs in messages[${first}] and messages[${c.message}]`, ev);
      else seen.set(c.id, c.message);
    }
  },
});

export const argumentsStringsCheck = bodyCheck({
  id: "openai-chat/client/arguments-strings",
  pass: "every echoed function.arguments was a string holding a JSON object",
  judge({ req, body }, t) {
    const calls = historyCalls(body);
    if (calls.length === 0) return false;
    for (const c of calls) {
      const ev = at(req, { excerpt: excerpt(c.arguments ?? null, 120), note: `messages[${c.message}].tool_calls[${c.position}]` });
      if (typeof c.arguments !== "string") {
        t.fail("arguments as a JSON string", `${where(req)} messages[${c.message}] echoes ${String(c.name)} arguments as ${c.arguments === null ? "null" : Array.isArray(c.arguments) ? "an array" : typeof c.arguments}`, ev);
        continue;
      }
      const parsed = tryJson(c.arguments);
      if (!parsed || !isObject(parsed.value)) {
        t.fail("arguments that parse as a JSON object", `${where(req)} messages[${c.message}] echoes ${String(c.name)} arguments ${JSON.stringify(excerpt(c.arguments, 60))}, not a JSON object`, ev);
      }
    }
  },
});

// ---------------------------------------------------------------------------------------------

interface SentResponse {
  exchange: string;
  /** Sequence number of the request that produced it. */
  seq: number;
  calls: EmittedCall[];
}

/** Pending responses kept for matching; older ones are dropped (constant memory). */
const MAX_PENDING = 256;

/** Equal as parsed JSON; a non-string echo is compared by content (arguments-strings judges its type). */
function sameArguments(sent: string, echoed: unknown): boolean {
  if (sent === echoed) return true;
  const a = tryJson(sent);
  const b = typeof echoed === "string" ? tryJson(echoed) : { value: echoed };
  return !!a && !!b && canonicalJson(a.value) === canonicalJson(b.value);
}

export const historyMatchesSentCheck: CheckDef = clientCheck({
  id: "openai-chat/client/history-matches-sent",
  create(ctx): CheckObserver {
    const v = new Violations();
    let pending: SentResponse[] = [];
    let lastResponse: SentResponse | undefined;
    /** When the last response's body ended: a follow-up to it is one sent after the client had it all. */
    let lastEnded: number | undefined;
    const grace = crossingGrace(ctx);
    let crossed: string | undefined;
    let judged = 0;

    const judge = (req: HttpRequest, body: Json) => {
      const messages = messagesOf(body);
      const echoed = new Map<string, { name: unknown; arguments: unknown; message: number }>();
      historyCalls(body).forEach((c) => {
        if (typeof c.id === "string" && !echoed.has(c.id)) echoed.set(c.id, { name: c.name, arguments: c.arguments, message: c.message });
      });
      const endsWithTool = messages.length > 0 && messages[messages.length - 1]!.role === "tool";
      // Following up on another answer, or arriving so soon after the last one ended that it may have been sent
      // before (another conversation's turn crossing it), the request is no follow-up to the last answer.
      const followsOther = pending.some((r) => r.calls.some((c) => echoed.has(c.id)));
      const hadLast = lastEnded !== undefined && lastEnded <= req.t - grace;
      const still: SentResponse[] = [];
      for (const r of pending) {
        const hits = r.calls.filter((c) => echoed.has(c.id));
        if (hits.length > 0) {
          judged++;
          for (const c of r.calls) {
            const e = echoed.get(c.id);
            const ev = at(req, { note: `call ${c.id} sent in exchange ${r.exchange}` });
            if (!e) {
              v.add(`call ${c.id} (${c.name}) echoed`, `${where(req)} echoes ${hits.map((h) => h.id).join(", ")} of exchange ${r.exchange} but drops ${c.id} (${c.name})`, ev);
              continue;
            }
            if (e.name !== c.name) v.add(`name ${JSON.stringify(c.name)}`, `${where(req)} echoes call ${c.id} with name ${JSON.stringify(e.name)}, the mock sent ${JSON.stringify(c.name)}`, ev);
            if (!sameArguments(c.arguments, e.arguments)) {
              v.add(`arguments ${excerpt(c.arguments, 80)}`, `${where(req)} echoes call ${c.id} with arguments ${excerpt(e.arguments ?? null, 80)}, the mock sent ${excerpt(c.arguments, 80)}`, { ...ev, excerpt: excerpt(e.arguments ?? null, 120) });
            }
          }
        } else if (r === lastResponse && endsWithTool && !followsOther && !hadLast) {
          crossed ??= crossedReason(`${where(req)}, which ends with tool results but echoes none of exchange ${r.exchange}'s calls,`, grace);
          still.push(r);
        } else if (r === lastResponse && endsWithTool && !followsOther) {
          // The follow-up to the latest calls answers other ids: calls lost, merged or renamed.
          judged++;
          const last = messages.length - 1;
          let a = last;
          while (a >= 0 && messages[a]!.role === "tool") a--;
          const got = a >= 0 ? callsOf(messages[a]).map((c) => String(c.id)) : [];
          v.add(
            `the follow-up to exchange ${r.exchange} echoing ${r.calls.map((c) => c.id).join(", ")}`,
            `${where(req)} follows up with calls [${got.join(", ")}] where the mock sent [${r.calls.map((c) => `${c.id} (${c.name})`).join(", ")}]`,
            at(req, { excerpt: excerpt(a >= 0 ? messages[a] : null, 200) }),
          );
        } else {
          still.push(r);
        }
      }
      pending = still;
    };

    return {
      observe(event) {
        if (lastResponse && event.kind === "body-end" && event.exchange === lastResponse.exchange) lastEnded = event.t;
        if (!isCompletionRequest(event)) return;
        // First the history this request echoes, then the calls its own answer carries.
        const body = bodyOf(event);
        if (body && pending.length > 0) judge(event, body);
        lastResponse = undefined;
        lastEnded = undefined;
        const sent = emittedCallsOf(event);
        if (!sent || sent.calls.length === 0) return;
        const r: SentResponse = { exchange: sent.exchange, seq: event.seq, calls: sent.calls };
        pending.push(r);
        if (pending.length > MAX_PENDING) pending.shift();
        lastResponse = r;
      },
      finish: () =>
        v.outcome({
          pass: `every echoed call matched what the mock sent (${judged} response(s) followed up)`,
          exercised: judged > 0,
          untested: `not exercised: ${crossed ?? "no request followed up on a response with tool calls"}`,
        }),
    };
  },
});

// ---------------------------------------------------------------------------------------------

export const catalogueCoverageCheck: CheckDef = clientCheck({
  id: "openai-chat/client/catalogue-coverage",
  create(ctx): CheckObserver {
    const offered = new Set<string>();
    let requests = 0;
    let withoutTools = 0;
    let responsesCalls = 0;
    let catalogueName: string | undefined;
    return {
      observe(event) {
        if (event.kind === "http-request" && event.probe === CLIENT_PROBE && event.method === "POST" && RESPONSES.test(pathname(event.path))) {
          responsesCalls++;
          return;
        }
        if (!isCompletionRequest(event)) return;
        requests++;
        catalogueName ??= activeCatalogue(ctx, event);
        const body = bodyOf(event);
        const names = body ? toolNames(body) : [];
        if (names.length === 0) withoutTools++;
        for (const n of names) offered.add(n);
      },
      finish(): Outcome {
        if (requests === 0 && responsesCalls === 0) {
          return { verdict: "incomplete", notExercised: true, message: "not exercised: the client sent no chat completion request" };
        }
        const parts: string[] = [];
        const catalogue = catalogueName ? loadCatalogue(catalogueName) : undefined;
        if (catalogue) {
          const names = catalogue.map((t) => t.name);
          const enabled = catalogue.filter((t) => t.policy !== "disabled").map((t) => t.name);
          const got = enabled.filter((n) => offered.has(n));
          const missing = enabled.filter((n) => !offered.has(n));
          parts.push(`offered ${got.length} of ${enabled.length} enabled ${catalogueName} tools${missing.length ? ` (missing: ${missing.join(", ")})` : ""}`);
          const disabled = catalogue.filter((t) => t.policy === "disabled" && offered.has(t.name)).map((t) => t.name);
          if (disabled.length) parts.push(`disabled tools offered: ${disabled.join(", ")}`);
          const unknown = [...offered].filter((n) => !names.includes(n));
          if (unknown.length) parts.push(`names outside the catalogue: ${unknown.join(", ")}`);
        } else {
          parts.push(`offered ${offered.size} tool name(s): ${[...offered].join(", ") || "none"}`);
        }
        parts.push(`${withoutTools} of ${requests} request(s) without tools`);
        if (responsesCalls) parts.push(`${responsesCalls} request(s) to /responses (set useResponsesApi: false)`);
        return { verdict: "info", message: parts.join("; ") };
      },
    };
  },
});

export const TRAFFIC_CHECKS: CheckDef[] = [
  requestSchemaCheck,
  authHeaderCheck,
  optionsConsistentCheck,
  toolsWellFormedCheck,
  toolsMatchCatalogueCheck,
  toolResultsAnswerCallsCheck,
  allCallsAnsweredCheck,
  toolCallIdsUniqueCheck,
  argumentsStringsCheck,
  historyMatchesSentCheck,
  catalogueCoverageCheck,
];
