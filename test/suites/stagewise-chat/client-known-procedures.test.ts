/**
 * trpc/client-known-procedures judges the procedure a toolbar request names, and only that: a binary frame is
 * wire/text-frames' failure and a message with no method or path is trpc/client-request-shape's, so neither is failed
 * again as a call of an unknown procedure (the check names the knock-on instead); a request naming an unknown path or
 * the wrong kind still fails.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import type { NewEvent, TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import type { CheckResult } from "../../../src/core/verdicts/result.js";
import { STAGEWISE_CHAT_CLIENT_CHECKS } from "../../../src/suites/stagewise-chat/client/index.js";

const P = "stagewise-chat/";
const VOID = { json: null, meta: { values: ["undefined"] } };
const stop = (method: string, path = "chat.stop") => ({ id: 3, method, params: { path, input: VOID } });

function judge(frames: { data: unknown; binary?: boolean }[]): Map<string, CheckResult> {
  const evaluation = new Evaluation(STAGEWISE_CHAT_CLIENT_CHECKS, { protocol: "stagewise-chat", profile: DEFAULT_PROFILE, params: {}, validate: (m, v) => registry.validate("stagewise-chat", m, v) });
  let seq = 0;
  const emit = (e: NewEvent) => evaluation.observe({ ...e, seq, t: seq++ } as TranscriptEvent);
  emit({ kind: "ws-open", probe: "client", connection: "c1", url: "ws://127.0.0.1/stagewise/ws", label: "toolbar" });
  for (const f of frames) emit({ kind: "ws-frame", probe: "client", connection: "c1", direction: "in", binary: f.binary ?? false, data: JSON.stringify(f.data) });
  return new Map(evaluation.finish().map((r) => [r.id.slice(P.length), r]));
}

const failed = (r: Map<string, CheckResult>) => [...r].filter(([, c]) => c.outcome === "fail").map(([id]) => id).sort();

describe("stagewise-chat/trpc/client-known-procedures", () => {
  it("a binary frame is text-frames' failure, not also an unknown procedure", () => {
    const r = judge([{ data: { id: 2 }, binary: true }]);
    expect(failed(r)).not.toContain("trpc/client-known-procedures");
    expect(failed(r)).toContain("wire/text-frames");
    const own = r.get("trpc/client-known-procedures")!;
    expect([own.outcome, own.message]).toEqual(["skip", expect.stringMatching(/^not judged: stagewise-chat\/wire\/text-frames failed on toolbar frame on c1/)]);
  });

  it("a binary frame naming a wrong kind is not judged either; the text frames around it are", () => {
    const r = judge([{ data: stop("query"), binary: true }, { data: stop("mutation") }]);
    expect(r.get("trpc/client-known-procedures")!.outcome).toBe("pass");
  });

  it("a text message without method or path is request-shape's failure, not an unknown procedure", () => {
    const r = judge([{ data: { id: 2 } }, { data: { id: 4, method: "mutation", params: { input: VOID } } }]);
    expect(failed(r)).toEqual(["trpc/client-request-shape"]);
    expect(r.get("trpc/client-known-procedures")!.message).toMatch(/^not judged: stagewise-chat\/trpc\/client-request-shape failed/);
  });

  it("still fails an unknown path and the wrong kind in text frames", () => {
    expect(judge([{ data: stop("mutation", "chat.nope") }]).get("trpc/client-known-procedures")!.actual).toBe('mutation "chat.nope": no such procedure');
    expect(judge([{ data: stop("query") }]).get("trpc/client-known-procedures")!.outcome).toBe("fail");
  });
});
