/**
 * Validation of a ChatCompletionRequest (protocol doc §2): JSON, the schema rules, then the rules
 * the mock enforces beyond them (`stream_options` only with `stream: true`; a named `tool_choice`
 * must be offered; `n` is 1, the one choice the mock answers). Failures become 400 errors whose
 * `param` is the dotted path.
 * Browser-safe: zod/mini (the tree-shakable build) with English messages, the same as the full build's.
 * zod is slow to load, so the engine imports this module with its first chat request; what reads a
 * validated request is in request-fields.ts.
 */
import * as z from "zod/mini";
import { ENGLISH } from "../../core/mock/zod-english.js";
import { errors, type ApiError } from "./errors.js";
import { forcedFunction, offeredNames } from "./request-fields.js";

const TextPart = z.looseObject({ type: z.literal("text"), text: z.string() });
const ImagePart = z.looseObject({
  type: z.literal("image_url"),
  image_url: z.looseObject({ url: z.string() }),
});
const ContentPart = z.discriminatedUnion("type", [TextPart, ImagePart]);
const TextContent = z.union([z.string(), z.array(TextPart)]);

const nonEmpty = () => z.string().check(z.minLength(1));
/** Absent, or null where OpenAI's API accepts null (the same as absent). */
const maybe = <T extends z.core.SomeType>(t: T) => z.optional(z.nullable(t));

const ToolCall = z.looseObject({
  id: nonEmpty(),
  type: z.literal("function"),
  function: z.looseObject({ name: nonEmpty(), arguments: z.string() }),
});

const systemLike = (role: "system" | "developer") =>
  z.looseObject({ role: z.literal(role), content: TextContent, name: z.optional(z.string()) });

const UserMessage = z.looseObject({
  role: z.literal("user"),
  content: z.union([z.string(), z.array(ContentPart)]),
  name: z.optional(z.string()),
});

const AssistantMessage = z
  .looseObject({
    role: z.literal("assistant"),
    content: z.optional(z.union([z.string(), z.array(TextPart), z.null()])),
    tool_calls: z.optional(z.array(ToolCall).check(z.minLength(1))),
    name: z.optional(z.string()),
    reasoning_content: maybe(z.string()),
  })
  .check(
    z.refine((m) => m.tool_calls !== undefined || (m.content !== undefined && m.content !== null), {
      message: "An assistant message needs `content` unless it has `tool_calls`",
      path: ["content"],
    }),
  );

const ToolMessage = z.looseObject({
  role: z.literal("tool"),
  tool_call_id: nonEmpty(),
  content: TextContent,
});

const ChatMessage = z.discriminatedUnion("role", [
  systemLike("system"),
  systemLike("developer"),
  UserMessage,
  AssistantMessage,
  ToolMessage,
]);

const ToolDefinition = z.looseObject({
  type: z.literal("function"),
  function: z.looseObject({
    name: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, "must match ^[A-Za-z0-9_-]{1,64}$")),
    description: z.optional(z.string()),
    parameters: z.optional(z.looseObject({ type: z.literal("object") })),
    strict: maybe(z.boolean()),
  }),
});

const NamedChoice = z.looseObject({ type: z.literal("function"), function: z.looseObject({ name: nonEmpty() }) });
const ToolChoice = z.union([z.enum(["none", "auto", "required"]), NamedChoice]);

const int = () => z.number().check(z.int());

const ChatCompletionRequest = z.looseObject({
  model: nonEmpty(),
  messages: z.array(ChatMessage).check(z.minLength(1)),
  tools: maybe(z.array(ToolDefinition)),
  tool_choice: maybe(ToolChoice),
  stream: maybe(z.boolean()),
  stream_options: maybe(z.looseObject({ include_usage: z.optional(z.boolean()) })),
  // OpenAI's API types this one boolean only, and answered null with 400 (run-llama/llama_index#20814).
  parallel_tool_calls: z.optional(z.boolean()),
  max_tokens: maybe(int()),
  max_completion_tokens: maybe(int()),
  n: maybe(int().check(z.gte(1))),
  seed: maybe(int()),
  temperature: maybe(z.number()),
  top_p: maybe(z.number()),
  stop: maybe(z.union([z.string(), z.array(z.string())])),
});

export type ChatRequest = z.infer<typeof ChatCompletionRequest>;
export type ChatMessageT = z.infer<typeof ChatMessage>;
export type ToolDefinitionT = z.infer<typeof ToolDefinition>;
export type ToolChoiceT = z.infer<typeof ToolChoice>;

export type ParseResult = { ok: true; request: ChatRequest } | { ok: false; error: ApiError };

function isJsonType(contentType: string): boolean {
  const type = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

export interface ParseOptions {
  /** Extra per-message refusals (faults): a message, or null to accept it. */
  rejectMessage?: (message: Record<string, unknown>, index: number) => string | null;
}

/** The rules beyond the schema, in order: the first one broken is the answer. */
const RULES: readonly ((request: ChatRequest) => ApiError | null)[] = [
  (r) =>
    r.stream_options != null && r.stream !== true
      ? errors.invalidRequest("`stream_options` is only allowed when `stream` is true", "stream_options")
      : null,
  (r) => {
    const forced = forcedFunction(r);
    return forced !== undefined && !offeredNames(r).includes(forced)
      ? errors.invalidRequest(`\`tool_choice\` names the function '${forced}', which is not in \`tools\``, "tool_choice")
      : null;
  },
  // The mock streams choice 0 only: more choices asked for would silently come back as one.
  (r) => (r.n != null && r.n !== 1 ? errors.invalidRequest(`\`n\` must be 1: the mock answers one choice, got ${r.n}`, "n") : null),
];

/** Parses and validates a request body. A missing Content-Type is read as JSON. */
export function parseChatRequest(contentType: string | null, body: string, options: ParseOptions = {}): ParseResult {
  if (contentType !== null && !isJsonType(contentType)) return { ok: false, error: errors.unsupportedMediaType(contentType) };
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch (e) {
    return { ok: false, error: errors.invalidJson((e as Error).message) };
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, error: errors.invalidRequest("The request body must be a JSON object", null) };
  }
  const parsed = ChatCompletionRequest.safeParse(raw, ENGLISH);
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    const param = issue.path.map(String).join(".");
    return {
      ok: false,
      error: errors.invalidRequest(`Invalid request: ${param ? `'${param}': ` : ""}${issue.message}`, param || null),
    };
  }
  const request = parsed.data;
  for (const rule of RULES) {
    const error = rule(request);
    if (error) return { ok: false, error };
  }
  if (options.rejectMessage) {
    for (const [i, m] of request.messages.entries()) {
      const why = options.rejectMessage(m as Record<string, unknown>, i);
      if (why) return { ok: false, error: errors.invalidRequest(why, `messages.${i}.content`) };
    }
  }
  return { ok: true, request };
}
