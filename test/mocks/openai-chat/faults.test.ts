import { describe, expect, it } from "vitest";
import { createOpenaiChatEngine, OPENAI_CHAT_FAULTS } from "../../../src/mocks/openai-chat/index.js";
import {
  assemble,
  canonicalPayloads,
  chunkObjects,
  complete,
  concat,
  contentText,
  deltas,
  engine,
  finishReasons,
  forcedRead,
  MODEL,
  readChunks,
  req,
  SEED_TOOLS,
  stream,
  textStream,
  toolDeltas,
  user,
  utf8,
  type Engine,
  type Json,
} from "./helpers.js";

/** The doc's fault table (§7): name → check ids (short form) it must trip. */
const TABLE: Record<string, string[]> = {
  "auth-missing-accepted": ["auth/rejects-unauthenticated"],
  "auth-invalid-accepted": ["auth/rejects-unauthenticated"],
  "models-bare-array": ["models/list-shape"],
  "sse-wrong-content-type": ["sse/content-type"],
  "keepalive-as-data": ["sse/data-json"],
  "sse-no-space": ["sse/canonical-framing"],
  "sse-crlf": ["sse/canonical-framing"],
  "sse-event-field": ["sse/canonical-framing"],
  "sse-invalid-utf8": ["sse/utf8"],
  "no-done": ["done/present"],
  "events-after-done": ["done/last-event"],
  "hold-open-after-done": ["done/connection-closes"],
  "chunk-id-per-chunk": ["envelope/fields"],
  "chunk-wrong-object": ["envelope/fields"],
  "usage-choices-null": ["chunk/choices-array"],
  "usage-choices-missing": ["chunk/choices-array"],
  "choice-index-missing": ["chunk/choice-index"],
  "content-not-string": ["delta/shape"],
  "tool-function-missing": ["delta/shape"],
  "missing-role": ["delta/role-first"],
  "role-empty-string": ["delta/role-first"],
  "empty-tool-calls-array": ["delta/no-empty-tool-calls"],
  "content-with-tool-call": ["delta/content-with-tool-calls"],
  "tool-index-missing": ["tool-call/index-integer"],
  "tool-index-string": ["tool-call/index-integer"],
  "tool-id-missing": ["tool-call/first-delta-complete"],
  "tool-type-missing": ["tool-call/first-delta-complete"],
  "tool-name-late": ["tool-call/first-delta-complete"],
  "tool-id-changes": ["tool-call/id-stable"],
  "tool-id-repeated": ["tool-call/identity-once"],
  "tool-name-repeated": ["tool-call/identity-once"],
  "tool-name-empty-later": ["tool-call/identity-once"],
  "tool-ids-duplicate": ["tool-call/ids-unique"],
  "arguments-object": ["tool-call/arguments-string"],
  "arguments-cumulative": ["tool-call/arguments-join-to-object"],
  "arguments-repeated-at-end": ["tool-call/arguments-join-to-object"],
  "arguments-placeholder-first": ["tool-call/arguments-join-to-object"],
  "arguments-wrong-type": ["tool-call/arguments-valid-for-tool"],
  "arguments-missing-required": ["tool-call/arguments-valid-for-tool"],
  "arguments-extra-key": ["tool-call/arguments-no-unknown-keys"],
  "no-arg-empty-string": ["tool-call/no-arg-empty-object"],
  "tool-name-unknown": ["tool-call/name-in-request-tools"],
  "tool-name-doubled": ["tool-call/name-in-request-tools"],
  "parallel-same-index": ["tool-call/parallel-distinct-indexes"],
  "parallel-interleaved": ["tool-call/parallel-sequential"],
  "ignore-parallel-false": ["tool-call/parallel-false-honoured"],
  "parallel-with-exclusive": ["tool-call/exclusive-not-parallel"],
  "ignore-tool-choice": ["tool-call/honours-tool-choice"],
  "stream-drops-tool-calls": ["tool-call/streaming-parity", "tool-call/honours-tool-choice"],
  "missing-finish-reason": ["finish/exactly-once"],
  "finish-reason-nonstandard": ["finish/exactly-once"],
  "finish-reason-twice": ["finish/exactly-once"],
  "stop-instead-of-tool-calls": ["finish/matches-tool-calls"],
  "tool-calls-reason-on-text": ["finish/matches-tool-calls"],
  "args-after-finish": ["finish/nothing-after-finish"],
  "usage-every-chunk": ["usage/only-final-chunk"],
  "usage-chunk-missing": ["usage/matches-request"],
  "usage-unrequested": ["usage/matches-request"],
  "error-string": ["errors/shape"],
  "error-as-200-stream": ["errors/pre-stream-status"],
  "stream-error-vllm-object": ["errors/in-stream-shape"],
  "stream-error-then-content": ["errors/in-stream-shape"],
  "accepts-bad-input": ["errors/bad-input-400"],
  "bad-input-500": ["errors/bad-input-400"],
  "bad-input-422-detail": ["errors/bad-input-400", "errors/shape"],
  "sync-wrong-content-type": ["sync/response-shape"],
  "sync-role-missing": ["sync/response-shape"],
  "reject-null-assistant-content": ["turn/follow-up-accepted"],
  "follow-up-empty-answer": ["turn/follow-up-final-answer"],
  "reject-space-content": ["request/continue-shape-accepted"],
  "stream-needs-accept": ["request/continue-shape-accepted"],
  "buffered-stream": ["timing/streams-incrementally"],
  "stream-reset": ["request/not-reset"],
};

const faulty = (fault: string, extra = {}) => engine({ faults: [fault], ...extra });

/** The same request against the canonical mock and against one fault. */
async function both(fault: string, body: Json, init: RequestInit = {}, path?: string) {
  const good = await complete(engine(), body, init, path);
  const bad = await complete(faulty(fault), body, init, path);
  return { good, bad };
}

const parallel = {
  tools: SEED_TOOLS,
  tool_choice: "required",
  parallel_tool_calls: true,
  messages: [user('call read_file {"filepath":"README.md"}\ncall read_file {"filepath":"package.json"}')],
};
const required = { tools: SEED_TOOLS, tool_choice: "required", parallel_tool_calls: false, messages: [user('call ls {"dirPath":"."}')] };
const noArg = { tools: SEED_TOOLS, tool_choice: { type: "function", function: { name: "view_diff" } }, messages: [user("call view_diff {}")] };
const ndjsonLess = (text: string) => canonicalPayloads(text).map((p) => (p === "[DONE]" ? p : (JSON.parse(p) as Json)));
const finish = (events: (Json | string)[]) => finishReasons(events).filter((f) => f !== null);

describe("openai-chat faults", () => {
  it("every fault of the doc, with exactly its check ids (full form)", () => {
    expect(OPENAI_CHAT_FAULTS).toHaveLength(73);
    expect(OPENAI_CHAT_FAULTS.map((f) => f.name)).toEqual(Object.keys(TABLE));
    expect(Object.fromEntries(OPENAI_CHAT_FAULTS.map((f) => [f.name, f.violates]))).toEqual(
      Object.fromEntries(Object.entries(TABLE).map(([n, ids]) => [n, ids.map((id) => `openai-chat/${id}`)])),
    );
    for (const f of OPENAI_CHAT_FAULTS) expect(Object.keys(f).sort()).toEqual(["description", "name", "violates"]);
  });

  it("every fault serves the suite's requests without crashing", async () => {
    const requests: Json[] = [
      textStream,
      { ...forcedRead, stream: true, stream_options: { include_usage: true } },
      forcedRead,
      { ...parallel, stream: true, stream_options: { include_usage: true } },
      { ...noArg, stream: true },
    ];
    for (const f of OPENAI_CHAT_FAULTS) {
      if (f.name === "hold-open-after-done" || f.name === "stream-reset") continue;
      const e = createOpenaiChatEngine({ ttftMs: 0, chunkDelayMs: 0, faults: [f.name] });
      for (const body of requests) {
        const r = await complete(e, body);
        expect(r.res.status, `${f.name}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
      }
    }
  });

  it("stream-reset breaks the body off after two writes", async () => {
    const e = createOpenaiChatEngine({ ttftMs: 0, chunkDelayMs: 0, faults: ["stream-reset"] });
    const res = await e.handle(req("/chat/completions", { method: "POST", json: { model: MODEL, messages: [user("hi")], stream: true } }));
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    expect((await reader.read()).done).toBe(false);
    await expect(reader.read()).rejects.toThrow(/connection is dropped/);
  });

  it("a `!fault` line, the X-Agentwire-Fault header or ?fault= adds a fault to one response", async () => {
    const viaLine = await complete(engine(), { stream: true, messages: [user("hi\n!fault no-done")] });
    expect(viaLine.text).not.toContain("[DONE]");
    const viaHeader = await complete(engine(), { stream: true }, { headers: { "content-type": "application/json", "x-agentwire-fault": "no-done" } });
    expect(viaHeader.text).not.toContain("[DONE]");
    const viaQuery = await complete(engine(), { stream: true }, undefined, "/chat/completions?fault=no-done,sse-crlf");
    expect(viaQuery.text).not.toContain("[DONE]");
    expect(viaQuery.text).toContain("\r\n\r\n");
    expect((await complete(engine(), { stream: true })).text).toContain("data: [DONE]\n\n");
  });
});

describe("openai-chat faults: SSE and termination", () => {
  it("sse-no-space, sse-crlf, sse-event-field change only the framing", async () => {
    const noSpace = await both("sse-no-space", textStream);
    expect(noSpace.bad.text).toBe(noSpace.good.text.replace(/^data: /gm, "data:"));
    const crlf = await both("sse-crlf", textStream);
    expect(crlf.bad.text).toBe(crlf.good.text.replace(/\n/g, "\r\n"));
    const field = await both("sse-event-field", textStream);
    expect(field.bad.text).toBe(field.good.text.replace(/^data: /gm, "event: message\ndata: "));
  });

  it("keepalive-as-data sends `data: : OPENROUTER PROCESSING` first, then the same stream", async () => {
    const { good, bad } = await both("keepalive-as-data", textStream);
    expect(bad.text).toBe("data: : OPENROUTER PROCESSING\n\n" + good.text);
  });

  it("sse-invalid-utf8 inserts one 0xFF into the first content delta", async () => {
    const { good, bad } = await both("sse-invalid-utf8", textStream);
    const bytes = concat(bad.chunks);
    const at = bytes.indexOf(0xff);
    expect(at).toBeGreaterThan(0);
    expect(bytes.lastIndexOf(0xff)).toBe(at);
    expect(utf8(concat([bytes.slice(0, at), bytes.slice(at + 1)]))).toBe(good.text);
  });

  it("no-done, events-after-done: the sentinel dropped, or a chunk after it", async () => {
    const { good, bad } = await both("no-done", textStream);
    expect(bad.text + "data: [DONE]\n\n").toBe(good.text);
    const after = await both("events-after-done", textStream);
    const events = ndjsonLess(after.bad.text);
    expect(events.slice(0, -1)).toEqual(ndjsonLess(after.good.text));
    expect(deltas(events.slice(-1))).toEqual([{ content: " Anything else?" }]);
  });

  it("hold-open-after-done keeps the body open after [DONE]", async () => {
    const res = await faulty("hold-open-after-done").handle(req("/chat/completions", { method: "POST", json: { model: MODEL, messages: [user("hi")], stream: true } }));
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!text.includes("[DONE]")) text += new TextDecoder().decode((await reader.read()).value);
    const next = await Promise.race([reader.read().then(() => "closed"), new Promise((r) => setTimeout(() => r("open"), 300))]);
    expect(next).toBe("open");
    await reader.cancel();
  });

  it("buffered-stream writes everything at once", async () => {
    const { good, bad } = await both("buffered-stream", textStream);
    expect(good.chunks.length).toBeGreaterThan(5);
    expect(bad.chunks).toHaveLength(1);
    expect(bad.text).toBe(good.text);
  });

  it("sse-wrong-content-type streams as application/json", async () => {
    const { good, bad } = await both("sse-wrong-content-type", textStream);
    expect(bad.res.headers.get("content-type")).toBe("application/json");
    expect(bad.text).toBe(good.text);
  });
});

describe("openai-chat faults: envelope, chunks, deltas", () => {
  it("chunk-id-per-chunk: a new id per chunk, nothing else changes", async () => {
    const { good, bad } = await both("chunk-id-per-chunk", textStream);
    const ids = chunkObjects(ndjsonLess(bad.text)).map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    const strip = (t: string) => chunkObjects(ndjsonLess(t)).map(({ id: _id, ...rest }) => rest);
    expect(strip(bad.text)).toEqual(strip(good.text));
  });

  it("chunk-wrong-object, usage-choices-null, usage-choices-missing, choice-index-missing", async () => {
    const wrong = chunkObjects(ndjsonLess((await complete(faulty("chunk-wrong-object"), textStream)).text));
    expect(new Set(wrong.map((c) => c.object))).toEqual(new Set(["chat.completion"]));
    const usageNull = chunkObjects(ndjsonLess((await complete(faulty("usage-choices-null"), textStream)).text));
    expect(usageNull.at(-1)).toMatchObject({ choices: null, usage: { total_tokens: expect.any(Number) } });
    expect(usageNull.slice(0, -1).every((c) => Array.isArray(c.choices))).toBe(true);
    const usageMissing = chunkObjects(ndjsonLess((await complete(faulty("usage-choices-missing"), textStream)).text));
    expect("choices" in (usageMissing.at(-1) as Json)).toBe(false);
    const noIndex = chunkObjects(ndjsonLess((await complete(faulty("choice-index-missing"), textStream)).text));
    expect(noIndex.slice(0, -1).every((c) => !("index" in ((c.choices as Json[])[0] as Json)))).toBe(true);
  });

  it("content-not-string, missing-role, role-empty-string, empty-tool-calls-array", async () => {
    const arr = deltas(ndjsonLess((await complete(faulty("content-not-string"), textStream)).text));
    expect(arr[0]).toEqual({ role: "assistant", content: "" });
    expect(arr[1]?.content).toEqual(["Hello fr"]);
    const noRole = deltas(ndjsonLess((await complete(faulty("missing-role"), textStream)).text));
    expect(noRole.some((d) => "role" in d)).toBe(false);
    const emptyRole = deltas(ndjsonLess((await complete(faulty("role-empty-string"), { ...forcedRead, stream: true })).text));
    expect(emptyRole[0]?.role).toBe("");
    const empty = deltas(ndjsonLess((await complete(faulty("empty-tool-calls-array"), textStream)).text));
    expect(empty.filter((d) => typeof d.content === "string" && d.content !== "").every((d) => Array.isArray(d.tool_calls) && d.tool_calls.length === 0)).toBe(true);
    expect(empty[0]).toEqual({ role: "assistant", content: "" });
  });

  it("content-with-tool-call and tool-function-missing", async () => {
    const mixed = deltas((await stream(faulty("content-with-tool-call"), forcedRead)).events);
    expect(mixed[0]).toMatchObject({ content: "Let me read it.", tool_calls: [{ index: 0, id: "call_aw000001" }] });
    const { good, bad } = await both("tool-function-missing", { ...forcedRead, stream: true });
    const badTools = toolDeltas(ndjsonLess(bad.text));
    expect(badTools[1]).toEqual({ index: 0 });
    expect([badTools[0], ...badTools.slice(2)]).toEqual(toolDeltas(ndjsonLess(good.text)));
  });
});

describe("openai-chat faults: tool calls", () => {
  const forcedStream = { ...forcedRead, stream: true };

  it("index and identity faults rewrite only their field", async () => {
    const good = toolDeltas((await stream(engine(), forcedRead)).events);
    const of = async (fault: string) => toolDeltas((await stream(faulty(fault), forcedRead)).events);
    expect(await of("tool-index-missing")).toEqual(good.map(({ index: _i, ...rest }) => rest));
    expect(await of("tool-index-string")).toEqual(good.map((t) => ({ ...t, index: "0" })));
    expect(await of("tool-id-missing")).toEqual(good.map(({ id: _i, ...rest }) => rest));
    expect(await of("tool-type-missing")).toEqual(good.map(({ type: _t, ...rest }) => rest));
    const repeated = await of("tool-id-repeated");
    expect(repeated.every((t) => t.id === "call_aw000001")).toBe(true);
    const names = await of("tool-name-repeated");
    expect(names.every((t) => (t.function as Json).name === "read_file")).toBe(true);
    const empty = await of("tool-name-empty-later");
    expect(empty.slice(1).every((t) => (t.function as Json).name === "")).toBe(true);
    const changing = await of("tool-id-changes");
    const ids = changing.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toBe("call_aw000001");
  });

  it("tool-name-late: the first delta has no name, the second carries it", async () => {
    const late = toolDeltas((await stream(faulty("tool-name-late"), forcedRead)).events);
    expect(late[0]).toEqual({ index: 0, id: "call_aw000001", type: "function", function: { arguments: "" } });
    expect(late[1]).toEqual({ index: 0, function: { name: "read_file", arguments: '{"filepa' } });
    const whole = toolDeltas((await stream(faulty("tool-name-late", { argFragment: 0 }), forcedRead)).events);
    expect(whole).toHaveLength(2);
    expect((whole[1]?.function as Json).name).toBe("read_file");
  });

  it("argument faults: object, cumulative, repeated at end, placeholder first", async () => {
    const obj = toolDeltas((await stream(faulty("arguments-object"), forcedRead)).events);
    expect(obj).toEqual([{ index: 0, id: "call_aw000001", type: "function", function: { name: "read_file", arguments: { filepath: "README.md" } } }]);
    const sync = JSON.parse((await complete(faulty("arguments-object"), forcedRead)).text) as Json;
    expect(((((sync.choices as Json[])[0] as Json).message as Json).tool_calls as Json[])[0]).toMatchObject({
      function: { arguments: { filepath: "README.md" } },
    });
    const cumulative = toolDeltas((await stream(faulty("arguments-cumulative"), forcedRead)).events).map((t) => (t.function as Json).arguments);
    expect(cumulative).toEqual(["", '{"filepa', '{"filepath":"REA', '{"filepath":"README.md"}']);
    const atEnd = (await stream(faulty("arguments-repeated-at-end"), forcedRead)).events;
    const last = deltas(atEnd).at(-1) as Json;
    expect(last).toEqual({ tool_calls: [{ index: 0, function: { arguments: '{"filepath":"README.md"}' } }] });
    expect(finish(atEnd)).toEqual(["tool_calls"]);
    const placeholder = toolDeltas((await stream(faulty("arguments-placeholder-first"), forcedRead)).events);
    expect((placeholder[0]?.function as Json).arguments).toBe("{}");
    expect(assemble((await stream(faulty("arguments-placeholder-first"), forcedRead)).events)[0]?.arguments).toBe('{}{"filepath":"README.md"}');
  });

  it("answer-level argument faults change the call, streamed and not", async () => {
    const args = async (fault: string, body: Json = forcedRead) => assemble((await stream(faulty(fault), body)).events)[0]?.arguments;
    expect(await args("arguments-wrong-type")).toBe('{"filepath":42}');
    expect(await args("arguments-missing-required")).toBe("{}");
    expect(await args("arguments-extra-key")).toBe('{"filepath":"README.md","encoding":"utf-8"}');
    expect(await args("no-arg-empty-string", noArg)).toBe("");
    expect(await args("no-arg-empty-string")).toBe('{"filepath":"README.md"}');
    const sync = JSON.parse((await complete(faulty("arguments-missing-required"), forcedRead)).text) as Json;
    expect(JSON.stringify(sync)).toContain('"arguments":"{}"');
  });

  it("tool-name-unknown / tool-name-doubled act only where no function is forced", async () => {
    expect(assemble((await stream(faulty("tool-name-unknown"), required)).events)[0]?.name).toBe("delete_everything");
    expect(assemble((await stream(faulty("tool-name-doubled"), required)).events)[0]?.name).toBe("lsls");
    expect(assemble((await stream(faulty("tool-name-unknown"), forcedRead)).events)[0]?.name).toBe("read_file");
  });

  it("parallel faults: same index, interleaved, duplicate ids, exclusive second call, ignored parallel false", async () => {
    const same = toolDeltas((await stream(faulty("parallel-same-index"), parallel)).events);
    expect(new Set(same.map((t) => t.index))).toEqual(new Set([0]));
    expect(new Set(same.filter((t) => t.id).map((t) => t.id)).size).toBe(2);
    const inter = toolDeltas((await stream(faulty("parallel-interleaved"), parallel)).events).map((t) => t.index);
    expect(inter.slice(0, 4)).toEqual([0, 1, 0, 1]);
    expect(assemble((await stream(faulty("parallel-interleaved"), parallel)).events).map((c) => c.arguments)).toEqual([
      '{"filepath":"README.md"}',
      '{"filepath":"package.json"}',
    ]);
    const dup = assemble((await stream(faulty("tool-ids-duplicate"), parallel)).events);
    expect(dup.map((c) => c.id)).toEqual(["call_aw000001", "call_aw000001"]);
    const excl = assemble((await stream(faulty("parallel-with-exclusive"), parallel)).events);
    expect(excl.map((c) => c.name)).toEqual(["read_file", "search_and_replace_in_file"]);
    const twice = assemble((await stream(faulty("ignore-parallel-false"), forcedRead)).events);
    expect(twice.map((c) => [c.id, c.name])).toEqual([
      ["call_aw000001", "read_file"],
      ["call_aw000002", "read_file"],
    ]);
    expect(assemble((await stream(faulty("ignore-parallel-false"), parallel)).events)).toHaveLength(2);
  });

  it("ignore-tool-choice and stream-drops-tool-calls answer text instead of calls", async () => {
    for (const body of [forcedRead, required]) {
      const { events } = await stream(faulty("ignore-tool-choice"), body);
      expect(toolDeltas(events)).toEqual([]);
      expect(finish(events)).toEqual(["stop"]);
    }
    const dropped = await stream(faulty("stream-drops-tool-calls"), forcedRead);
    expect(toolDeltas(dropped.events)).toEqual([]);
    const sync = JSON.parse((await complete(faulty("stream-drops-tool-calls"), forcedRead)).text) as Json;
    expect((((sync.choices as Json[])[0] as Json).message as Json).tool_calls).toHaveLength(1);
  });

  it("args-after-finish moves the last fragment behind the finish chunk", async () => {
    const d = deltas((await stream(faulty("args-after-finish"), forcedRead)).events);
    const reasons = finishReasons((await stream(faulty("args-after-finish"), forcedRead)).events);
    expect(reasons.at(-2)).toBe("tool_calls");
    expect(d.at(-1)).toEqual({ tool_calls: [{ index: 0, function: { arguments: 'DME.md"}' } }] });
  });
});

describe("openai-chat faults: finish, usage, errors", () => {
  it("finish faults", async () => {
    expect(finishReasons((await stream(faulty("missing-finish-reason"), textStream)).events).every((f) => f === null)).toBe(true);
    expect(finish((await stream(faulty("finish-reason-nonstandard"), textStream)).events)).toEqual(["end_turn"]);
    expect(finish((await stream(faulty("finish-reason-nonstandard"), forcedRead)).events)).toEqual(["tool_calls"]);
    expect(finish((await stream(faulty("finish-reason-twice"), textStream)).events)).toEqual(["stop", "stop"]);
    expect(finish((await stream(faulty("stop-instead-of-tool-calls"), forcedRead)).events)).toEqual(["stop"]);
    expect(finish((await stream(faulty("tool-calls-reason-on-text"), textStream)).events)).toEqual(["tool_calls"]);
  });

  it("usage faults", async () => {
    const every = chunkObjects((await stream(faulty("usage-every-chunk"), textStream)).events);
    expect(every.every((c) => c.usage !== null && typeof c.usage === "object")).toBe(true);
    const counts = every.map((c) => (c.usage as Json).completion_tokens as number);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const missing = chunkObjects((await stream(faulty("usage-chunk-missing"), textStream)).events);
    expect(missing.every((c) => c.usage === null)).toBe(true);
    const unrequested = chunkObjects((await stream(faulty("usage-unrequested"), { messages: [user("hi")] })).events);
    expect(unrequested.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 1 } });
    expect(unrequested.slice(0, -1).every((c) => !("usage" in c))).toBe(true);
  });

  it("error body faults: error-string, bad-input-500, bad-input-422-detail, error-as-200-stream", async () => {
    const post = (e: Engine, body: string) =>
      e.handle(req("/chat/completions", { method: "POST", body, headers: { "content-type": "application/json" } }));
    const s = await post(faulty("error-string"), "{}");
    expect(s.status).toBe(400);
    expect(typeof ((await s.json()) as Json).error).toBe("string");
    const five = await post(faulty("bad-input-500"), "{nope");
    expect(five.status).toBe(500);
    expect(((await five.json()) as Json).error).toMatchObject({ message: expect.any(String), type: "server_error" });
    expect((await post(faulty("bad-input-500"), "{}")).status).toBe(400);
    const detail = await post(faulty("bad-input-422-detail"), JSON.stringify({ model: MODEL }));
    expect(detail.status).toBe(422);
    expect(((await detail.json()) as Json).detail).toEqual([{ type: "value_error", loc: ["body", "messages"], msg: expect.any(String) }]);
    const asStream = await complete(faulty("error-as-200-stream"), { model: "agentwire-no-such-model", stream: true });
    expect(asStream.res.status).toBe(200);
    expect(ndjsonLess(asStream.text)[0]).toMatchObject({ error: { code: "model_not_found" } });
    expect((await complete(faulty("error-as-200-stream"), { model: "agentwire-no-such-model" })).res.status).toBe(404);
  });

  it("in-stream error faults replace the finish chunk of text streams", async () => {
    const vllm = ndjsonLess((await complete(faulty("stream-error-vllm-object"), textStream)).text);
    expect(vllm.at(-2)).toMatchObject({ object: "error", message: expect.any(String) });
    expect(finish(vllm)).toEqual([]);
    const then = ndjsonLess((await complete(faulty("stream-error-then-content"), textStream)).text);
    const at = then.findIndex((e) => typeof e === "object" && "error" in e);
    expect(then[at]).toMatchObject({ error: { message: expect.any(String), type: "server_error" } });
    expect(deltas(then.slice(at + 1))).toEqual([{ content: " (continued after the error)" }]);
    // Calls are left alone.
    expect(finish((await stream(faulty("stream-error-vllm-object"), forcedRead)).events)).toEqual(["tool_calls"]);
  });
});

describe("openai-chat faults: requests, auth, sync", () => {
  it("auth-missing-accepted and auth-invalid-accepted each open one door", async () => {
    const opts = { apiKey: "k" };
    const h = (auth?: string) => ({ headers: { "content-type": "application/json", ...(auth ? { authorization: auth } : {}) } });
    expect((await complete(faulty("auth-missing-accepted", opts), {}, h())).res.status).toBe(200);
    expect((await complete(faulty("auth-missing-accepted", opts), {}, h("Bearer wrong"))).res.status).toBe(401);
    expect((await complete(faulty("auth-invalid-accepted", opts), {}, h("Bearer wrong"))).res.status).toBe(200);
    expect((await complete(faulty("auth-invalid-accepted", opts), {}, h())).res.status).toBe(401);
  });

  it("models-bare-array", async () => {
    const body = (await (await faulty("models-bare-array").handle(req("/models"))).json()) as Json[];
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((m) => m.id)).toEqual(["agentwire-mock", "gpt-4.1-agentwire"]);
  });

  it("accepts-bad-input answers P2 requests with 200", async () => {
    const e = faulty("accepts-bad-input");
    for (const body of ["{nope", "{}", JSON.stringify({ model: MODEL }), JSON.stringify({ model: MODEL, stream: true, messages: "hi" })]) {
      const res = await e.handle(req("/chat/completions", { method: "POST", body, headers: { "content-type": "application/json" } }));
      expect(res.status, body).toBe(200);
      await res.text();
    }
  });

  it("history refusals: null content, blank content, Accept without event-stream", async () => {
    const history = (content: unknown) => ({
      messages: [
        user("go"),
        { role: "assistant", content, tool_calls: [{ id: "c1", type: "function", function: { name: "ls", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c1", content: "ok" },
      ],
    });
    expect((await complete(faulty("reject-null-assistant-content"), history(null))).res.status).toBe(400);
    expect((await complete(faulty("reject-null-assistant-content"), history(" "))).res.status).toBe(200);
    expect((await complete(faulty("reject-space-content"), history(" "))).res.status).toBe(400);
    expect((await complete(faulty("reject-space-content"), history(null))).res.status).toBe(200);
    const accept = (a: string) => ({ headers: { "content-type": "application/json", accept: a } });
    const refused = await complete(faulty("stream-needs-accept"), { stream: true }, accept("application/json"));
    expect(refused.res.status).toBe(406);
    expect((JSON.parse(refused.text) as Json).error).toMatchObject({ message: expect.any(String) });
    expect((await complete(faulty("stream-needs-accept"), { stream: true }, accept("text/event-stream"))).res.status).toBe(200);
    expect((await complete(faulty("stream-needs-accept"), {}, accept("application/json"))).res.status).toBe(200);
  });

  it("follow-up-empty-answer, sync-wrong-content-type, sync-role-missing", async () => {
    const followUp = {
      messages: [
        user("go"),
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "ls", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c1", content: "ok" },
      ],
    };
    const empty = JSON.parse((await complete(faulty("follow-up-empty-answer"), followUp)).text) as Json;
    expect((((empty.choices as Json[])[0] as Json).message as Json).content).toBe("");
    expect(contentText((await stream(faulty("follow-up-empty-answer"), textStream)).events)).not.toBe("");
    const plain = await complete(faulty("sync-wrong-content-type"), forcedRead);
    expect(plain.res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect((await complete(faulty("sync-wrong-content-type"), { stream: true })).res.headers.get("content-type")).toBe(
      "text/event-stream; charset=utf-8",
    );
    const noRole = JSON.parse((await complete(faulty("sync-role-missing"), forcedRead)).text) as Json;
    expect("role" in (((noRole.choices as Json[])[0] as Json).message as Json)).toBe(false);
  });

  it("faults act on the body only: the canonical mock's bytes are unchanged by unrelated faults", async () => {
    const body = await readChunks((await engine({ faults: ["models-bare-array", "error-string"] }).handle(req("/chat/completions", { method: "POST", json: { model: MODEL, messages: [user("hi")], stream: true } }))).body);
    const plain = await readChunks((await engine().handle(req("/chat/completions", { method: "POST", json: { model: MODEL, messages: [user("hi")], stream: true } }))).body);
    expect(utf8(concat(body))).toBe(utf8(concat(plain)));
  });
});
