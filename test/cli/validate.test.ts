/**
 * `agentwire validate` reports what a person can act on: each problem once, at its JSON pointer,
 * with the allowed values; a union is explained by the alternative the value meant, never by
 * ajv's per-branch noise ("must match exactly one schema in oneOf"); a mistyped message name
 * gets the closest known one.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { closestName, editDistance } from "../../src/core/schemas/closest-name.js";
import { registry } from "../../src/core/schemas/schema-registry.js";
import { BIN, ROOT, runCli } from "../helpers/cli.js";

const lines = (protocol: string, message: string, value: unknown) =>
  registry.explain(protocol, message, value).map((e) => `${e.pointer || "/"}: ${e.message}`);

const ROLES = '"system", "developer", "user", "assistant", "tool"';

const CASES: [string, string, unknown, string[]][] = [
  ["openai-chat", "chat-message", { role: "wizard", content: "x" }, [`/role: must be one of ${ROLES}`]],
  ["openai-chat", "chat-message", { content: "x" }, [`/role: is required, one of ${ROLES}`]],
  ["openai-chat", "chat-message", { role: "user", content: 3 }, ["/content: must be string or array, not number"]],
  ["openai-chat", "chat-message", { role: "assistant" }, ["/content: is required"]],
  ["openai-chat", "chat-message", { role: "tool", content: "x" }, ["/tool_call_id: is required"]],
  ["openai-chat", "chat-message", { role: "user", content: [{ type: "audio" }] }, ['/content/0/type: must be one of "text", "image_url"']],
  [
    "openai-chat",
    "chat-completion-request",
    { model: "m", messages: [{ role: "user", content: "x" }], tool_choice: "any" },
    ['/tool_choice: must be one of "none", "auto", "required"'],
  ],
  [
    "openai-chat",
    "chat-completion-request",
    { model: 3, messages: [], stream: "yes" },
    ["/model: must be string, not number", "/messages: must NOT have fewer than 1 items", "/stream: must be boolean or null, not string"],
  ],
  ["mcp-chat", "stream-event", { type: "tool_start", name: 3 }, ["/name: must be string, not number", "/id: is required", "/args: is required"]],
  ["mcp-chat", "stream-event", { type: "nope" }, ['/type: must be one of "tool_start", "tool_end", "text"']],
  ["mcp-chat", "stream-event", [], ["/: must be object, not array"]],
  ["mcp-chat", "chat-request", { message: 42 }, ["/message: must be string, not number"]],
  // A union inside a union: the command types of both levels are the allowed values.
  [
    "pi-web",
    "client-message",
    { type: "promt", message: "x" },
    [
      '/type: must be one of "prompt", "abort", "clear_queue", "get_state", "get_messages", "list_sessions", "switch_session", "new_session", "get_context_usage", "extension_ui_response"',
    ],
  ],
  ["pi-web", "client-message", { type: "extension_ui_response", id: "x", value: 3 }, ["/value: must be string, not number"]],
  ["pi-web", "client-message", { type: "extension_ui_response", id: "x" }, ['/: needs one of the properties "value", "confirmed", "cancelled"']],
];

describe("schema problems as a person reads them", () => {
  it.each(CASES)("%s %s %j", (protocol, message, value, expected) => {
    expect(lines(protocol, message, value)).toEqual(expected);
  });

  it("say each problem once, without union noise, where ajv repeats itself", () => {
    const value = { role: "user", content: 3 };
    const raw = registry.validate("openai-chat", "chat-message", value);
    expect(raw.ok).toBe(false);
    const rawLines = raw.ok ? [] : raw.errors.map((e) => `${e.pointer}: ${e.message}`);
    // What the raw errors look like: the reason for this module.
    expect(rawLines.length).toBeGreaterThan(new Set(rawLines).size);
    expect(rawLines.join("\n")).toMatch(/oneOf|anyOf/);
    for (const [protocol, message, v] of CASES) {
      const said = lines(protocol, message, v);
      expect(new Set(said).size).toBe(said.length);
      expect(said.join("\n")).not.toMatch(/oneOf|anyOf|must match (a|exactly one) schema|"then"|equal to constant/);
    }
  });

  it("find nothing in a valid value", () => {
    expect(registry.explain("openai-chat", "chat-message", { role: "user", content: "hi" })).toEqual([]);
    expect(registry.explain("pi-web", "client-message", { type: "extension_ui_response", id: "x", cancelled: true })).toEqual([]);
  });
});

describe("the closest message name", () => {
  it("is the known name nearest in edit distance, when near enough", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    const known = registry.messages("mcp-chat");
    expect(closestName("stream-evnt", known)).toBe("stream-event");
    expect(closestName("Chat-Request", known)).toBe("chat-request");
    expect(closestName("servers", known)).toBe("server");
    expect(closestName("zzzzzzzzzz", known)).toBeUndefined();
  });
});

describe("agentwire validate", () => {
  it("prints each problem once with its pointer and the allowed values, exit 1", async () => {
    const r = await runCli(["validate", "openai-chat", "chat-message", "-"], { input: JSON.stringify({ role: "wizard", content: 3 }) });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`invalid openai-chat chat-message:\n  /role: must be one of ${ROLES}\n`);
  });

  it("input that is not JSON: exit 2 naming standard input, or the file", async () => {
    const r = await runCli(["validate", "mcp-chat", "chat-request"], { input: "not json" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^agentwire: standard input is not JSON: /);
    const f = await runCli(["validate", "mcp-chat", "chat-request", "README.md"]);
    expect(f.code).toBe(2);
    expect(f.stderr).toMatch(/^agentwire: README\.md is not JSON: /);
  });

  it("suggests the closest message name for an unknown one, exit 2", async () => {
    const r = await runCli(["validate", "mcp-chat", "stream-evnt", "-"], { input: "{}" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown message "stream-evnt" for mcp-chat; did you mean "stream-event"\? \(known: chat-request, /);
    const far = await runCli(["schema", "mcp-chat", "qqqqqqqqqqqq"]);
    expect(far.code).toBe(2);
    expect(far.stderr).toMatch(/unknown message "qqqqqqqqqqqq" for mcp-chat \(known: /);
  });
});

/** util-linux `script` gives a command a terminal as its standard input. */
const HAS_SCRIPT = process.platform === "linux" && existsSync("/usr/bin/script");

describe("agentwire validate reading a terminal", () => {
  it.runIf(HAS_SCRIPT)("says it reads standard input and how to end it, then reads it", async () => {
    const child = spawn("/usr/bin/script", ["-qec", `${process.execPath} ${BIN} validate mcp-chat chat-request`, "/dev/null"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    // The hint comes before the read: only then does the terminal get the message and its end (Ctrl-D).
    for (let i = 0; i < 100 && !output.includes("Ctrl-D"); i++) await new Promise((r) => setTimeout(r, 100));
    expect(output).toContain("agentwire: reading the message from standard input; end with Ctrl-D");
    child.stdin.write('{"message":"hi"}\n');
    await new Promise((r) => setTimeout(r, 200));
    child.stdin.write("\x04");
    expect(await exited).toBe(0);
    clearTimeout(timer);
    expect(output).toContain("valid mcp-chat chat-request");
  });

  it("says nothing of it when standard input is a pipe or a file", async () => {
    const r = await runCli(["validate", "mcp-chat", "chat-request"], { input: '{"message":"hi"}' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
  });
});
