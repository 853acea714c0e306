import { describe, expect, it } from "vitest";
import {
  createOpenaiChatEngine,
  OPENAI_CHAT_CATALOGUE_TOOLS,
  OPENAI_CHAT_CATALOGUES,
  OPENAI_CHAT_SCENARIOS,
} from "../../../src/mocks/openai-chat/index.js";
import {
  assemble,
  chunkObjects,
  complete,
  contentText,
  deltas,
  engine,
  finishReasons,
  MODEL,
  SEED_TOOLS,
  stream,
  toolDeltas,
  user,
  type Json,
} from "./helpers.js";

const withScenario = (name: string, extra: Json = {}) => ({
  tools: SEED_TOOLS,
  messages: [user(`!scenario ${name}`)],
  ...extra,
});

const finish = (events: (Json | string)[]) => finishReasons(events).filter((f) => f !== null);

describe("openai-chat catalogues", () => {
  it("seed has the seed's 15 names; continue-2026 and the CLI catalogue as the doc lists them", () => {
    expect(OPENAI_CHAT_CATALOGUE_TOOLS.seed).toEqual([
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
      "fetch_url_content",
      "create_rule_block",
      "request_rule",
      "codebase",
      "run_terminal_command",
    ]);
    const ide = OPENAI_CHAT_CATALOGUE_TOOLS["continue-2026"];
    expect(ide).not.toContain("search_and_replace_in_file");
    for (const t of ["single_find_and_replace", "multi_edit", "read_skill", "read_file_range", "view_repo_map", "view_subdirectory"]) {
      expect(ide).toContain(t);
    }
    expect(OPENAI_CHAT_CATALOGUE_TOOLS["continue-cli-2026"]).toEqual([
      "Read", "Write", "List", "Bash", "Fetch", "Checklist", "CheckBackgroundJob", "AskQuestion", "Search",
      "Edit", "MultiEdit", "Exit", "Skills", "Subagent", "ReportFailure", "UploadArtifact", "Status", "Diff",
    ]);
  });

  it("every entry's example arguments use only its declared properties and cover the required ones", () => {
    for (const c of OPENAI_CHAT_CATALOGUES) {
      for (const t of c.tools) {
        const props = Object.keys(t.parameters.properties ?? {});
        for (const k of Object.keys(t.exampleArgs)) expect(props, `${c.name} ${t.name}`).toContain(k);
        for (const r of t.parameters.required ?? []) expect(t.exampleArgs, `${c.name} ${t.name}`).toHaveProperty(r);
        expect(t.args).toMatch(c.name === "continue-cli-2026" ? /^cli\/[a-z-]+$/ : /^[a-z-]+$/);
      }
    }
    const seed = OPENAI_CHAT_CATALOGUES[0]!;
    expect(seed.tools.filter((t) => t.exclusive).map((t) => t.name)).toEqual(["search_and_replace_in_file"]);
    expect(seed.tools.find((t) => t.name === "request_rule")?.policy).toBe("disabled");
    expect(seed.tools.find((t) => t.name === "ls")?.parameters.required).toBeUndefined();
  });
});

describe("openai-chat scenarios", () => {
  it("lists the doc's scenarios and one tool-* scenario per catalogue tool", () => {
    const names = OPENAI_CHAT_SCENARIOS.map((s) => s.name);
    for (const n of [
      "auto", "tool-then-answer", "text-only", "tool-read-file", "tool-run-terminal-command", "parallel-tools",
      "reasoning", "error-mid-stream", "http-error", "long-stream", "long-tool-args", "length-truncated",
      "length-in-tool-call", "slow", "tool-multi-edit", "tool-cli-multi-edit", "tool-cli-check-background-job",
    ]) {
      expect(names).toContain(n);
    }
    expect(new Set(names).size).toBe(names.length);
    expect(OPENAI_CHAT_SCENARIOS.every((s) => s.description.length > 10)).toBe(true);
  });

  it("every seed tool-* scenario calls its tool with the example arguments, streamed and not", async () => {
    for (const t of OPENAI_CHAT_CATALOGUES[0]!.tools) {
      const name = `tool-${t.name.replace(/_/g, "-")}`;
      const tools = [{ type: "function", function: { name: t.name, parameters: t.parameters } }];
      const s = await stream(engine(), withScenario(name, { tools }));
      expect(assemble(s.events), name).toEqual([{ id: "call_aw000001", name: t.name, arguments: JSON.stringify(t.exampleArgs) }]);
      expect(finish(s.events)).toEqual(["tool_calls"]);
      const body = JSON.parse((await complete(engine(), withScenario(name, { tools }))).text) as Json;
      const choice = (body.choices as Json[])[0] as Json;
      expect((choice.message as Json).tool_calls).toHaveLength(1);
    }
  });

  it("a tool-* scenario whose tool is not offered answers text saying so", async () => {
    const { events } = await stream(engine(), withScenario("tool-ls", { tools: SEED_TOOLS.slice(0, 1) }));
    expect(toolDeltas(events)).toEqual([]);
    expect(contentText(events)).toMatch(/^The scenario tool-ls calls ls, which this request does not offer/);
  });

  it("parallel-tools: index 0 then index 1, each complete before the next", async () => {
    const { events } = await stream(engine(), withScenario("parallel-tools"));
    const indexes = toolDeltas(events).map((t) => t.index);
    expect(indexes).toEqual([...indexes].sort());
    expect(assemble(events).map((c) => c.arguments)).toEqual(['{"filepath":"README.md"}', '{"filepath":"package.json"}']);
  });

  it("error-mid-stream: role, two partial deltas, the error object, then EOF", async () => {
    const { text, events } = await stream(engine(), withScenario("error-mid-stream"));
    expect(deltas(events).map((d) => d.content)).toEqual(["", "Partial ", "answer "]);
    expect(events.at(-1)).toEqual({
      error: { message: "Upstream model failed", type: "server_error", param: null, code: "upstream_error" },
    });
    expect(text).not.toContain("[DONE]");
    expect(finish(events)).toEqual([]);
  });

  it("http-error: 429 with Retry-After: 1; 500/503 when configured", async () => {
    const { res, text } = await complete(engine(), withScenario("http-error", { stream: true }));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    expect((JSON.parse(text) as Json).error).toMatchObject({ type: "requests", code: "rate_limit_exceeded" });
    expect((await complete(engine({ httpError: 503 }), withScenario("http-error"))).res.status).toBe(503);
    expect((await complete(engine({ httpError: 500 }), withScenario("http-error"))).res.status).toBe(500);
  });

  it("long-tool-args: 16 KB of tricky contents in 3-character fragments that join to the object", async () => {
    const { events } = await stream(engine(), withScenario("long-tool-args"));
    const [call] = assemble(events);
    const args = JSON.parse(call?.arguments ?? "") as { filepath: string; contents: string };
    expect(new TextEncoder().encode(args.contents).length).toBeGreaterThanOrEqual(16 * 1024);
    expect(args.contents).toMatch(/"quoted" \\ back\\slash .*東京 🚀/u);
    const frags = toolDeltas(events).slice(1).map((t) => (t.function as Json).arguments as string);
    expect(frags.slice(0, -1).every((f) => [...f].length === 3)).toBe(true);
  });

  it("length-truncated and length-in-tool-call finish with length", async () => {
    const text = await stream(engine(), withScenario("length-truncated"));
    expect(finish(text.events)).toEqual(["length"]);
    const call = await stream(engine(), withScenario("length-in-tool-call"));
    expect(finish(call.events)).toEqual(["length"]);
    expect(() => JSON.parse(assemble(call.events)[0]?.arguments ?? "")).toThrow();
  });

  it("slow: `: ping` comments every keepAliveMs before the first chunk (per-request pacing wins)", async () => {
    const { text } = await complete(
      engine(),
      { stream: true, messages: [user("!scenario slow")] },
      {},
      "/chat/completions?ttftMs=90&keepAliveMs=30",
    );
    expect(text.startsWith(": ping\n: ping\n: ping\ndata: {")).toBe(true);
  });

  it("scenario selection: header and query; the !scenario line wins; follow-ups always get the final answer", async () => {
    const e = engine();
    const viaHeader = await stream(e, { messages: [user("x")] }, { headers: { "content-type": "application/json", "x-agentwire-scenario": "reasoning" } });
    expect(deltas(viaHeader.events).some((d) => "reasoning_content" in d)).toBe(true);
    const viaQuery = await stream(e, { messages: [user("x")] }, {}, "/chat/completions?scenario=length-truncated");
    expect(finish(viaQuery.events)).toEqual(["length"]);
    const followUp = await stream(createOpenaiChatEngine({ ttftMs: 0, chunkDelayMs: 0, scenario: "http-error" }), {
      tools: SEED_TOOLS,
      messages: [
        user("go"),
        { role: "assistant", content: "", tool_calls: [{ id: "a", type: "function", function: { name: "ls", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "a", content: "README.md" },
      ],
    });
    expect(contentText(followUp.events)).toBe("Done. I received 1 tool result(s): a (ls, 9 chars).");
  });

  it("the catalogue option chooses example arguments", async () => {
    const tools = OPENAI_CHAT_CATALOGUES[2]!.tools.map((t) => ({ type: "function", function: { name: t.name, parameters: t.parameters } }));
    const { events } = await stream(engine({ catalogue: "continue-cli-2026" }), { tools, tool_choice: "required" });
    expect(assemble(events)[0]).toMatchObject({ name: "Read", arguments: '{"filepath":"README.md"}' });
  });

  it("a scenario script scripts turns by number or regex, with calls, text, errors", async () => {
    const e = engine({
      script: {
        turns: [
          { match: "^boom", answer: { httpError: { status: 503, message: "down", retryAfter: 2 } } },
          { turn: 1, answer: { reasoning: "hm", calls: [{ name: "ls", arguments: { dirPath: "src" } }, { name: "read_file", arguments: "{bad" }] } },
          { turn: 2, answer: { text: "All done.", finish: "stop" } },
        ],
      },
    });
    const first = await stream(e, { tools: SEED_TOOLS, messages: [user("go")] });
    expect(assemble(first.events).map((c) => [c.name, c.arguments])).toEqual([
      ["ls", '{"dirPath":"src"}'],
      ["read_file", "{bad"],
    ]);
    const second = await stream(e, {
      tools: SEED_TOOLS,
      messages: [
        user("go"),
        { role: "assistant", content: null, tool_calls: [{ id: "x", type: "function", function: { name: "ls", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "x", content: "ok" },
      ],
    });
    expect(contentText(second.events)).toBe("All done.");
    const boom = await complete(e, { messages: [user("boom now")] });
    expect(boom.res.status).toBe(503);
    expect(boom.res.headers.get("retry-after")).toBe("2");
    expect(() => createOpenaiChatEngine({ script: { turns: [{ answer: {} }] } as never })).toThrow(/invalid scenario script/);
  });

  it("chunks of one stream share id, created and model", async () => {
    const { events } = await stream(engine(), withScenario("parallel-tools", { stream_options: { include_usage: true } }));
    const chunks = chunkObjects(events);
    expect(new Set(chunks.map((c) => `${c.id} ${c.created} ${c.model}`))).toEqual(new Set([`chatcmpl-aw000001 1700000000 ${MODEL}`]));
  });
});
