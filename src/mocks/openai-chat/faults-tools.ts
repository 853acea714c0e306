/**
 * Tool-call faults (protocol doc §7). Some rewrite the streamed deltas (index, id, type, name,
 * argument fragments, ordering); others rewrite the decided answer, so that the streamed and the
 * non-streamed forms are wrong alike (names, arguments, ids, how many calls). They act on the first
 * call of a response unless stated.
 */
import { textAnswer, TEXT_ONLY_TEXT, type Answer, type PlannedCall } from "./answer.js";
import { isParameterless, requiredOf } from "./args.js";
import { lookupTool, OPENAI_CHAT_CATALOGUES } from "./catalogues.js";
import type { FaultHooks } from "./faults-http.js";
import type { StreamContext } from "./hooks.js";
import { forcedFunction } from "./request-fields.js";
import type { AnswerContext } from "./rules.js";
import { editChunk, mapKind, mapToolEntries, withDelta, type Json, type Step } from "./steps.js";


// --- answer-level helpers ---

function parseArgs(s: string): Json | undefined {
  try {
    const v = JSON.parse(s) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
  } catch {
    return undefined;
  }
}

function parametersOf(name: string, ctx: AnswerContext): unknown {
  return ctx.offered.get(name)?.function.parameters ?? lookupTool(ctx.catalogue, name)?.parameters;
}

/** Rewrites the first call's arguments object (calls with unparsable arguments are left alone). */
function firstCallArgs(fn: (args: Json, call: PlannedCall, ctx: AnswerContext) => Json) {
  return (answer: Answer, ctx: AnswerContext): Answer => {
    const first = answer.calls[0];
    const args = first && parseArgs(first.arguments);
    if (!first || !args) return answer;
    return {
      ...answer,
      calls: [{ ...first, arguments: JSON.stringify(fn(args, first, ctx)) }, ...answer.calls.slice(1)],
    };
  };
}

function renameFirst(fn: (name: string) => string) {
  return (answer: Answer, ctx: AnswerContext): Answer => {
    const first = answer.calls[0];
    if (!first || forcedFunction(ctx.request) !== undefined) return answer;
    return { ...answer, calls: [{ ...first, name: fn(first.name) }, ...answer.calls.slice(1)] };
  };
}

const EXCLUSIVE_FIRST = "search_and_replace_in_file";

/** An offered tool that some catalogue marks exclusive (search_and_replace_in_file first). */
function offeredExclusive(ctx: AnswerContext): string | undefined {
  if (ctx.offered.has(EXCLUSIVE_FIRST)) return EXCLUSIVE_FIRST;
  const exclusive = (name: string) =>
    lookupTool(ctx.catalogue, name)?.exclusive === true ||
    OPENAI_CHAT_CATALOGUES.some((c) => c.tools.some((t) => t.name === name && t.exclusive));
  return [...ctx.offered.keys()].find(exclusive);
}

// --- stream-level helpers ---

/** Rewrites the tool entries of the later (non-first) deltas of every call. */
const onLaterDeltas = (fn: (entry: Json, step: Step) => void) =>
  mapToolEntries<StreamContext>((e, s) => {
    if (s.call && !s.call.first) fn(e, s);
  });

const fn = (e: Json): Json => (e.function ??= {}) as Json;

export const TOOL_FAULTS: Record<string, FaultHooks> = {
  "tool-function-missing": {
    description: "Adds a tool-call delta `{index: 0}` without a `function` object after the call's first delta",
    violates: ["openai-chat/delta/shape"],
    transformSteps: mapKind<StreamContext>("tool", (s) =>
      s.call?.first && s.call.index === 0 ? [s, withDelta(s, { tool_calls: [{ index: 0 }] })] : s,
    ),
  },
  "tool-index-missing": {
    description: "Tool-call deltas without `index`",
    violates: ["openai-chat/tool-call/index-integer"],
    transformSteps: mapToolEntries<StreamContext>((e) => void delete e.index),
  },
  "tool-index-string": {
    description: 'Tool-call deltas with `index: "0"`',
    violates: ["openai-chat/tool-call/index-integer"],
    transformSteps: mapToolEntries<StreamContext>((e) => void (e.index = String(e.index))),
  },
  "tool-id-missing": {
    description: "No `id` on any tool-call delta (Ollama)",
    violates: ["openai-chat/tool-call/first-delta-complete"],
    transformSteps: mapToolEntries<StreamContext>((e) => void delete e.id),
  },
  "tool-type-missing": {
    description: "No `type` on any tool-call delta",
    violates: ["openai-chat/tool-call/first-delta-complete"],
    transformSteps: mapToolEntries<StreamContext>((e) => void delete e.type),
  },
  "tool-name-late": {
    description: "The call's first delta carries arguments; the name comes in the second",
    violates: ["openai-chat/tool-call/first-delta-complete"],
    transformSteps: function* (steps) {
      let pending: Step | null = null; // a first delta whose name must go into the next delta
      const nameOf = (s: Step) => s.call?.name ?? "";
      for (const s of steps) {
        if (pending && !(s.kind === "tool" && s.call?.index === pending.call?.index && !s.call?.first)) {
          // No later delta of the call: the name gets a delta of its own.
          yield withDelta(pending, { tool_calls: [{ index: pending.call?.index, function: { name: nameOf(pending) } }] });
          pending = null;
        }
        if (s.kind === "tool" && s.call?.first) {
          pending = s;
          yield editChunk(s, (_c, d) => {
            const e = (d.tool_calls as Json[])[0] as Json;
            delete fn(e).name;
          });
          continue;
        }
        if (pending && s.kind === "tool") {
          const name = nameOf(pending);
          pending = null;
          yield editChunk(s, (_c, d) => {
            const e = (d.tool_calls as Json[])[0] as Json;
            e.function = { name, ...fn(e) };
          });
          continue;
        }
        yield s;
      }
      if (pending) yield withDelta(pending, { tool_calls: [{ index: pending.call?.index, function: { name: nameOf(pending) } }] });
    },
  },
  "tool-id-changes": {
    description: "A new random id on every delta of a call",
    violates: ["openai-chat/tool-call/id-stable"],
    transformSteps: (steps, ctx) =>
      onLaterDeltas((e) => {
        e.id = `call_${Math.floor(ctx.random() * 36 ** 8).toString(36).padStart(8, "0")}`;
      })(steps, ctx),
  },
  "tool-id-repeated": {
    description: "The call's id repeated on every delta",
    violates: ["openai-chat/tool-call/identity-once"],
    transformSteps: onLaterDeltas((e, s) => void (e.id = s.call?.id)),
  },
  "tool-name-repeated": {
    description: "The function name repeated on every delta",
    violates: ["openai-chat/tool-call/identity-once"],
    transformSteps: onLaterDeltas((e, s) => {
      e.function = { name: s.call?.name, ...fn(e) };
    }),
  },
  "tool-name-empty-later": {
    description: '`name: ""` on the later deltas of a call',
    violates: ["openai-chat/tool-call/identity-once"],
    transformSteps: onLaterDeltas((e) => {
      e.function = { name: "", ...fn(e) };
    }),
  },
  "tool-ids-duplicate": {
    description: "Every call of a response (parallel-tools, two directives) gets the first call's id",
    violates: ["openai-chat/tool-call/ids-unique"],
    transformAnswer: (answer) => {
      const first = answer.calls[0];
      if (!first || answer.calls.length < 2) return answer;
      return { ...answer, calls: answer.calls.map((c) => ({ ...c, id: first.id })) };
    },
  },
  "arguments-object": {
    description: "`arguments` as a JSON object, streamed (in the first delta) and non-streamed",
    violates: ["openai-chat/tool-call/arguments-string"],
    transformSteps: function* (steps) {
      for (const s of steps) {
        if (s.kind !== "tool" || !s.call) {
          yield s;
          continue;
        }
        if (!s.call.first) continue;
        const args = parseArgs(s.call.arguments) ?? {};
        yield editChunk(s, (_c, d) => void (fn((d.tool_calls as Json[])[0] as Json).arguments = args));
      }
    },
    transformCompletion: (body) => {
      for (const c of (body.choices as Json[] | undefined) ?? []) {
        for (const tc of ((c.message as Json).tool_calls as Json[] | undefined) ?? []) {
          const f = tc.function as Json;
          f.arguments = parseArgs(String(f.arguments)) ?? {};
        }
      }
      return body;
    },
  },
  "arguments-cumulative": {
    description: "Each argument fragment repeats all the text before it",
    violates: ["openai-chat/tool-call/arguments-join-to-object"],
    transformSteps: function* (steps) {
      const sent = new Map<number, string>();
      for (const s of steps) {
        if (s.kind !== "tool" || !s.call) {
          yield s;
          continue;
        }
        const index = s.call.index;
        yield editChunk(s, (_c, d) => {
          const f = fn((d.tool_calls as Json[])[0] as Json);
          const total = (sent.get(index) ?? "") + String(f.arguments ?? "");
          sent.set(index, total);
          f.arguments = total;
        });
      }
    },
  },
  "arguments-repeated-at-end": {
    description: "Resends the first call's whole arguments string in the finish chunk",
    violates: ["openai-chat/tool-call/arguments-join-to-object"],
    transformSteps: mapKind<StreamContext>("finish", (s, ctx) => {
      const first = ctx.answer.calls[0];
      if (!first) return s;
      return editChunk(s, (_c, d) => void (d.tool_calls = [{ index: 0, function: { arguments: first.arguments } }]));
    }),
  },
  "arguments-placeholder-first": {
    description: 'The first call\'s first delta carries `"{}"`, then the real fragments follow',
    violates: ["openai-chat/tool-call/arguments-join-to-object"],
    transformSteps: mapKind<StreamContext>("tool", (s) => {
      if (!s.call?.first || s.call.index !== 0) return s;
      const whole = String(fn(((deltaTools(s)[0] ?? {}) as Json)).arguments ?? "");
      const head = editChunk(s, (_c, d) => void (fn((d.tool_calls as Json[])[0] as Json).arguments = "{}"));
      return whole ? [head, withDelta(s, { tool_calls: [{ index: 0, function: { arguments: whole } }] }, "tool")] : head;
    }),
  },
  "arguments-wrong-type": {
    description: 'The first call\'s first string argument becomes a number (read_file {"filepath": 42})',
    violates: ["openai-chat/tool-call/arguments-valid-for-tool"],
    transformAnswer: firstCallArgs((args, call, ctx) => {
      const required = requiredOf(parametersOf(call.name, ctx));
      const key =
        required.find((k) => typeof args[k] === "string") ?? Object.keys(args).find((k) => typeof args[k] === "string");
      return key === undefined ? args : { ...args, [key]: 42 };
    }),
  },
  "arguments-missing-required": {
    description: "The first call leaves out its required arguments (read_file {})",
    violates: ["openai-chat/tool-call/arguments-valid-for-tool"],
    transformAnswer: firstCallArgs((args, call, ctx) => {
      const out = { ...args };
      for (const r of requiredOf(parametersOf(call.name, ctx))) delete out[r];
      return out;
    }),
  },
  "arguments-extra-key": {
    description: 'The first call\'s arguments get an undeclared `"encoding": "utf-8"`',
    violates: ["openai-chat/tool-call/arguments-no-unknown-keys"],
    transformAnswer: firstCallArgs((args) => ({ ...args, encoding: "utf-8" })),
  },
  "no-arg-empty-string": {
    description: 'Calls of parameterless tools get `arguments: ""`',
    violates: ["openai-chat/tool-call/no-arg-empty-object"],
    transformAnswer: (answer, ctx) => ({
      ...answer,
      calls: answer.calls.map((c) => (isParameterless(parametersOf(c.name, ctx)) ? { ...c, arguments: "" } : c)),
    }),
  },
  "tool-name-unknown": {
    description: "Calls delete_everything where no function is forced",
    violates: ["openai-chat/tool-call/name-in-request-tools"],
    transformAnswer: renameFirst(() => "delete_everything"),
  },
  "tool-name-doubled": {
    description: "Calls read_fileread_file (the name twice) where no function is forced",
    violates: ["openai-chat/tool-call/name-in-request-tools"],
    transformAnswer: renameFirst((n) => n + n),
  },
  "parallel-same-index": {
    description: "All calls of a response at `index: 0`, with distinct ids",
    violates: ["openai-chat/tool-call/parallel-distinct-indexes"],
    transformSteps: mapToolEntries<StreamContext>((e) => void (e.index = 0)),
  },
  "parallel-interleaved": {
    description: "The deltas of parallel calls alternate",
    violates: ["openai-chat/tool-call/parallel-sequential"],
    transformSteps: function* (steps) {
      const byCall: Step[][] = [];
      let holding = false;
      for (const s of steps) {
        if (s.kind === "tool" && s.call) {
          holding = true;
          (byCall[s.call.index] ??= []).push(s);
          continue;
        }
        if (holding) {
          yield* roundRobin(byCall);
          byCall.length = 0;
          holding = false;
        }
        yield s;
      }
      yield* roundRobin(byCall);
    },
  },
  "ignore-parallel-false": {
    description: "Adds a second call of the same function despite `parallel_tool_calls: false`",
    violates: ["openai-chat/tool-call/parallel-false-honoured"],
    transformAnswer: (answer, ctx) => {
      const first = answer.calls[0];
      if (ctx.request.parallel_tool_calls !== false || answer.calls.length !== 1 || !first) return answer;
      return { ...answer, calls: [first, { ...first, id: ctx.newCallId() }] };
    },
  },
  "parallel-with-exclusive": {
    description: "The second of parallel calls is search_and_replace_in_file (an exclusive tool)",
    violates: ["openai-chat/tool-call/exclusive-not-parallel"],
    transformAnswer: (answer, ctx) => {
      const second = answer.calls[1];
      const name = offeredExclusive(ctx);
      if (!second || name === undefined) return answer;
      const example = lookupTool(ctx.catalogue, name)?.exampleArgs ?? {};
      const calls = [...answer.calls];
      calls[1] = { ...second, name, arguments: JSON.stringify(example) };
      return { ...answer, calls };
    },
  },
  "ignore-tool-choice": {
    description: 'Answers text when a function is forced or `tool_choice` is "required"',
    violates: ["openai-chat/tool-call/honours-tool-choice"],
    transformAnswer: (answer, ctx) =>
      forcedFunction(ctx.request) !== undefined || ctx.request.tool_choice === "required"
        ? textAnswer(TEXT_ONLY_TEXT, answer.rule)
        : answer,
  },
  "stream-drops-tool-calls": {
    description: "Streams text where the non-streamed answer calls a tool",
    violates: ["openai-chat/tool-call/streaming-parity", "openai-chat/tool-call/honours-tool-choice"],
    transformAnswer: (answer, ctx) => (ctx.stream && answer.calls.length ? textAnswer(TEXT_ONLY_TEXT, answer.rule) : answer),
  },
  "args-after-finish": {
    description: "The last argument fragment comes after the finish chunk",
    violates: ["openai-chat/finish/nothing-after-finish"],
    transformSteps: function* (steps) {
      let held: Step | null = null;
      for (const s of steps) {
        if (s.kind === "tool") {
          if (held) yield held;
          held = s;
          continue;
        }
        if (s.kind === "finish" && held) {
          yield s;
          yield held;
          held = null;
          continue;
        }
        if (held) {
          yield held;
          held = null;
        }
        yield s;
      }
      if (held) yield held;
    },
  },
};

function deltaTools(s: Step): Json[] {
  const d = (s.data as Json).choices as Json[] | undefined;
  return ((d?.[0]?.delta as Json | undefined)?.tool_calls as Json[] | undefined) ?? [];
}

function* roundRobin(groups: Step[][]): Generator<Step> {
  const lists = groups.filter((g) => g && g.length);
  for (let i = 0; lists.some((l) => i < l.length); i++) {
    for (const l of lists) if (i < l.length) yield l[i] as Step;
  }
}
