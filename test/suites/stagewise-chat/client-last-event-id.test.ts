/**
 * chat/client-last-event-id on hand-built traffic: after a reconnect request, chat events the mock sent after it may
 * never reach a toolbar that acts on the request at once, so a resubscription may name the last event sent before the
 * request or any sent after; an older id, or none, still fails.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import type { NewEvent, TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { lastEventIdCheck } from "../../../src/suites/stagewise-chat/client/checks.js";

const VOID = { json: null, meta: { values: ["undefined"] } };

function judge(build: (send: (conn: string, direction: "in" | "out", value: unknown) => void, close: (conn: string) => void) => void) {
  const evaluation = new Evaluation([lastEventIdCheck], { protocol: "stagewise-chat", profile: DEFAULT_PROFILE, params: {}, validate: (m, v) => registry.validate("stagewise-chat", m, v) });
  let seq = 0;
  const emit = (e: NewEvent) => evaluation.observe({ ...e, seq: seq, t: seq++ } as TranscriptEvent);
  const opened = new Set<string>();
  const open = (conn: string) => {
    if (opened.has(conn)) return;
    opened.add(conn);
    emit({ kind: "ws-open", probe: "client", connection: conn, url: "ws://127.0.0.1/stagewise/ws", label: "toolbar" });
  };
  build(
    (conn, direction, value) => {
      open(conn);
      emit({ kind: "ws-frame", probe: "client", connection: conn, direction, binary: false, data: JSON.stringify(value) });
    },
    (conn) => emit({ kind: "ws-close", probe: "client", connection: conn, code: 1000, by: "client" }),
  );
  return evaluation.finish()[0]!;
}

const subscribe = (lastEventId?: string) => ({ id: 1, method: "subscription", params: { path: "chat.getChatUpdates", input: VOID, ...(lastEventId ? { lastEventId } : {}) } });
const event = (id: string) => ({ id: 1, result: { type: "data", id, data: { json: { id, data: { type: "agent-state", isWorking: true } } } } });

/** Events 1..3, a reconnect request, event 4 on the old socket, then the toolbar's resubscription on a new one. */
function reconnectRun(resumeWith: string | undefined) {
  return judge((send, close) => {
    send("a", "in", subscribe());
    for (const id of ["1", "2", "3"]) send("a", "out", event(id));
    send("a", "out", { id: null, method: "reconnect" });
    send("a", "out", event("4"));
    close("a");
    send("b", "in", subscribe(resumeWith));
  });
}

describe("stagewise-chat/chat/client-last-event-id", () => {
  it("after a reconnect request: the last id sent before it, or one sent after, both pass", () => {
    expect(reconnectRun("3").verdict).toBe("pass");
    expect(reconnectRun("4").verdict).toBe("pass");
  });

  it("after a reconnect request: an older id, or none, fails (SHOULD: warn)", () => {
    const older = reconnectRun("2");
    expect([older.verdict, older.actual]).toEqual(["warn", 'lastEventId "2"']);
    expect(older.expected).toContain('"3" or later');
    expect(reconnectRun(undefined).actual).toBe("a resubscription without lastEventId");
  });

  it("without a drop, a second subscription must name the very last event", () => {
    const r = judge((send) => {
      send("a", "in", subscribe());
      send("a", "out", event("1"));
      send("a", "out", event("2"));
      send("a", "in", { ...subscribe("1"), id: 2 });
    });
    expect(r.outcome).toBe("fail");
  });
});
