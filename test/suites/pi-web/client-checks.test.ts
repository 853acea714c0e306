/**
 * The pi-web client checks on recorded transcripts (fixtures/pi-web/transcripts/client/, verdicts
 * in expected.json, written by ../make-client-fixtures.mjs): the clean session passes every check,
 * and each other transcript changes one thing and fails exactly one check. Plus the edge cases
 * the fixtures do not show: no traffic, ids across sockets and after 30 s, dialog timing.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE, type CheckContext, type ProfileDef } from "../../../src/core/checks/check.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import type { CheckResult } from "../../../src/core/verdicts/result.js";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import { parseJsonLines, TranscriptBus, type NewEvent, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { PI_WEB_CLIENT_CHECKS, PI_WEB_CLIENT_FORK_LEVELS } from "../../../src/suites/pi-web/client/index.js";
import { stopNote } from "../../helpers/synthetic-transcript.js";

const DIR = fileURLToPath(new URL("../../../fixtures/pi-web/transcripts/client/", import.meta.url));

const CATALOGUE = [
  "pi-web/client/connect",
  "pi-web/framing/json-object-frames",
  "pi-web/client/command-schema",
  "pi-web/client/known-commands",
  "pi-web/client/unknown-fields",
  "pi-web/client/id-present",
  "pi-web/client/id-unique",
  "pi-web/client/ui-response-id",
  "pi-web/client/ui-response-shape",
  "pi-web/client/ui-response-once",
  "pi-web/client/ui-select-option",
  "pi-web/client/streaming-behavior",
  "pi-web/client/reconnect-resync",
];
const SHOULD = ["unknown-fields", "id-present", "ui-response-once", "ui-select-option", "streaming-behavior", "reconnect-resync"].map((x) => `pi-web/client/${x}`);

function context(profile: ProfileDef = DEFAULT_PROFILE, params: Record<string, unknown> = {}): CheckContext {
  return { protocol: "pi-web", profile, params, validate: (message, value) => registry.validate("pi-web", message, value, profile.name) };
}

function judge(events: TranscriptEvent[], ctx = context()): Record<string, CheckResult> {
  const evaluation = new Evaluation(PI_WEB_CLIENT_CHECKS, ctx);
  for (const e of events) evaluation.observe(e);
  return Object.fromEntries(evaluation.finish().map((r) => [r.id, r]));
}

const fixture = (file: string) => parseJsonLines(readFileSync(join(DIR, file), "utf8"));

/** Events as a bus stamps them; `t` may be given to place an event in time. */
function stamped(list: (NewEvent & { at?: number })[]): TranscriptEvent[] {
  const out: TranscriptEvent[] = [];
  let seq = 0;
  for (const { at, ...e } of list) out.push({ ...e, seq: seq++, t: at ?? seq } as TranscriptEvent);
  return out;
}
const open = (connection = "w1"): NewEvent => ({ kind: "ws-open", probe: "client", connection, url: "ws://127.0.0.1:4781/ws", headers: {} });
const send = (msg: unknown, at?: number, connection = "w1") => ({ kind: "ws-frame" as const, probe: "client", connection, direction: "in" as const, binary: false, data: JSON.stringify(msg), ...(at !== undefined ? { at } : {}) });
const recv = (msg: unknown, at?: number, connection = "w1") => ({ kind: "ws-frame" as const, probe: "client", connection, direction: "out" as const, binary: false, data: JSON.stringify(msg), ...(at !== undefined ? { at } : {}) });

describe("pi-web client check catalogue", () => {
  it("has every client id of contract §4 (plus the §8 resync check), client side, with levels and seed references", () => {
    expect(PI_WEB_CLIENT_CHECKS.map((c) => c.id)).toEqual(CATALOGUE);
    for (const c of PI_WEB_CLIENT_CHECKS) {
      expect(c.side, c.id).toBe("client");
      expect(c.level, c.id).toBe(SHOULD.includes(c.id) ? "SHOULD" : "MUST");
      expect(c.ref.seed).toBe("004_88f3c17269c3c25a.txt");
      expect(c.ref.quote.length).toBeGreaterThan(0);
      expect(c.rule.length).toBeGreaterThan(0);
    }
  });
});

describe("client fixture transcripts", () => {
  const expected = JSON.parse(readFileSync(join(DIR, "expected.json"), "utf8")) as Record<string, Record<string, string>>;

  it("every fixture has expected verdicts, every expectation a fixture, every check a breaking fixture", () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith(".jsonl")).sort();
    expect(Object.keys(expected).sort()).toEqual(files);
    expect(Object.values(expected["clean.jsonl"]!).every((o) => o === "pass")).toBe(true);
    const broken = new Set(Object.values(expected).flatMap((o) => Object.entries(o).filter(([, x]) => x === "fail").map(([id]) => id)));
    expect([...broken].sort()).toEqual([...CATALOGUE].sort());
    for (const f of ["duplicate-pending-id.jsonl", "undocumented-command.jsonl", "invalid-prompt.jsonl", "extra-field.jsonl", "reply-to-notify.jsonl", "reply-unknown-id.jsonl", "reply-value-and-cancelled.jsonl", "reply-twice.jsonl", "select-unlisted-value.jsonl", "mid-run-prompt-without-streaming-behavior.jsonl", "binary-frame.jsonl", "command-no-id.jsonl", "upgrade-wrong-path.jsonl", "upgrade-wrong-token.jsonl"]) {
      expect(files).toContain(f);
    }
  });

  for (const [file, outcomes] of Object.entries(expected)) {
    it(`${file} gives exactly its expected outcomes`, () => {
      const results = judge(fixture(file));
      const got = Object.fromEntries(Object.keys(outcomes).map((id) => [id, results[id]?.outcome]));
      expect(got).toEqual(outcomes);
      expect(Object.keys(results).sort()).toEqual(Object.keys(outcomes).sort());
    });
  }

  it("failure messages name what the client did", () => {
    const msg = (file: string, id: string) => judge(fixture(file))[id]!.message;
    expect(msg("duplicate-pending-id.jsonl", "pi-web/client/id-unique")).toContain('"req_3"');
    expect(msg("undocumented-command.jsonl", "pi-web/client/known-commands")).toContain('"bash"');
    expect(msg("invalid-prompt.jsonl", "pi-web/client/command-schema")).toContain("/message");
    expect(msg("extra-field.jsonl", "pi-web/client/unknown-fields")).toContain('"verbose"');
    expect(msg("reply-to-notify.jsonl", "pi-web/client/ui-response-id")).toContain("fire-and-forget notify");
    expect(msg("reply-unknown-id.jsonl", "pi-web/client/ui-response-id")).toContain('"nope"');
    expect(msg("reply-after-timeout.jsonl", "pi-web/client/ui-response-id")).toContain("500 ms timeout");
    expect(msg("reply-value-and-cancelled.jsonl", "pi-web/client/ui-response-shape")).toContain("value and cancelled");
    expect(msg("confirm-answered-with-value.jsonl", "pi-web/client/ui-response-shape")).toContain("confirm with value instead of confirmed");
    expect(msg("select-unlisted-value.jsonl", "pi-web/client/ui-select-option")).toContain('"delta"');
    expect(msg("upgrade-wrong-token.jsonl", "pi-web/client/connect")).toContain("401");
    // pi's web server bound to loopback refuses an upgrade without Origin, and so does the mock: the message says so
    // and what a client outside a browser does about it.
    expect(msg("upgrade-no-origin.jsonl", "pi-web/client/connect")).toContain("(Origin none) was refused with 403: the upgrade carried no Origin header");
    expect(msg("upgrade-no-origin.jsonl", "pi-web/client/connect")).toMatch(/sends the page's origin \(http:\/\/127\.0\.0\.1:4781\), or .* --set originCheck=false/);
    expect(msg("binary-frame.jsonl", "pi-web/framing/json-object-frames")).toContain("binary");
    expect(msg("no-resync-after-reconnect.jsonl", "pi-web/client/reconnect-resync")).toContain("list_sessions, get_messages");
    const r = judge(fixture("reply-twice.jsonl"))["pi-web/client/ui-response-once"]!;
    expect(r.verdict).toBe("warn");
    expect(r.evidence[0]).toMatchObject({ probe: "client", label: "w1" });
    expect(r.evidence[0]!.excerpt).toContain("extension_ui_response");
  });

  it("the clean session reports its req_N ids", () => {
    expect(judge(fixture("clean.jsonl"))["pi-web/client/id-present"]!.message).toContain("all in the req_N style");
  });

  it("under pi-fork-0.54 levels, undocumented commands and fields are INFO", () => {
    const fork: ProfileDef = { name: "default", description: "levels only", levels: PI_WEB_CLIENT_FORK_LEVELS };
    expect(judge(fixture("undocumented-command.jsonl"), context(fork))["pi-web/client/known-commands"]!.verdict).toBe("info");
    expect(judge(fixture("extra-field.jsonl"), context(fork))["pi-web/client/unknown-fields"]!.verdict).toBe("info");
  });
});

describe("client checks on traffic the fixtures do not show", () => {
  it("no traffic at all: every check incomplete (not exercised)", () => {
    for (const r of Object.values(judge([]))) {
      expect(r.outcome, r.id).toBe("incomplete");
      expect(r.message, r.id).toMatch(/^not exercised/);
    }
  });

  it("traffic of other probes is not the client's", () => {
    const ev = stamped([{ ...send({ type: "bash" }), probe: "tool" }]);
    expect(judge(ev)["pi-web/client/known-commands"]!.outcome).toBe("incomplete");
  });

  it("ids are pending per socket, until a response or 30 s", () => {
    const id = (events: TranscriptEvent[]) => judge(events)["pi-web/client/id-unique"]!.outcome;
    // Two sockets may use the same id.
    expect(id(stamped([open("a"), open("b"), send({ id: "req_1", type: "get_state" }, 1, "a"), send({ id: "req_1", type: "get_state" }, 2, "b")]))).toBe("pass");
    // 30 s without a response: the client gave up, the id is free again.
    expect(id(stamped([open(), send({ id: "req_1", type: "get_state" }, 10), send({ id: "req_1", type: "get_state" }, 30_011)]))).toBe("pass");
    expect(id(stamped([open(), send({ id: "req_1", type: "get_state" }, 10), send({ id: "req_1", type: "get_state" }, 29_000)]))).toBe("fail");
    // A response on another socket does not free it.
    expect(id(stamped([open("a"), open("b"), send({ id: "x", type: "get_state" }, 1, "a"), recv({ type: "response", id: "x", command: "get_state", success: true }, 2, "b"), send({ id: "x", type: "abort" }, 3, "a")]))).toBe("fail");
    // Replies are not commands: a dialog id may repeat.
    const dialog = { type: "extension_ui_request", id: "d1", method: "confirm", title: "t", message: "m" };
    expect(id(stamped([open(), recv(dialog), send({ type: "extension_ui_response", id: "d1", confirmed: true }), send({ id: "d1", type: "get_state" })]))).toBe("pass");
  });

  it("a reply to a dialog sent to another socket counts (requests are broadcast)", () => {
    const dialog = { type: "extension_ui_request", id: "d1", method: "input", title: "Name" };
    const r = judge(stamped([open("a"), open("b"), recv(dialog, 1, "a"), recv(dialog, 2, "b"), send({ type: "extension_ui_response", id: "d1", value: "x" }, 3, "b"), send({ type: "extension_ui_response", id: "d1", cancelled: true }, 4, "a")]));
    expect(r["pi-web/client/ui-response-id"]!.outcome).toBe("pass");
    expect(r["pi-web/client/ui-response-once"]!.outcome).toBe("pass");
    expect(r["pi-web/client/ui-response-shape"]!.outcome).toBe("pass");
  });

  it("a dialog answered inside its timeout passes; an unknown method is no dialog", () => {
    const sel = { type: "extension_ui_request", id: "s1", method: "select", title: "Pick", options: ["a"], timeout: 500 };
    const r = judge(stamped([open(), recv(sel, 100), send({ type: "extension_ui_response", id: "s1", value: "a" }, 590)]));
    expect(r["pi-web/client/ui-response-id"]!.outcome).toBe("pass");
    expect(r["pi-web/client/ui-select-option"]!.outcome).toBe("pass");
    const odd = { type: "extension_ui_request", id: "m1", method: "pickColor", title: "?" };
    expect(judge(stamped([open(), recv(odd), send({ type: "extension_ui_response", id: "m1", value: "red" })]))["pi-web/client/ui-response-id"]!.outcome).toBe("fail");
    // Staying silent is exercised and fine.
    expect(judge(stamped([open(), recv(odd)]))["pi-web/client/ui-response-id"]!.outcome).toBe("pass");
  });

  it("a reply arriving just past its dialog's timeout may have been sent in time: not judged; well past it, it fails", () => {
    const sel = { type: "extension_ui_request", id: "s1", method: "select", title: "Pick", options: ["a"], timeout: 500 };
    const reply = (at: number) => judge(stamped([open(), recv(sel, 100), send({ type: "extension_ui_response", id: "s1", value: "a" }, at)]))["pi-web/client/ui-response-id"]!;
    const soon = reply(640);
    expect([soon.outcome, soon.message]).toEqual(["pass", expect.any(String)]);
    // The request alone holds the rule (an unanswered dialog is never a wrong reply); the crossed reply adds nothing.
    expect(reply(640).message).toBe(judge(stamped([open(), recv(sel, 100)]))["pi-web/client/ui-response-id"]!.message);
    expect(reply(900).outcome).toBe("fail");
  });

  it("streaming-behavior follows the mock's run state; session_changed ends a run; /commands are exempt", () => {
    const sb = (events: TranscriptEvent[]) => judge(events)["pi-web/client/streaming-behavior"]!.outcome;
    // Each prompt arrives well past the crossing grace after the change it is judged by.
    const p = (message: string) => send({ id: message, type: "prompt", message }, 1_000);
    expect(sb(stamped([open(), recv({ type: "agent_start" }), p("x")]))).toBe("fail");
    // Runs took place and the client prompted only between them: allowed, so not applicable.
    expect(sb(stamped([open(), recv({ type: "agent_start" }), recv({ type: "agent_end", messages: [] }), p("x")]))).toBe("skip");
    expect(sb(stamped([open(), recv({ type: "agent_start" }), recv({ type: "session_changed", reason: "new", sessionId: "s", messageCount: 0, leafId: null }), p("x")]))).toBe("skip");
    expect(sb(stamped([open(), recv({ type: "agent_start" }), p("/name")]))).toBe("skip");
    expect(judge(stamped([open(), recv({ type: "agent_start" }), recv({ type: "agent_end", messages: [] })]))["pi-web/client/streaming-behavior"]!.message).toBe(
      "not applicable: runs took place, but the client sent no prompt during one (waiting for the run to end is allowed)",
    );
    // No run at all: the rule was simply not exercised.
    expect(sb(stamped([open(), p("x")]))).toBe("incomplete");
  });

  it("streaming-behavior: a prompt that may have crossed agent_start or agent_end on the wire is not judged", () => {
    const sb = (events: TranscriptEvent[], params: Record<string, unknown> = {}) => judge(events, context(DEFAULT_PROFILE, params))["pi-web/client/streaming-behavior"]!;
    const prompt = (at: number, extra: Record<string, unknown> = {}) => send({ id: `p${at}`, type: "prompt", message: "Hi", ...extra }, at);
    // Arriving 20 ms after agent_start: the client may have sent it while idle. Not a failure, and not a pass.
    const crossed = sb(stamped([open(), recv({ type: "agent_start" }, 100), prompt(120)]));
    expect([crossed.outcome, crossed.message]).toEqual(["incomplete", expect.stringMatching(/within 250 ms of an update from the mock .* may have been sent before the client read it/)]);
    // 300 ms after it the client had time to read it: held to the run.
    expect(sb(stamped([open(), recv({ type: "agent_start" }, 100), prompt(400)])).outcome).toBe("fail");
    // The grace is a parameter of the run.
    expect(sb(stamped([open(), recv({ type: "agent_start" }, 100), prompt(120)]), { crossingGraceMs: 10 }).outcome).toBe("fail");
    // A reply to a dialog the mock sent after agent_start shows the client had read it: held to the run at once.
    const dialog = { type: "extension_ui_request", id: "c1", method: "confirm", title: "Go?" };
    const answered = [open(), recv({ type: "agent_start" }, 100), recv(dialog, 105), send({ type: "extension_ui_response", id: "c1", confirmed: true }, 110), prompt(120)];
    expect(sb(stamped(answered)).outcome).toBe("fail");
    // Just after agent_end: the run may still have been on when the client sent it, with streamingBehavior; fine either way.
    const end = [open(), recv({ type: "agent_start" }, 100), recv({ type: "agent_end", messages: [] }, 500)];
    expect(sb(stamped([...end, prompt(510, { streamingBehavior: "followUp" })])).outcome).toBe("pass");
    // Without it: 10 ms before agent_end it is still inside the run; 10 ms after, maybe idle, maybe not; after the
    // grace, plainly idle.
    expect(sb(stamped([...end.slice(0, 2), prompt(490)])).outcome).toBe("fail");
    expect(sb(stamped([...end, prompt(510)])).outcome).toBe("incomplete");
    expect(sb(stamped([...end, prompt(900)])).outcome).toBe("skip");
  });

  it("streaming-behavior: the mock's run note rules; a run that ended with no socket open, or at a shutdown, is over", () => {
    const sb = (events: TranscriptEvent[]) => judge(events)["pi-web/client/streaming-behavior"]!;
    const note = (running: boolean, at: number) => ({ kind: "note" as const, probe: "client", name: "pi-web/run", value: { running }, at });
    const close = (connection: string, at: number, extra: Record<string, unknown> = {}) => ({ kind: "ws-close" as const, probe: "client", connection, at, ...extra });
    const prompt = (at: number, connection = "w2") => send({ id: `p${at}`, type: "prompt", message: "Hi" }, at, connection);
    // The client left after agent_start; the run ended with no socket open (no agent_end reached anyone): a plain
    // prompt after reconnecting is no prompt during a run.
    const left = [open(), note(true, 100), recv({ type: "agent_start" }, 100), close("w1", 200, { code: 1000 }), note(false, 4_000), { ...open("w2"), at: 5_000 }];
    const after = sb(stamped([...left, prompt(5_500)]));
    expect([after.outcome, after.message]).toEqual(["skip", expect.stringContaining("runs took place, but the client sent no prompt during one")]);
    // Before the run ended it was one.
    expect(sb(stamped([...left.slice(0, 4), { ...open("w2"), at: 1_000 }, prompt(1_500)])).outcome).toBe("fail");
    // The note also ends a run whose agent_end was never sent.
    expect(sb(stamped([open(), note(true, 100), recv({ type: "agent_start" }, 100), note(false, 500), prompt(1_000, "w1")])).outcome).toBe("skip");
    // A transcript without notes: the mock's shutdown (1001, or 1012 for a restart) ends the run; a client's own 1001
    // (a browser leaving the page) does not.
    const started = [open(), recv({ type: "agent_start" }, 100)];
    for (const shut of [{ code: 1001, reason: "server shutting down" }, { code: 1012, reason: "restart", by: "kit" }]) {
      expect(sb(stamped([...started, close("w1", 300, shut), { ...open("w2"), at: 400 }, prompt(1_000)])).outcome, shut.reason).toBe("skip");
    }
    expect(sb(stamped([...started, close("w1", 300, { code: 1001 }), { ...open("w2"), at: 400 }, prompt(1_000)])).outcome).toBe("fail");
  });

  it("dialogs the client left unanswered make the reply rules not applicable; no dialog at all leaves them not exercised", () => {
    const select = { type: "extension_ui_request", id: "d1", method: "select", title: "Pick one", options: ["a", "b"] };
    const r = judge(stamped([open(), recv(select), send({ id: "req_1", type: "get_state" })]));
    for (const id of ["ui-response-shape", "ui-response-once", "ui-select-option"]) expect(r[`pi-web/client/${id}`]!.outcome, id).toBe("skip");
    expect(r["pi-web/client/ui-select-option"]!.message).toBe("not applicable: the mock sent 1 select request(s) and the client answered none (leaving a dialog unanswered is allowed)");
    const none = judge(stamped([open(), send({ id: "req_1", type: "get_state" })]));
    for (const id of ["ui-response-shape", "ui-response-once", "ui-select-option"]) expect(none[`pi-web/client/${id}`]!.outcome, id).toBe("incomplete");
  });

  it("a non-string id, an empty id and a binary frame recorded as base64 are judged, each mistake by one check", () => {
    const r = judge(stamped([open(), send({ id: "", type: "get_state" }), send({ id: 7, type: "abort" })]));
    expect(r["pi-web/client/id-present"]!.outcome).toBe("fail");
    expect(r["pi-web/client/id-present"]!.message).toContain('get_state command has an empty id, which does not tell its response from another command\'s');
    expect(r["pi-web/client/id-present"]!.message).not.toContain("violations");
    // id 7 breaks the abort schema: command-schema owns it, id-present does not count it again.
    expect(r["pi-web/client/command-schema"]!.outcome).toBe("fail");
    expect(r["pi-web/client/command-schema"]!.message).toContain("/id");
    const only7 = judge(stamped([open(), send({ id: 7, type: "abort" })]))["pi-web/client/id-present"]!;
    expect([only7.outcome, only7.message]).toEqual(["skip", expect.stringContaining("not judged: pi-web/client/command-schema failed on abort command with id 7")]);
    // An undocumented command's id is no schema's: id-present judges it.
    expect(judge(stamped([open(), send({ id: 7, type: "bash" })]))["pi-web/client/id-present"]!.message).toContain("bash command has id 7, not a string");
    // A missing id: the response cannot be told apart (the id is optional on the wire, hence SHOULD).
    const none = judge(stamped([open(), send({ type: "get_state" })]))["pi-web/client/id-present"]!;
    expect([none.verdict, none.message]).toEqual(["warn", expect.stringContaining("get_state command has no id: its response cannot be matched to it")]);
    const b64 = btoa(JSON.stringify({ id: "req_1", type: "get_state", extra: 1 }));
    const r2 = judge(stamped([open(), { kind: "ws-frame", probe: "client", connection: "w1", direction: "in", binary: true, data: b64 }]));
    expect(r2["pi-web/framing/json-object-frames"]!.outcome).toBe("fail");
    expect(r2["pi-web/client/unknown-fields"]!.outcome).toBe("fail");
  });

  it("client/connect: a foreign Origin's 403 names the allow-list and how to extend it", () => {
    const upgrade = (origin: string | undefined, status: number): NewEvent[] => [
      { kind: "http-request", probe: "client", exchange: "u1", label: "ws-upgrade", method: "GET", url: "/ws", path: "/ws", headers: { host: "127.0.0.1:4781", upgrade: "websocket", ...(origin ? { origin } : {}) } },
      { kind: "http-response", probe: "client", exchange: "u1", label: "ws-upgrade", status, headers: {} },
    ];
    const foreign = judge(stamped(upgrade("http://localhost:5173", 403)))["pi-web/client/connect"]!;
    expect(foreign.outcome).toBe("fail");
    expect(foreign.message).toContain(`Origin "http://localhost:5173" is not on the mock's allow-list`);
    expect(foreign.message).toContain(`--set allowedOrigins='["http://localhost:5173"]'`);
    // With the mock's Origin check off, an upgrade without Origin is accepted and passes.
    expect(judge(stamped([...upgrade(undefined, 101), open()]))["pi-web/client/connect"]!.outcome).toBe("pass");
  });

  it("a server shutdown without a reconnect makes reconnect-resync not applicable (reconnecting is optional)", () => {
    const r = judge(stamped([open(), send({ id: "req_1", type: "get_state" }), { kind: "ws-close", probe: "client", connection: "w1", code: 1001, reason: "server shutting down" }]));
    expect(r["pi-web/client/reconnect-resync"]!.outcome).toBe("skip");
    expect(r["pi-web/client/reconnect-resync"]!.message).toContain("the client did not reconnect, which is allowed");
    // A client's own close, then a new socket, is no reconnect after a shutdown.
    const own = judge(stamped([open(), { kind: "ws-close", probe: "client", connection: "w1", code: 1000 }, open("w2")]));
    expect(own["pi-web/client/reconnect-resync"]!.outcome).toBe("incomplete");
  });

  it("reconnect-resync: a restart (1012) the mock made counts as a shutdown; the resync needs all three commands", () => {
    const restart = { kind: "ws-close" as const, probe: "client", connection: "w1", code: 1012, reason: "service restart", by: "kit" as const };
    const resync = (types: string[]) =>
      judge(stamped([open(), send({ id: "req_1", type: "get_state" }), restart, open("w2"), ...types.map((type, i) => send({ id: `r${i}`, type }, undefined, "w2"))]))[
        "pi-web/client/reconnect-resync"
      ]!;
    expect(resync(["get_state", "list_sessions", "get_messages"]).outcome).toBe("pass");
    const partial = resync(["get_state", "get_messages"]);
    expect([partial.outcome, partial.message]).toEqual(["fail", expect.stringContaining("never sent list_sessions (nothing is replayed")]);
  });

  it("reconnect-resync in a run the kit stopped mid-resync: what the client had not sent yet is not judged", () => {
    const restart = { kind: "ws-close" as const, probe: "client", connection: "w1", code: 1012, reason: "service restart", by: "kit" as const };
    const midway = [open(), send({ id: "req_1", type: "get_state" }), restart, open("w2"), send({ id: "r1", type: "get_state" }, undefined, "w2"), stopNote("Ctrl-C")];
    // The client ends as told, or the stopping mock closes its socket: neither is a resync left undone.
    for (const end of [{ kind: "ws-close" as const, probe: "client", connection: "w2", code: 1000 }, { ...restart, connection: "w2", code: 1001, reason: "server shutting down" }, undefined]) {
      const r = judge(stamped([...midway, ...(end ? [end] : [])]))["pi-web/client/reconnect-resync"]!;
      expect([r.outcome, r.message]).toEqual(["incomplete", expect.stringContaining("the reconnected client had not sent list_sessions, get_messages yet when the kit stopped the run (Ctrl-C)")]);
    }
    // The client closed its new socket unsynced before the stop: that stays its failure.
    const closedFirst = judge(stamped([...midway.slice(0, -1), { kind: "ws-close", probe: "client", connection: "w2", code: 1000 }, stopNote()]))["pi-web/client/reconnect-resync"]!;
    expect(closedFirst.outcome).toBe("fail");
    // The stopping mock's shutdown close invites no reconnect: the rule has nothing to judge, it does not skip.
    const stoppedOnly = judge(stamped([open(), send({ id: "req_1", type: "get_state" }), stopNote(), { kind: "ws-close", probe: "client", connection: "w1", code: 1001, reason: "server shutting down", by: "kit" }]));
    expect(stoppedOnly["pi-web/client/reconnect-resync"]!.outcome).toBe("incomplete");
  });

  it("reconnect-resync: a reconnected socket the mock cut at its own cap before the resync is not judged", () => {
    const restart = { kind: "ws-close" as const, probe: "client", connection: "w1", code: 1012, reason: "service restart", by: "kit" as const };
    const cause = "limit: a message over 104857600 bytes (the kit's cap), from the client, not read";
    const cut = { kind: "ws-close" as const, probe: "client", connection: "w2", code: 1006, by: "kit" as const, cause };
    const r = judge(stamped([open(), send({ id: "req_1", type: "get_state" }), restart, open("w2"), send({ id: "r1", type: "get_state" }, undefined, "w2"), cut]))[
      "pi-web/client/reconnect-resync"
    ]!;
    expect([r.outcome, r.message]).toEqual(["incomplete", expect.stringContaining(`had not sent list_sessions, get_messages yet when the mock cut socket w2 at its own limit (${cause}`)]);
  });
});
