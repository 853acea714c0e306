import { describe, it, expect } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SCHEMAS_DIR, SchemaRegistry, formatSchemaErrors, type ValidationResult } from "../../src/core/schemas/schema-registry.js";
import { expectGeneratedFresh, itPointsAt, itRejectsEveryInvalidFixture, schemaFixtures } from "../helpers/schema-fixtures.js";

const PROTOCOL = "openai-chat";
const { fixtures, load: fixture } = schemaFixtures(PROTOCOL);
const PROTOCOL_SCHEMAS = join(SCHEMAS_DIR, PROTOCOL);
const registry = new SchemaRegistry();
// The tool-argument schemas live in schemas/openai-chat/tools/ and tools/cli/ (the contract's layout), which the
// registry does not descend into; a registry rooted at the protocol folder reads them as "protocols" tools, tools/cli.
const argsRegistry = new SchemaRegistry(PROTOCOL_SCHEMAS);

const PROFILES = ["seed", "openai-compatible", "continue-2026", "continue-cli-2026"];

/**
 * Validates against a message id: a top-level message ("chat-completion") or the path of an arguments schema under
 * schemas/openai-chat/ without ".schema.json" ("tools/read-file.args", "tools/cli/read.args").
 */
function validate(message: string, value: unknown, profile?: string): ValidationResult {
  const slash = message.lastIndexOf("/");
  if (slash < 0) return registry.validate(PROTOCOL, message, value, profile);
  return argsRegistry.validate(message.slice(0, slash), message.slice(slash + 1), value);
}

/** Message ids of the arguments schemas in one folder under schemas/openai-chat/. */
function argsMessages(folder: string): string[] {
  return readdirSync(join(PROTOCOL_SCHEMAS, folder))
    .filter((f) => f.endsWith(".args.schema.json"))
    .map((f) => `${folder}/${f.slice(0, -".schema.json".length)}`)
    .sort();
}

const SEED_TOOLS = [
  "read_file",
  "read_currently_open_file",
  "create_new_file",
  "edit_existing_file",
  "search_and_replace_in_file",
  "grep_search",
  "file_glob_search",
  "search_web",
  "view_diff",
  "ls",
  "create_rule_block",
  "request_rule",
  "fetch_url_content",
  "codebase",
  "run_terminal_command",
];
const kebab = (tool: string): string => tool.replace(/_/g, "-");

describe("openai-chat schemas", () => {
  it("has a schema for every message of the contract", () => {
    // Tool-argument schemas are messages too (`tools/<tool>.args`); this list is the wire messages.
    expect(registry.messages(PROTOCOL).filter((m) => !m.startsWith("tools/"))).toEqual(
      [
        "assistant-message",
        "catalogue",
        "chat-completion",
        "chat-completion-chunk",
        "chat-completion-request",
        "chat-message",
        "chunk-delta",
        "content-part",
        "error-response",
        "model",
        "model-list",
        "response-message",
        "stream-sentinel",
        "system-message",
        "text-part",
        "tool-call",
        "tool-call-delta",
        "tool-choice",
        "tool-definition",
        "tool-message",
        "usage",
        "user-message",
      ].sort(),
    );
  });

  it("has an arguments schema for every tool of the three catalogues", () => {
    const continue2026 = [
      ...SEED_TOOLS.filter((t) => t !== "search_and_replace_in_file"),
      "single_find_and_replace",
      "multi_edit",
      "read_skill",
      "read_file_range",
      "view_repo_map",
      "view_subdirectory",
    ];
    const ide = new Set([...SEED_TOOLS, ...continue2026].map((t) => `tools/${kebab(t)}.args`));
    expect(argsMessages("tools")).toEqual([...ide].sort());
    const cli = ["Read", "Write", "List", "Bash", "Fetch", "Checklist", "CheckBackgroundJob", "AskQuestion", "Search"]
      .concat(["Edit", "MultiEdit", "Exit", "Skills", "Subagent", "ReportFailure", "UploadArtifact", "Status", "Diff"])
      .map((t) => `tools/cli/${t.replace(/(?<=[a-z])(?=[A-Z])/g, "-").toLowerCase()}.args`);
    expect(argsMessages("tools/cli")).toEqual(cli.sort());
  });

  it("arguments schemas are closed objects with their own $id and title", () => {
    for (const message of [...argsMessages("tools"), ...argsMessages("tools/cli")]) {
      const schema = JSON.parse(readFileSync(join(PROTOCOL_SCHEMAS, `${message}.schema.json`), "utf8")) as {
        $id: string;
        title: string;
        type: string;
        additionalProperties: unknown;
      };
      expect(schema.$id, message).toBe(`https://agentwire.dev/schemas/${PROTOCOL}/${message}.schema.json`);
      expect(schema.title, message).toMatch(/^(Cli)?[A-Z][A-Za-z]*Args$/);
      expect(schema.type, message).toBe("object");
      expect(schema.additionalProperties, message).toBe(false);
      // A parameterless tool accepts exactly {}.
      expect(validate(message, {}).ok || "required" in schema, message).toBe(true);
    }
  });

  it("every message and every arguments schema has at least one valid fixture", () => {
    const covered = new Set(fixtures("valid").map(([message]) => message));
    for (const message of [...registry.messages(PROTOCOL), ...argsMessages("tools"), ...argsMessages("tools/cli")]) {
      expect(covered.has(message), message).toBe(true);
    }
  });

  describe("valid fixtures (seed examples and the contract's valid examples)", () => {
    it.each(fixtures("valid"))("%s/%s", (message, _name, value) => {
      const r = validate(message, value);
      expect(r.ok, r.ok ? "" : formatSchemaErrors(r.errors)).toBe(true);
    });
  });

  describe("seed tool calls carry arguments valid for their tool", () => {
    it.each(fixtures("valid").filter(([m]) => m === "tool-call"))("tool-call/%s", (_message, _name, value) => {
      const call = value as { function: { name: string; arguments: string } };
      expect(SEED_TOOLS).toContain(call.function.name);
      const r = validate(`tools/${kebab(call.function.name)}.args`, JSON.parse(call.function.arguments));
      expect(r.ok, r.ok ? "" : formatSchemaErrors(r.errors)).toBe(true);
    });

    it("the seed §1 ls definition contradicts §4.10 (required path), so its arguments fail the catalogue's schema", () => {
      const ls = fixture("valid", "tool-definition", "seed-s1-ls") as { function: { parameters: { required: string[] } } };
      expect(ls.function.parameters.required).toEqual(["path"]);
      expect(validate("tools/ls.args", { path: "." }).ok).toBe(false);
      expect(validate("tools/ls.args", {}).ok).toBe(true);
    });
  });

  describe("invalid fixtures are rejected with JSON pointers", () => {
    itRejectsEveryInvalidFixture(fixtures("invalid"), validate);

    // Representative cases: the error points at the offending field.
    const expected: [string, string, string][] = [
      ["chat-completion-request", "missing-model", "/model"],
      ["chat-completion-request", "messages-empty", "/messages"],
      ["chat-completion-request", "stream-string", "/stream"],
      ["chat-completion-request", "include-usage-string", "/stream_options/include_usage"],
      ["chat-completion-request", "tool-choice-any", "/tool_choice"],
      ["chat-completion-request", "tool-choice-without-name", "/tool_choice/function"],
      ["chat-completion-request", "parallel-tool-calls-null", "/parallel_tool_calls"],
      ["chat-completion-request", "role-wizard", "/messages/0/role"],
      ["chat-completion-request", "user-content-null", "/messages/0/content"],
      ["chat-completion-request", "assistant-without-content-or-tool-calls", "/messages/1/content"],
      ["chat-completion-request", "assistant-tool-calls-empty", "/messages/1/tool_calls"],
      ["assistant-message", "content-null-without-tool-calls", "/content"],
      ["tool-message", "missing-tool-call-id", "/tool_call_id"],
      ["tool-message", "tool-call-id-empty", "/tool_call_id"],
      ["tool-call", "arguments-object", "/function/arguments"],
      ["tool-call", "missing-id", "/id"],
      ["tool-call", "type-tool", "/type"],
      ["tool-definition", "missing-function", "/function"],
      ["tool-definition", "name-with-space", "/function/name"],
      ["tool-definition", "name-65-characters", "/function/name"],
      ["tool-definition", "parameters-array", "/function/parameters/type"],
      ["chat-completion", "choices-null", "/choices"],
      ["chat-completion", "finish-reason-end-turn", "/choices/0/finish_reason"],
      ["chat-completion", "message-role-user", "/choices/0/message/role"],
      ["chat-completion-chunk", "object-chat-completion", "/object"],
      ["chat-completion-chunk", "choices-null", "/choices"],
      ["chat-completion-chunk", "tool-call-without-index", "/choices/0/delta/tool_calls/0/index"],
      ["chat-completion-chunk", "tool-call-index-string", "/choices/0/delta/tool_calls/0/index"],
      ["chat-completion-chunk", "tool-call-without-function", "/choices/0/delta/tool_calls/0/function"],
      ["chat-completion-chunk", "tool-call-arguments-object", "/choices/0/delta/tool_calls/0/function/arguments"],
      ["chat-completion-chunk", "delta-role-empty", "/choices/0/delta/role"],
      ["chat-completion-chunk", "finish-reason-eos", "/choices/0/finish_reason"],
      ["chat-completion-chunk", "usage-prompt-tokens-string", "/usage/prompt_tokens"],
      ["chunk-delta", "content-array", "/content"],
      ["chunk-delta", "tool-calls-empty", "/tool_calls"],
      ["error-response", "error-string", "/error"],
      ["error-response", "vllm-object-error", "/error"],
      ["error-response", "fastapi-detail", "/error"],
      ["error-response", "error-without-message", "/error/message"],
      ["model-list", "bare-array", ""],
      ["model-list", "model-without-id", "/data/0/id"],
      ["stream-sentinel", "done-lowercase", ""],
      ["catalogue", "policy-unknown", "/tools/0/policy"],
      ["tools/read-file.args", "empty-object", "/filepath"],
      ["tools/read-file.args", "filepath-number", "/filepath"],
      ["tools/read-file.args", "path-instead-of-filepath", "/filepath"],
      ["tools/read-file.args", "extra-key", ""],
      ["tools/search-and-replace-in-file.args", "diffs-string", "/diffs"],
      ["tools/search-and-replace-in-file.args", "diffs-empty", "/diffs"],
      ["tools/run-terminal-command.args", "wait-for-completion-string", "/waitForCompletion"],
      ["tools/ls.args", "dir-path-number", "/dirPath"],
      ["tools/create-rule-block.args", "globs-array", "/globs"],
      ["tools/view-diff.args", "unknown-key", ""],
      ["tools/cli/list.args", "dirpath-missing", "/dirpath"],
      ["tools/cli/bash.args", "timeout-over-600", "/timeout"],
    ];
    itPointsAt(expected, fixture, validate);

    it("unknown keys in arguments are additionalProperties errors (the no-unknown-keys check filters on them)", () => {
      const r = validate("tools/read-file.args", fixture("invalid", "tools/read-file.args", "extra-key"));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.errors.map((e) => e.keyword)).toEqual(["additionalProperties"]);
    });
  });

  describe("profile openai-compatible (overlay of error-response)", () => {
    it.each(fixtures("valid-openai-compatible"))("%s/%s passes only under openai-compatible", (message, _name, value) => {
      const r = validate(message, value, "openai-compatible");
      expect(r.ok, r.ok ? "" : formatSchemaErrors(r.errors)).toBe(true);
      expect(validate(message, value).ok).toBe(false);
    });

    it("still rejects error bodies without error.message", () => {
      for (const [message, name, value] of fixtures("invalid").filter(([m]) => m === "error-response")) {
        expect(validate(message, value, "openai-compatible").ok, `${message}/${name}`).toBe(false);
      }
    });
  });

  describe.each(PROFILES)("profile %s", (profile) => {
    it("accepts every valid fixture", () => {
      for (const [message, name, value] of fixtures("valid")) {
        expect(validate(message, value, profile).ok, `${message}/${name}`).toBe(true);
      }
    });

    it("rejects every invalid fixture", () => {
      for (const [message, name, value] of fixtures("invalid")) {
        expect(validate(message, value, profile).ok, `${message}/${name}`).toBe(false);
      }
    });
  });

  it("generated types are up to date", async () => {
    await expectGeneratedFresh(PROTOCOL);
  });
});

describe("openai-chat tool-argument schemas through the shared registry", () => {
  it("are reachable as `tools/<tool>.args` messages, as `agentwire validate` uses them", () => {
    const names = registry.messages("openai-chat").filter((m) => m.startsWith("tools/"));
    expect(names).toContain("tools/read-file.args");
    expect(names).toContain("tools/cli/bash.args");
    const bad = registry.validate("openai-chat", "tools/read-file.args", {});
    expect(bad.ok).toBe(false);
  });
});
