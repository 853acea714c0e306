/**
 * Each §7 fault shows its deviation on the wire, and the mock without it does not: every row runs
 * its probe twice, with the fault and without, on an in-process engine (poll clock unless the
 * fault is about time). Also: names, profiles and the ways a fault is selected.
 */
import { networkInterfaces } from "node:os";
import { connect } from "node:net";
import { setupServer } from "msw/node";
import { afterEach, describe, expect, it } from "vitest";
import { MockOptionError } from "../../../src/core/run/protocol.js";
import { createContinueRemoteEngine, type ContinueRemoteEngine } from "../../../src/mocks/continue-remote/engine.js";
import { FAULTS } from "../../../src/mocks/continue-remote/faults.js";
import { CONTINUE_REMOTE_FAULTS } from "../../../src/mocks/continue-remote/index.js";
import { continueRemoteHandlers } from "../../../src/mocks/continue-remote/msw.js";
import type { ContinueRemoteMockOptions } from "../../../src/mocks/continue-remote/options.js";
import { startContinueRemoteMock, type RunningContinueRemoteMock } from "../../../src/mocks/continue-remote/server.js";
import { CONTINUE_REMOTE_SERVER_CHECKS } from "../../../src/suites/continue-remote/index.js";
import { BASE, type Json, type Profile } from "./helpers.js";

interface Answer {
  status: number;
  type: string | null;
  text: string;
  json: Json;
  headers: Headers;
}

class Harness {
  constructor(readonly engine: ContinueRemoteEngine) {}

  get profile(): Profile {
    return this.engine.options.profile;
  }

  async call(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
    const res = await this.engine.handle(new Request(BASE + path, { method, headers, ...(body !== undefined ? { body } : {}) }));
    const text = await res.text();
    let json: Json = {};
    try {
      json = JSON.parse(text) as Json;
    } catch {
      // an HTML or text answer: `text` says what it is
    }
    return { status: res.status, type: res.headers.get("content-type"), text, json, headers: res.headers };
  }

  get = (path: string, headers?: Record<string, string>) => this.call("GET", path, undefined, headers);
  post = (path: string, body?: unknown, type = "application/json") =>
    this.call("POST", path, body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body), { "content-type": type });
  send = (message: unknown) => this.post("/message", { message });

  async state(): Promise<Json> {
    return (await this.get("/state")).json;
  }

  /** Sends a message and polls until the machine is idle again; every snapshot seen, the idle one last. */
  async turn(message: string): Promise<Json[]> {
    expect((await this.send(message)).status).toBe(200);
    return this.untilIdle();
  }

  async untilIdle(): Promise<Json[]> {
    const seen: Json[] = [];
    for (let i = 0; i < 500; i++) {
      seen.push(await this.state());
      if (!this.engine.machine.isProcessing) {
        seen.push(await this.state());
        return seen;
      }
    }
    throw new Error("the turn never ended");
  }

  /** Polls until a permission is pending; that snapshot. */
  async pending(): Promise<Json> {
    for (let i = 0; i < 100; i++) {
      const s = await this.state();
      if (s.pendingPermission) return s;
    }
    throw new Error("no permission request");
  }
}

const SERVER_CHECK_IDS = CONTINUE_REMOTE_SERVER_CHECKS.map((c) => c.id);
const history = (s: Json): Json[] => (s.chatHistory ?? s.session?.history ?? []) as Json[];
const last = <T>(list: T[]): T => list[list.length - 1] as T;
const states = (s: Json): Json[] => history(s).flatMap((i) => (i.toolCallStates ?? []) as Json[]);

interface Row {
  fault: string;
  profile: Profile;
  options?: ContinueRemoteMockOptions;
  /** True when the deviation is seen. */
  probe: (h: Harness) => Promise<boolean>;
}

const seed = (fault: string, probe: Row["probe"], options?: ContinueRemoteMockOptions): Row => ({ fault, profile: "seed", probe, ...(options ? { options } : {}) });
const cn = (fault: string, probe: Row["probe"], options?: ContinueRemoteMockOptions): Row => ({ fault, profile: "cn-session", probe, ...(options ? { options } : {}) });
const quick: ContinueRemoteMockOptions = { clock: "time", speed: 0.02 };

const ROWS: Row[] = [
  seed("state-html", async (h) => (await h.get("/state")).type?.startsWith("text/html") === true),
  seed("error-html", async (h) => {
    const r = await h.get("/nope");
    return r.status === 404 && r.type?.startsWith("text/html") === true && r.text.includes("<pre>Cannot GET /nope</pre>");
  }),
  seed("state-missing-isprocessing", async (h) => !("isProcessing" in (await h.state()))),
  seed("entry-bad-message-type", async (h) => history(last(await h.turn("#scenario:chat hi"))).some((e) => e.messageType === "tool-permission-request")),
  cn("entry-bad-message-type", async (h) => history(last(await h.turn("#scenario:chat hi"))).some((e) => !("contextItems" in e))),
  seed("queue-length-stale", async (h) => {
    await h.send("#scenario:chat one");
    await h.send("#scenario:chat two");
    return h.engine.machine.queue.length === 1 && (await h.state()).messageQueueLength === 0;
  }),
  seed("get-mutates-idle", async (h) => JSON.stringify(await h.state()) !== JSON.stringify(await h.state())),
  seed("start-no-circle", async (h) => history(last(await h.turn("go"))).some((e) => e.messageType === "tool-start" && e.content === "Read(README.md)")),
  seed("error-wrong-prefix", async (h) =>
    history(last(await h.turn("#scenario:tool-error go"))).some((e) => e.messageType === "tool-error" && e.content === "Tool error: File not found"),
  ),
  seed("legacy-result-content", async (h) => history(last(await h.turn("go"))).some((e) => e.messageType === "tool-result" && e.content === "● Read")),
  seed("display-toolname", async (h) => history(last(await h.turn("go"))).some((e) => e.toolName === "Read")),
  seed("start-never-resolved", async (h) => {
    const list = history(last(await h.turn("go")));
    return list.some((e, i) => e.messageType === "tool-start" && i < list.length - 1 && !/^tool-(result|error)$/.test(String(list[i + 1]?.messageType)));
  }),
  seed("result-other-arg", async (h) => history(last(await h.turn("go"))).some((e) => e.content === "● Read(other.md)")),
  seed("two-streaming", async (h) =>
    (await h.turn("go")).some((s) => {
      const list = history(s);
      const streaming = list.filter((e) => e.isStreaming === true);
      return streaming.length > 1 || (streaming.length === 1 && last(list).isStreaming !== true);
    }),
  ),
  seed("stream-rewrite", async (h) => {
    const seen = await h.turn("go");
    return seen.some((s, k) => {
      if (k === 0) return false;
      const before = history(seen[k - 1] as Json);
      return history(s).some((e, i) => before[i]?.isStreaming === true && !String(e.content).startsWith(String(before[i]?.content)));
    });
  }),
  seed("history-reorder", async (h) => {
    const first = history(last(await h.turn("#scenario:read-file one")));
    await h.send("#scenario:chat two");
    const now = history(await h.state());
    return first.some((e, i) => JSON.stringify(e) !== JSON.stringify(now[i]));
  }),
  cn("history-reorder", async (h) => {
    // In cn the two tool items swap (replies may be equal from turn to turn).
    const before = history(last(await h.turn("#scenario:read-file one")));
    const now = history(last(await h.turn("#scenario:read-file two")));
    return before.some((e, i) => JSON.stringify(e) !== JSON.stringify(now[i]));
  }),
  seed("drop-queued-message", async (h) => {
    await h.send("#scenario:chat one");
    const r = await h.send("#scenario:chat two");
    const seen = await h.untilIdle();
    return r.status === 200 && !history(last(seen)).some((e) => e.content === "#scenario:chat two");
  }),
  seed(
    "processing-flag-late",
    async (h) => {
      await h.send("#scenario:chat hi");
      const s = await h.state();
      return s.isProcessing === false && last(history(s)).role === "user";
    },
    { clock: "manual" },
  ),
  seed("processing-stuck", async (h) => last(await h.turn("#scenario:chat hi")).isProcessing === true),
  seed("stale-streaming-flag", async (h) => {
    const s = last(await h.turn("#scenario:chat hi"));
    return s.isProcessing === false && last(history(s)).isStreaming === true;
  }),
  cn("stale-streaming-flag", async (h) => {
    const s = last(await h.turn("go"));
    return s.isProcessing === false && states(s).some((t) => t.status === "calling");
  }),
  seed("user-entry-trimmed", async (h) => {
    const sent = "  #scenario:chat cafe\u0301 \n";
    return !history(last(await h.turn(sent))).some((e) => e.content === sent);
  }),
  seed("turn-ends-without-reply", async (h) => last(history(last(await h.turn("go")))).role !== "assistant"),
  cn("turn-ends-without-reply", async (h) => last(history(last(await h.turn("go")))).message.toolCalls !== undefined),
  seed("ack-position-zero", async (h) => (await h.send("#scenario:chat hi")).json.position === 0),
  seed("busy-rejects-message", async (h) => {
    await h.send("#scenario:chat one");
    return (await h.send("#scenario:chat two")).status === 409;
  }),
  seed("lifo-queue", async (h) => {
    await h.send("#scenario:chat A");
    await h.send("#scenario:chat B");
    await h.send("#scenario:chat C");
    const users = history(last(await h.untilIdle()))
      .filter((e) => e.role === "user")
      .map((e) => e.content);
    return users.join() === "#scenario:chat A,#scenario:chat C,#scenario:chat B";
  }),
  seed("false-will-interrupt", async (h) => {
    await h.send("#scenario:chat A");
    const r = await h.send("#scenario:chat B");
    const list = history(last(await h.untilIdle()));
    // A's reply is still there, whole, before B's user entry.
    return r.json.willInterrupt === true && list[1]?.content === "Hello! How can I help?";
  }),
  seed("accept-empty-message", async (h) => (await h.send("")).status === 200),
  seed("accept-non-string", async (h) => {
    const r = await h.send(42);
    return r.status === 200 && history(await h.state()).some((e) => e.content === "42");
  }),
  seed("text-plain-500", async (h) => (await h.post("/message", "hello", "text/plain")).status === 500),
  seed("malformed-json-500", async (h) => (await h.post("/message", '{"message":', "application/json")).status === 500),
  seed("unknown-route-200", async (h) => (await h.get("/nope")).status === 200 && (await h.post("/state")).status === 200),
  seed(
    "bad-input-corrupts",
    async (h) => {
      expect((await h.post("/message", {})).status).toBe(400);
      return (await h.state()).isProcessing === true && !h.engine.machine.isProcessing;
    },
    { clock: "poll" },
  ),
  seed("permission-id-rotates", async (h) => {
    await h.send("#scenario:permission");
    const a = (await h.pending()).pendingPermission.requestId;
    const b = (await h.state()).pendingPermission.requestId;
    return a !== b && (await h.post("/permission", { requestId: b, approved: true })).status === 200;
  }),
  seed("permission-any-id", async (h) => {
    await h.send("#scenario:permission");
    await h.pending();
    return (await h.post("/permission", { requestId: "wrong-1", approved: true })).status === 200;
  }),
  seed("permission-none-200", async (h) => (await h.post("/permission", { requestId: "perm-1", approved: true })).status === 200),
  seed("permission-sticky", async (h) => {
    await h.send("#scenario:permission");
    const id = (await h.pending()).pendingPermission.requestId;
    const r = await h.post("/permission", { requestId: id, approved: true });
    return r.status === 200 && (await h.state()).pendingPermission?.requestId === id;
  }),
  seed("deny-runs-tool", async (h) => {
    await h.send("#scenario:permission");
    const id = (await h.pending()).pendingPermission.requestId;
    expect((await h.post("/permission", { requestId: id, approved: false })).status).toBe(200);
    return history(last(await h.untilIdle())).some((e) => e.toolResult === "Successfully wrote notes.txt");
  }),
  cn("deny-runs-tool", async (h) => {
    await h.send("#scenario:permission");
    const id = (await h.pending()).pendingPermission.requestId;
    expect((await h.post("/permission", { requestId: id, approved: false })).status).toBe(200);
    return states(last(await h.untilIdle())).some((t) => t.status === "done");
  }),
  seed("permission-truthy", async (h) => {
    await h.send("#scenario:permission");
    const id = (await h.pending()).pendingPermission.requestId;
    const r = await h.post("/permission", { requestId: id, approved: "false" });
    return r.status === 200 && history(last(await h.untilIdle())).some((e) => e.toolResult === "Successfully wrote notes.txt");
  }),
  seed("diff-plain-text", async (h) => {
    const r = await h.get("/diff");
    return r.type?.startsWith("text/x-diff") === true && r.text.startsWith("diff --git");
  }),
  seed("exit-ignored", async (h) => (await h.post("/exit")).status === 200 && !h.engine.exited),
  seed("exit-no-body", async (h) => {
    const r = await h.post("/exit");
    return r.status === 204 && r.text === "" && h.engine.exited;
  }),
  seed("get-exit-shuts-down", async (h) => (await h.get("/exit")).status === 200 && h.engine.exited),
  seed("cors-wildcard", async (h) => {
    const origin = { origin: "http://evil.example" };
    const pre = await h.call("OPTIONS", "/message", undefined, { ...origin, "access-control-request-method": "POST" });
    return (await h.get("/state", origin)).headers.get("access-control-allow-origin") === "*" && pre.headers.get("access-control-allow-origin") === "*";
  }),
  seed("parse-any-content-type", async (h) => {
    const r = await h.post("/message", JSON.stringify({ message: "#scenario:chat plain" }), "text/plain");
    return r.status === 200 && history(await h.state()).some((e) => e.content === "#scenario:chat plain");
  }),
  seed("slow-state", async (h) => {
    const t0 = Date.now();
    await h.state();
    return Date.now() - t0 >= 1400;
  }),
  seed(
    "blocking-message",
    async (h) => {
      expect((await h.send("#scenario:chat hi")).status).toBe(200);
      return (await h.state()).isProcessing === false;
    },
    quick,
  ),
  seed(
    "instant-turns",
    async (h) => {
      await h.send("#scenario:read-file hi");
      const s = await h.state();
      return s.isProcessing === false && history(s).length === 5;
    },
    quick,
  ),
  cn("session-id-changes", async (h) => (await h.state()).session.sessionId !== (await h.state()).session.sessionId),
  cn("tool-state-missing", async (h) => history(last(await h.turn("go"))).some((i) => i.message.toolCalls && !i.toolCallStates)),
  cn("tool-status-regress", async (h) => {
    const seen = await h.turn("#scenario:multi-tool go");
    const done = new Set<string>();
    let regressed = false;
    for (const s of seen) {
      for (const t of states(s)) {
        if (t.status === "done") done.add(t.toolCallId);
        else if (done.has(t.toolCallId)) regressed = true;
      }
    }
    return regressed;
  }),
  cn("arguments-unparseable", async (h) =>
    states(last(await h.turn("go"))).some((t) => {
      try {
        JSON.parse(t.toolCall.function.arguments);
        return false;
      } catch {
        return true;
      }
    }),
  ),
  cn("leak-system-prompt", async (h) => history(await h.state())[0]?.message.role === "system"),
  cn("pause-ignored", async (h) => {
    await h.send("#scenario:slow go");
    await h.state();
    const r = await h.post("/pause");
    return r.json.success === true && (await h.state()).isProcessing === true;
  }),
  cn("pause-idle-success", async (h) => (await h.post("/pause")).json.success === true),
];

const engines: ContinueRemoteEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.dispose();
});

function harness(row: Row, faults: string[]): Harness {
  const engine = createContinueRemoteEngine({ clock: "poll", profile: row.profile, ...row.options, faults });
  engines.push(engine);
  return new Harness(engine);
}

describe("continue-remote mock faults: each one deviates on the wire, the plain mock does not", () => {
  it.each(ROWS.map((r) => [r.fault, r.profile, r] as const))("%s (%s)", async (_name, _profile, row) => {
    expect(await row.probe(harness(row, [row.fault])), "with the fault").toBe(true);
    expect(await row.probe(harness(row, [])), "without it").toBe(false);
  });

  it("has a row for every fault but the one proved over a socket", () => {
    const covered = new Set(ROWS.map((r) => r.fault));
    expect(FAULTS.map((f) => f.name).filter((n) => !covered.has(n))).toEqual(["bind-all-interfaces"]);
  });

  const outside = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal);
  it.runIf(outside)("bind-all-interfaces: reachable on a non-loopback address, while the URL stays loopback", async () => {
    const reach = (m: RunningContinueRemoteMock) =>
      new Promise<boolean>((resolve) => {
        const socket = connect({ host: outside!.address, port: Number(new URL(m.url).port), timeout: 2000 });
        socket.on("connect", () => (socket.destroy(), resolve(true)));
        socket.on("error", () => resolve(false));
        socket.on("timeout", () => (socket.destroy(), resolve(false)));
      });
    const faulty = await startContinueRemoteMock({ port: 0, faults: ["bind-all-interfaces"] });
    const plain = await startContinueRemoteMock({ port: 0 });
    try {
      expect(faulty.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await reach(faulty)).toBe(true);
      expect(await reach(plain)).toBe(false);
    } finally {
      await Promise.all([faulty.close(), plain.close()]);
    }
  });
});

describe("continue-remote fault catalogue", () => {
  it("has the 54 faults of the contract, each named once, each naming server checks by their full ids", () => {
    expect(FAULTS).toHaveLength(54);
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(54);
    for (const f of FAULTS) {
      expect(f.violates.length, f.name).toBeGreaterThan(0);
      for (const id of f.violates) expect(SERVER_CHECK_IDS, `${f.name}: ${id}`).toContain(id);
    }
    expect(CONTINUE_REMOTE_FAULTS.map((f) => f.name)).toEqual(FAULTS.map((f) => f.name));
    expect(Object.keys(CONTINUE_REMOTE_FAULTS[0] as object).sort()).toEqual(["description", "name", "violates"]);
  });

  it("proves every server check but the INFO report the plain mock already trips", () => {
    const proved = new Set(FAULTS.flatMap((f) => f.violates));
    expect(SERVER_CHECK_IDS.filter((id) => !proved.has(id))).toEqual(["continue-remote/security/no-auth"]);
  });
});

describe("continue-remote fault selection", () => {
  it("refuses an unknown fault or one of the other profile when the mock starts", async () => {
    expect(() => createContinueRemoteEngine({ faults: ["nope"] })).toThrow(MockOptionError);
    expect(() => createContinueRemoteEngine({ faults: ["nope"] })).toThrow(/unknown fault "nope" \(known: state-html, /);
    expect(() => createContinueRemoteEngine({ profile: "cn-session", faults: ["two-streaming"] })).toThrow(
      /fault "two-streaming" applies to the seed profile only \(this mock runs cn-session\)/,
    );
    expect(() => createContinueRemoteEngine({ faults: ["pause-ignored"] })).toThrow(MockOptionError);
    await expect(startContinueRemoteMock({ port: 0, faults: ["session-id-changes"] })).rejects.toThrow(MockOptionError);
  });

  it("applies a fault a request names in the x-agentwire-fault header or the query, to that request only", async () => {
    const h = new Harness(createContinueRemoteEngine({ clock: "poll" }));
    engines.push(h.engine);
    expect((await h.get("/state", { "x-agentwire-fault": "state-html" })).type).toMatch(/^text\/html/);
    expect((await h.get("/state?fault=queue-length-stale,state-html")).type).toMatch(/^text\/html/);
    expect((await h.get("/state")).type).toBe("application/json; charset=utf-8");
  });

  it("answers 400 JSON {error} to a request naming an unknown fault or one of the other profile", async () => {
    const h = new Harness(createContinueRemoteEngine({ clock: "poll", profile: "cn-session" }));
    engines.push(h.engine);
    const unknown = await h.get("/state", { "x-agentwire-fault": "nope" });
    expect([unknown.status, unknown.json.error]).toEqual([400, expect.stringMatching(/^unknown fault "nope"/)]);
    const wrong = await h.get("/state?fault=stream-rewrite");
    expect([wrong.status, wrong.json.error]).toEqual([400, expect.stringMatching(/applies to the seed profile only/)]);
    expect((await h.get("/state")).status).toBe(200);
  });

  it("leaves the control routes alone", async () => {
    const h = new Harness(createContinueRemoteEngine({ clock: "poll", faults: ["unknown-route-200", "error-html"] }));
    engines.push(h.engine);
    expect((await h.post("/__agentwire/reset")).json).toEqual({ reset: true });
  });

  it("works in the msw handlers, which share the engine", async () => {
    const base = "http://localhost:8123";
    const server = setupServer(...continueRemoteHandlers({ baseUrl: base, faults: ["state-html"] }));
    server.listen({ onUnhandledRequest: "bypass" });
    try {
      expect((await fetch(`${base}/state`)).headers.get("content-type")).toMatch(/^text\/html/);
    } finally {
      server.close();
    }
  });
});
