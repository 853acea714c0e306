/**
 * chat/client-last-event-id on hand-built traffic: after a reconnect request, chat events the mock sent after it may
 * never reach a toolbar that acts on the request at once, so a resubscription may name the last event sent before the
 * request or any sent after; an older id, or none, still fails. Only a resubscription is judged: again on the socket
 * that received the events, or on a new socket after the mock dropped the old one or asked it to reconnect; a second
 * tab or a reloaded page on its own socket has received nothing.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import type { NewEvent, TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { lastEventIdCheck } from "../../../src/suites/stagewise-chat/client/checks.js";

const VOID = { json: null, meta: { values: ["undefined"] } };

function judge(build: (send: (conn: string, direction: "in" | "out", value: unknown) => void, close: (conn: string, by?: "client" | "kit", code?: number) => void) => void) {
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
    (conn, by = "client", code = 1000) => emit({ kind: "ws-close", probe: "client", connection: conn, code, by }),
  );
  return evaluation.finish()[0]!;
}

const subscribe = (lastEventId?: string, sub = 1) => ({ id: sub, method: "subscription", params: { path: "chat.getChatUpdates", input: VOID, ...(lastEventId ? { lastEventId } : {}) } });
const event = (id: string, sub = 1) => ({ id: sub, result: { type: "data", id, data: { json: { id, data: { type: "agent-state", isWorking: true } } } } });

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

  it("a second tab on its own socket, subscribing without lastEventId while the first runs, is not a resubscription", () => {
    const r = judge((send) => {
      send("a", "in", subscribe());
      for (const id of ["1", "2", "3"]) send("a", "out", event(id));
      send("b", "in", subscribe());
      send("b", "out", event("3"));
      send("a", "out", event("4"));
      send("b", "out", event("4"));
    });
    expect([r.outcome, r.message]).toEqual(["skip", expect.stringContaining("never dropped")]);
  });

  it("a page reloaded by the user (its socket closed 1001, a new one opened) starts fresh: not a resubscription", () => {
    const r = judge((send, close) => {
      send("a", "in", subscribe());
      for (const id of ["1", "2", "3"]) send("a", "out", event(id));
      close("a", "client", 1001);
      send("b", "in", subscribe());
      send("b", "out", event("3"));
    });
    expect(r.outcome).toBe("skip");
  });

  it("another chat subscription on the same socket without lastEventId while the first runs is another reader; after a stop it is a resubscription", () => {
    const alongside = judge((send) => {
      send("a", "in", subscribe());
      send("a", "out", event("1"));
      send("a", "in", subscribe(undefined, 2));
    });
    expect(alongside.outcome).toBe("skip");
    const afterStop = judge((send) => {
      send("a", "in", subscribe());
      send("a", "out", event("1"));
      send("a", "in", { id: 1, method: "subscription.stop" });
      send("a", "in", subscribe(undefined, 2));
    });
    expect([afterStop.outcome, afterStop.actual]).toEqual(["fail", "a resubscription without lastEventId"]);
  });

  it("after the mock closes a socket, the toolbar's new socket resumes it: judged by the last id sent on the dropped one", () => {
    const run = (resumeWith: string | undefined) =>
      judge((send, close) => {
        send("a", "in", subscribe());
        for (const id of ["1", "2", "3"]) send("a", "out", event(id));
        close("a", "kit", 1012);
        send("b", "in", subscribe(resumeWith));
      });
    expect(run("3").outcome).toBe("pass");
    expect([run(undefined).outcome, run(undefined).actual]).toEqual(["fail", "a resubscription without lastEventId"]);
  });

  it("two tabs dropped together each resume their own socket; a tab opened after the drop that received nothing before it is not judged", () => {
    const r = judge((send, close) => {
      send("a", "in", subscribe());
      send("b", "in", subscribe());
      for (const id of ["1", "2"]) {
        send("a", "out", event(id));
        send("b", "out", event(id));
      }
      send("b", "out", event("3"));
      close("a", "kit", 1012);
      close("b", "kit", 1012);
      send("c", "in", subscribe("3"));
      send("d", "in", subscribe("2"));
      send("e", "in", subscribe());
    });
    expect(r.outcome).toBe("pass");
  });
});
