/**
 * One deviation, one failing check: deviations made by rewriting the messages of a recorded good
 * run (not by the mock's faults) are re-judged. Each fails its one target rule; every other check
 * keeps its verdict, skips as not applicable, or skips as a knock-on that names the rule which did
 * fail in the same judgement.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { REQUEST_TIMEOUT_NOTE } from "../../../src/core/transport/ws-exchange.js";
import { piWeb } from "../../../src/suites/pi-web/index.js";
import type { TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { transformFrames, type Frame, type FrameTransform, type Sent } from "../../helpers/pi-web-rejudge.js";
import { expectOnlyTarget, judgeAsRecorded, recordRun, sameVerdict, type Recorded } from "../../helpers/rejudge.js";
import { explain } from "../../helpers/run-results.js";

let recorded: Recorded;

beforeAll(async () => {
  recorded = await recordRun(piWeb);
}, 60_000);

const P = "pi-web/";
type Json = Record<string, any>;

const parse = (s: Sent): Json | undefined => {
  try {
    return JSON.parse(s.data) as Json;
  } catch {
    return undefined;
  }
};
const isType = (type: string, and: (v: Json) => boolean = () => true) => (s: Sent) => {
  const v = parse(s);
  return v?.type === type && and(v);
};
const json = (s: Sent, v: unknown): Sent => ({ from: s.from, data: JSON.stringify(v) });
const edit = (s: Sent, change: (v: Json) => void): Sent => {
  const v = parse(s)!;
  change(v);
  return json(s, v);
};
const isClient = (label: string | undefined) => label === "main" || label === "passive";

/**
 * On each client connection (events reach both in the same order), the n-th message `match`
 * selects is replaced by what `f` returns; `f` may also take messages off the front of `rest`
 * (those after it), which are then replaced too.
 */
const nth = (match: (s: Sent) => boolean, f: (s: Sent, rest: Sent[]) => Sent[], n = 0): FrameTransform => (frames, _c, label) => {
  if (!isClient(label)) return frames;
  let k = 0;
  const out: Sent[] = [];
  for (let i = 0; i < frames.length; i++) {
    const s = frames[i]!;
    if (match(s) && k++ === n) {
      const rest = frames.slice(i + 1);
      out.push(...f(s, rest));
      i += frames.length - i - 1 - rest.length; // skip what f took off `rest`
    } else out.push(s);
  }
  return out;
};
/** Every message `match` selects on each client connection, replaced by what `f` returns. */
const every = (match: (s: Sent) => boolean, f: (s: Sent) => Sent[]): FrameTransform => (frames, _c, label) => (isClient(label) ? frames.flatMap((s) => (match(s) ? f(s) : [s])) : frames);
const first = (match: (s: Sent) => boolean, f: (s: Sent, rest: Sent[]) => Sent[]) => nth(match, f, 0);
/** The selected message and the one after it change places (each keeps its time slot). */
const swapNext = (match: (s: Sent) => boolean) => first(match, (s, rest) => {
  const next = rest.shift()!;
  return [{ from: s.from, data: next.data }, { from: next.from, data: s.data }];
});

/** Right after the first agent_end of each client connection, one more message made from those up to it. */
function afterRun(extra: (before: Sent[]) => Sent): FrameTransform {
  return (frames, _c, label) => {
    if (!isClient(label)) return frames;
    const i = frames.findIndex(isType("agent_end"));
    return [...frames.slice(0, i + 1), { ...extra(frames.slice(0, i + 1)), from: frames[i]!.from }, ...frames.slice(i + 1)];
  };
}

/**
 * The message of the first message_end `match` selects, changed wherever it is repeated (the
 * message_end, turn_end, agent_end and history copies, found by role and timestamp), so the extras
 * stay consistent with it.
 */
function everyCopy(match: (s: Sent) => boolean, change: (message: Json) => void): FrameTransform {
  let key: { role: unknown; timestamp: unknown } | undefined;
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      const o = v as Json;
      if (o.role === key!.role && o.timestamp === key!.timestamp) change(o);
      else Object.values(o).forEach(walk);
    }
  };
  return (frames, _c, label) => {
    if (!isClient(label)) return frames;
    key ??= (({ role, timestamp }) => ({ role, timestamp }))(parse(frames.find(match)!)!.message as Json);
    return frames.map((s) => {
      const v = parse(s);
      if (!v) return s;
      walk(v);
      return json(s, v);
    });
  };
}

/** The response to the command the probes labelled `command` never sent: the kit's request timeout expires in its place. */
const unanswered = (command: string): FrameTransform => (frames, connection, label) => {
  if (label !== "main") return frames;
  const id = idOf(command);
  return frames.map((s) => {
    const v = parse(s);
    if (v?.type !== "response" || v.id !== id) return s;
    return { ...s, note: { name: REQUEST_TIMEOUT_NOTE, value: { connection, id, command: v.command, waitedMs: 5000, label: command } } };
  });
};
/** The id of the command the probes sent under `label`. */
const idOf = (label: string): string => {
  const sent = recorded.events.find((e) => e.kind === "ws-frame" && e.direction === "out" && e.label === label);
  return JSON.parse((sent as { data: string }).data).id as string;
};

const assistant = (v: Json) => v.message?.role === "assistant";

/** [deviation, rewrite, the check that must fail, the checks that must skip as knock-ons]. */
const CASES: [string, FrameTransform, string, string[]][] = [
  ["a tool_execution_end sent twice", first(isType("tool_execution_end"), (s) => [s, s]), "tool/pairing", []],
  ["an assistant message_end dropped", first(isType("message_end", assistant), () => []), "event/message-nesting", []],
  ["message_end before its message_start", swapNext(isType("message_start", (v) => v.message?.role === "user")), "event/message-nesting", []],
  ["a tool_execution_end toolCallId in upper case", first(isType("tool_execution_end"), (s) => [edit(s, (v) => void (v.toolCallId = String(v.toolCallId).toUpperCase()))]), "tool/pairing", []],
  ["a response with another command's id", first(isType("response", (v) => v.id === idOf("usage:initial")), (s) => [edit(s, (v) => void (v.id = idOf("state:initial")))]), "rpc/response-echo", []],
  ["two events batched in one frame", first(isType("agent_start"), (s, rest) => [{ from: s.from, data: `${s.data}\n${rest.shift()!.data}` }]), "framing/json-object-frames", []],
  ["one event split over two frames", first(isType("turn_start"), (s) => [{ from: s.from, data: s.data.slice(0, 9) }, { from: s.from, data: s.data.slice(9) }]), "framing/json-object-frames", []],
  ["an agent_end dropped", first(isType("agent_end"), () => []), "event/agent-bracketing", []],
  ["a message_update repeated after agent_end", afterRun((before) => before.filter(isType("message_update")).at(-1)!), "event/message-nesting", []],
  ["agent_end sent twice", afterRun((before) => before.at(-1)!), "event/agent-bracketing", []],
  ["a tool_execution_start dropped", first(isType("tool_execution_start"), () => []), "tool/pairing", []],
  ["an assistant message_start dropped", first(isType("message_start", assistant), () => []), "event/message-nesting", []],
  ["the response to get_state never sent", unanswered("state:initial"), "rpc/response-per-command", []],
  ["the response to a prompt never sent", unanswered("prompt:text"), "rpc/response-per-command", []],
  ["the response to get_messages after a run never sent", unanswered("history:text"), "rpc/response-per-command", []],
  ["no response to clear:q2", unanswered("clear:q2"), "rpc/response-per-command", ["cmd/clear-queue"]],
  ["no response to clear:q3", unanswered("clear:q3"), "rpc/response-per-command", []],
  ["no response to new:after-run", unanswered("new:after-run"), "rpc/response-per-command", ["cmd/new-session"]],
  ["no response to switch:listed", unanswered("switch:listed"), "rpc/response-per-command", ["cmd/switch-session"]],
  ["no response to switch:missing", unanswered("switch:missing"), "rpc/response-per-command", ["cmd/switch-session-missing"]],
  ["no response to sessions:default", unanswered("sessions:default"), "rpc/response-per-command", ["cmd/list-sessions-default-scope"]],
  ["no response to state:queue-q3-after", unanswered("state:queue-q3-after"), "rpc/response-per-command", ["queue/abort-keeps-queue"]],
  ["no response to abort:run", unanswered("abort:run"), "rpc/response-per-command", []],
  ["no response to state:after-run", unanswered("state:after-run"), "rpc/response-per-command", []],
  ["no response to history:queue-q1", unanswered("history:queue-q1"), "rpc/response-per-command", []],
  ["no response to prompt:queue-q1", unanswered("prompt:queue-q1"), "rpc/response-per-command", []],
  ["no response to steer:q1", unanswered("steer:q1"), "rpc/response-per-command", ["queue/steer-injected", "queue/steer-skips-tools"]],
  ["no response to follow-up:q4", unanswered("follow-up:q4"), "rpc/response-per-command", ["queue/follow-up-at-end"]],
  ["no response to state:after-new", unanswered("state:after-new"), "rpc/response-per-command", ["cmd/new-session"]],
  ["no response to messages:after-switch", unanswered("messages:after-switch"), "rpc/response-per-command", []],
  ["no response to state:before-new", unanswered("state:before-new"), "rpc/response-per-command", []],
  ["no response to abort:queue", unanswered("abort:queue"), "rpc/response-per-command", ["queue/abort-keeps-queue"]],
  ["no response to prompt:images", unanswered("prompt:images"), "rpc/response-per-command", []],
  ["no response to prompt:invalid", unanswered("prompt:invalid"), "rpc/response-per-command", ["cmd/prompt-invalid"]],
  ["no response to prompt:busy", unanswered("prompt:busy"), "rpc/response-per-command", ["cmd/prompt-busy"]],
  ["no response to mid-run:state", unanswered("mid-run:state"), "rpc/response-per-command", []],
  ["a response without its command", first(isType("response", (v) => v.id === idOf("usage:initial")), (s) => [edit(s, (v) => void delete v.command)]), "rpc/response-echo", []],
  ["a tool_execution_start toolCallId in upper case", first(isType("tool_execution_start"), (s) => [edit(s, (v) => void (v.toolCallId = String(v.toolCallId).toUpperCase()))]), "tool/pairing", []],
  ["a message_update with a contentIndex past the blocks", first(isType("message_update", (v) => v.assistantMessageEvent?.type === "text_delta"), (s) => [edit(s, (v) => void (v.assistantMessageEvent.contentIndex = 5))]), "stream/block-grammar", []],
  ["a tool_execution_end dropped", first(isType("tool_execution_end"), () => []), "tool/pairing", []],
  ["a toolResult message_end dropped", first(isType("message_end", (v) => v.message?.role === "toolResult"), () => []), "event/message-nesting", []],
  ["a text_end dropped", first(isType("message_update", (v) => v.assistantMessageEvent?.type === "text_end"), () => []), "stream/block-grammar", []],
  ["a text_start dropped", first(isType("message_update", (v) => v.assistantMessageEvent?.type === "text_start"), () => []), "stream/block-grammar", []],
  ["success sent as a string", first(isType("response", (v) => v.id === idOf("usage:initial")), (s) => [edit(s, (v) => void (v.success = "true"))]), "framing/server-schema", []],
  ["agent_start sent twice", first(isType("agent_start"), (s) => [s, s]), "event/agent-bracketing", []],
  ["an event only the requester gets", (frames, c, label) => (label === "passive" ? nth(isType("tool_execution_update"), () => [])(frames, c, label) : frames), "fanout/broadcast", []],
  ["a message_start timestamp changed", first(isType("message_start", assistant), (s) => [edit(s, (v) => void (v.message.timestamp += 1))]), "event/message-nesting", []],
  ["a session_changed reason changed", first(isType("session_changed"), (s) => [edit(s, (v) => void (v.reason = v.reason === "new" ? "switch" : "new"))]), "session/changed", []],
  ["a toolcall_end dropped", first(isType("message_update", (v) => v.assistantMessageEvent?.type === "toolcall_end"), () => []), "stream/block-grammar", []],
  ["the history missing its last message", first(isType("response", (v) => v.command === "get_messages" && v.data?.messages?.length > 0), (s) => [edit(s, (v) => void v.data.messages.pop())]), "cmd/get-messages", []],
  ["a response id in upper case", first(isType("response", (v) => v.id === idOf("usage:initial")), (s) => [edit(s, (v) => void (v.id = idOf("usage:initial").toUpperCase()))]), "rpc/response-echo", []],
  ["a text_delta frame sent twice", first(isType("message_update", (v) => v.assistantMessageEvent?.type === "text_delta"), (s) => [s, s]), "stream/end-values", []],
  ["agent_end.messages missing the last message", first(isType("agent_end"), (s) => [edit(s, (v) => void v.messages.pop())]), "event/extras-consistent", []],
  ["turn_end.message with other text", first(isType("turn_end"), (s) => [edit(s, (v) => void (v.message.content = [{ type: "text", text: "other" }]))]), "event/extras-consistent", []],
  ["an error message without errorMessage", everyCopy(isType("message_end", (v) => assistant(v) && v.message.stopReason === "error"), (m) => void delete m.errorMessage), "stream/stop-reason", []],
  // Every instance, so the rules that could judge only past the failure have nothing else to judge and name it.
  ["no tool_execution_start at all", every(isType("tool_execution_start"), () => []), "tool/pairing", ["tool/round-trip", "queue/steer-skips-tools"]],
  ["no toolResult message_end at all", every(isType("message_end", (v) => v.message?.role === "toolResult"), () => []), "event/message-nesting", ["tool/round-trip"]],
  ["a session_changed dropped", first(isType("session_changed"), () => []), "session/changed", []],
  ["a get_state answered with isStreaming false during a run", first(isType("response", (v) => v.command === "get_state" && v.data?.isStreaming === true), (s) => [edit(s, (v) => void (v.data.isStreaming = false))]), "cmd/get-state-streaming", []],
  ["a frame that is not JSON", first(isType("agent_start"), (s) => [{ from: s.from, data: "ping" }, s]), "framing/json-object-frames", []],
  ["a text delta that does not add up to the final text", first(isType("message_update", (v) => v.assistantMessageEvent?.type === "text_delta"), (s) => [edit(s, (v) => void (v.assistantMessageEvent.delta = `${v.assistantMessageEvent.delta}!`))]), "stream/end-values", []],
  ["an event of an unknown type", first(isType("agent_start"), (s) => [json(s, { type: "agent_heartbeat" }), s]), "framing/known-types", []],
  ["a response sent twice", first(isType("response", (v) => v.id === idOf("usage:initial")), (s) => [s, s]), "rpc/single-response", []],
  ["stopReason stop on a message with a tool call", everyCopy(isType("message_end", (v) => assistant(v) && v.message.content.some((c: Json) => c.type === "toolCall")), (m) => void (m.stopReason = "stop")), "stream/stop-reason", []],
  ["a toolResult naming another tool", everyCopy(isType("message_end", (v) => v.message?.role === "toolResult"), (m) => void (m.toolName = "write")), "tool/round-trip", []],
];

describe("pi-web: second realisations of single deviations", () => {
  it.each(CASES)("%s fails only its rule", (_name, transform, target, knocked) => {
    const after = judgeAsRecorded(piWeb, transformFrames(recorded.events, transform));
    expectOnlyTarget(recorded.checks, after, P + target, knocked.map((id) => P + id));
  });

  it("the recorded run re-judged unchanged keeps every verdict", () => {
    const after = judgeAsRecorded(piWeb, transformFrames(recorded.events, (f) => f));
    const changed = after.filter((c) => !sameVerdict(recorded.checks.find((b) => b.id === c.id)!, c));
    expect(changed, explain(changed)).toEqual([]);
  });
});

/**
 * The answer `match` selects, changed by `change` and sent later: right before the agent_end that
 * follows it (`at: "edge"`, as a server does whose run had ended when it answered), or right before
 * the next message_update (`at: "live"`, a run still producing).
 */
const answerLater = (match: (s: Sent) => boolean, change: (v: Json) => void, at: "edge" | "live"): FrameTransform =>
  first(match, (s, rest) => {
    const j = rest.findIndex(isType(at === "edge" ? "agent_end" : "message_update"));
    const moved = rest.splice(0, j + 1);
    const next = moved.pop()!;
    return [...moved, { from: next.from, data: edit(s, change).data }, next];
  });
const midRunState = isType("response", (v) => v.command === "get_state" && v.data?.isStreaming === true);
const busyPrompt = (s: Sent) => parse(s)?.type === "response" && parse(s)?.id === idOf("prompt:busy");
const accepted = (v: Json): void => {
  v.success = true;
  delete v.error;
};

describe("pi-web: answers that raced a run's end", () => {
  it.each([
    ["get_state answered isStreaming false", midRunState, (v: Json): void => void (v.data.isStreaming = false), "cmd/get-state-streaming"],
    ["a busy prompt accepted", busyPrompt, accepted, "cmd/prompt-busy"],
  ] as const)("%s right before agent_end is not judged; before more of the run it fails", (_name, match, change, id) => {
    const raced = judgeAsRecorded(piWeb, transformFrames(recorded.events, answerLater(match, change, "edge")));
    const check = raced.find((c) => c.id === P + id)!;
    expect(check.outcome, check.message).not.toBe("fail");
    expect(raced.filter((c) => c.outcome === "fail").map((c) => c.id)).toEqual([]);

    const live = judgeAsRecorded(piWeb, transformFrames(recorded.events, answerLater(match, change, "live")));
    expectOnlyTarget(recorded.checks, live, P + id, []);
  });
});

describe("pi-web: a long answer read out of a backlog", () => {
  /** The long answer's updates on the main connection, each marked as read out of a backlog that began at the first. */
  function backlogged(events: TranscriptEvent[], from: (first: Frame) => number): TranscriptEvent[] {
    const main = events.find((e) => e.kind === "ws-open" && e.label === "main") as { connection: string } | undefined;
    const sent = events.findIndex((e) => e.kind === "ws-frame" && e.direction === "out" && e.label === "prompt:long");
    let first: Frame | undefined;
    let done = false;
    return events.map((e, i) => {
      if (done || i < sent || e.kind !== "ws-frame" || e.direction !== "in" || e.connection !== main?.connection) return e;
      const type = (JSON.parse(e.data) as Json).type;
      if (type === "message_end" && first) done = true;
      if (type !== "message_update" && !(type === "message_end" && first)) return e;
      first ??= e;
      return e === first ? e : { ...e, backlogSince: from(first) };
    });
  }
  const incremental = (events: TranscriptEvent[]) => judgeAsRecorded(piWeb, events).find((c) => c.id === P + "stream/incremental")!;

  it("passes only when it would have streamed had every backlogged update come with the backlog's first read", () => {
    expect(recorded.checks.find((c) => c.id === P + "stream/incremental")!.outcome).toBe("pass");
    const burst = incremental(backlogged(recorded.events, (first) => first.t));
    expect(burst.outcome, burst.message).toBe("incomplete");
    expect(burst.message).toMatch(/out of a backlog/);
    // A backlog that began only just before each read takes nothing away from the pacing seen.
    const late = backlogged(recorded.events, () => 0).map((e) => (e.kind === "ws-frame" && e.backlogSince !== undefined ? { ...e, backlogSince: e.t } : e));
    expect(incremental(late).outcome).toBe("pass");
  });
});
