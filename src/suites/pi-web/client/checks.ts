/**
 * `pi-web/client/*` (contract §3 rules 28–32, §4): what a client sends the mock over the
 * WebSocket, judged from the mock's recording of it. Frames from the client ("in") are judged;
 * frames the mock sent ("out") tell the checks what the client was answering: the dialogs it was
 * asked, whether a run was in progress, which ids got their response.
 *
 * Each rule has one owner, so one client mistake fails one check: the frame check owns bytes
 * that are not one JSON object, known-commands owns the `type`, unknown-fields owns keys nobody
 * documented (the schema checks judge a copy without them), id-present owns whether a command
 * has a usable id (a documented command's non-string id breaks its schema: command-schema's),
 * ui-response-id owns reply ids.
 */
import { at, excerpt, type CheckContext, type CheckDef, type Level, type Tally } from "../../../core/checks/check.js";
import { clientFrameRules } from "../../../core/checks/client-frame-rule.js";
import { acrossStates, crossedReason, crossingGrace } from "../../../core/checks/crossing.js";
import { checkMaker } from "../../../core/checks/define-check.js";
import { tallyChecks } from "../../../core/checks/tally-rule.js";
import type { RunStop } from "../../../core/checks/run-stop.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import type { TranscriptEvent } from "../../../core/transcript/transcript.js";
import { tap } from "../../../core/views/hooks.js";
import { CLIENT_FRAMES, CLIENT_PROBE, isShutdownClose, MockView, parseFrame, typeOf, type Message } from "./traffic.js";
import {
  COMMAND_FIELDS,
  COMMANDS,
  commandSchema,
  DIALOG_ANSWER_KEY,
  IMAGE_FIELDS,
  isCommandType,
  isDialogMethod,
  REQ_N,
  REQUEST_TIMEOUT_MS,
  SEED,
  UI_RESPONSE,
  UI_RESPONSE_FIELDS,
  UI_RESPONSE_SCHEMA,
} from "./vocabulary.js";
import { ownEntry } from "../../../core/checks/check-helpers.js";
import { cutByKit } from "../../../core/transport/ws-limits.js";

type Request = Extract<TranscriptEvent, { kind: "http-request" }>;

const clientCheck = checkMaker({ seed: SEED, side: "client" });

/**
 * Rules over the client's frames (`m`: the frame's JSON object, if it is one), each check following what the mock
 * told its clients: the dialogs it asked, whether a run was in progress.
 */
const clientRule = clientFrameRules(clientCheck, {
  view: CLIENT_FRAMES,
  probe: CLIENT_PROBE,
  follow: {
    make: (ctx) => new MockView(crossingGrace(ctx)),
    frame: (view, ev) => view.observe(ev),
    close: (view, ev) => view.close(ev),
    note: (view, ev) => view.note(ev),
  },
});

/** A client message that is a command (any object whose `type` is not the reply type, r3). */
function isCommand(m: Message): boolean {
  return m.type !== UI_RESPONSE;
}

/** The message without undocumented keys, so schema checks leave those to unknown-fields. */
function documentedOnly(m: Message, fields: readonly string[]): Message {
  const out: Message = {};
  for (const k of fields) if (Object.hasOwn(m, k)) out[k] = m[k];
  if (Array.isArray(out.images)) {
    out.images = out.images.map((img: unknown) =>
      img !== null && typeof img === "object" && !Array.isArray(img) ? documentedOnly(img as Message, IMAGE_FIELDS) : img,
    );
  }
  return out;
}

function commandFields(type: string): string[] {
  return ["type", "id", ...(ownEntry(COMMAND_FIELDS, type) ?? [])];
}

const timeoutOf = (ctx: CheckContext): number =>
  typeof ctx.params.clientRequestTimeoutMs === "number" ? ctx.params.clientRequestTimeoutMs : REQUEST_TIMEOUT_MS;


/**
 * Why a reply rule did not arise although the mock asked: a dialog may be left unanswered (it
 * expires, or waits for the user) — §3 r31 limits replies, it does not demand one.
 */
function unansweredDialogs(view: MockView, methods: (m: string) => boolean, what: string): string | undefined {
  const asked = [...view.requests.values()].filter((r) => methods(r.method)).length;
  return asked > 0 ? `the mock sent ${asked} ${what} request(s) and the client answered none (leaving a dialog unanswered is allowed)` : undefined;
}

// ---------------------------------------------------------------------------------------------

const UPGRADE_REFUSAL: Record<number, string> = {
  400: "the mock refused the query (an unknown ?scenario=, ?fault= or ?framing=)",
  404: "the path is not /ws",
  401: "the token is missing or wrong",
};

/**
 * Why a 403 refused the upgrade, and what to do about it. §1: pi's web server bound to loopback keeps an Origin
 * allow-list (its own origins plus --web-allowed-origin) and refuses an upgrade without Origin too; the mock does the
 * same by default. A client outside a browser must send an Origin itself to reach such a server.
 */
function originRefusal(req: Request): string {
  const origin = req.headers["origin"];
  const host = req.headers["host"];
  const page = host ? `http://${host}` : "http://<host>:<port>";
  if (origin === undefined) {
    return (
      "the upgrade carried no Origin header, which pi's web server bound to loopback refuses, as the mock does by default; " +
      `a client outside a browser sends the page's origin (${page}), or the mock's check is turned off with --set originCheck=false`
    );
  }
  return (
    `Origin ${JSON.stringify(origin)} is not on the mock's allow-list (by default the loopback origins of its port, such as ${page}); ` +
    `allow it with --set allowedOrigins='["${origin}"]' (agentwire mock: --allow-origin ${origin})`
  );
}

function isUpgradeRequest(e: Request): boolean {
  return /websocket/i.test(e.headers["upgrade"] ?? "") || e.label === "ws-upgrade" || e.label === "upgrade";
}

function pathOf(url: string): string {
  try {
    return new URL(url, "ws://mock.invalid").pathname;
  } catch {
    return url.split("?")[0] ?? url;
  }
}

// Upgrades the mock refused are HTTP exchanges, not connections: this rule reads the events themselves.
export const connectCheck = tallyChecks(clientCheck)({
  id: "pi-web/client/connect",
  pass: "every WebSocket upgrade the client attempted was on /ws and accepted",
  untested: "the client never opened a WebSocket to the mock",
  state: () => new Map<string, Request>(),
  observe: (t, upgrades) =>
    tap(["ws-open", "http-request", "http-response"], (e) => {
      if (e.probe !== CLIENT_PROBE) return;
      if (e.kind === "ws-open") {
        const path = pathOf(e.url);
        if (path !== "/ws") t.fail("an upgrade on /ws", `WebSocket opened on ${JSON.stringify(path)}`, at(e, { label: e.connection, excerpt: excerpt(e.url) }));
        else t.ok();
      } else if (e.kind === "http-request" && isUpgradeRequest(e)) {
        upgrades.set(e.exchange, e);
        t.ok();
      } else if (e.kind === "http-response" && upgrades.has(e.exchange)) {
        const req = upgrades.get(e.exchange)!;
        upgrades.delete(e.exchange);
        if (e.status !== 101) {
          const why = e.status === 403 ? originRefusal(req) : (UPGRADE_REFUSAL[e.status] ?? "refused");
          const origin = req.headers["origin"];
          t.fail(
            "a 101 upgrade on /ws with the mock's token and an allowed Origin",
            `upgrade on ${JSON.stringify(req.path)} (Origin ${origin === undefined ? "none" : JSON.stringify(origin)}) was refused with ${e.status}: ${why}`,
            at(req, { excerpt: excerpt(req.path) }),
          );
        }
      }
    }),
});

export const jsonObjectFramesCheck = clientRule({
  // The catalogue lists this rule for both sides; this is its client half (the server suite has
  // the server half under the same id, side "server").
  id: "pi-web/framing/json-object-frames",
  pass: "every client frame was a text frame with one JSON object",
  untested: "the client sent no frame",
  client({ ev, proof }, t) {
    if (ev.binary) return t.fail("a text frame", "the client sent a binary frame", proof());
    const p = parseFrame(ev);
    if (!p.ok) return t.fail("one JSON object per text frame", `a client frame ${p.problem}`, proof());
    t.ok();
  },
});

export const knownCommandsCheck = clientRule({
  id: "pi-web/client/known-commands",
  pass: "every client message had a documented type",
  untested: "the client sent no JSON object",
  client({ m, proof }, t) {
    if (!m) return;
    const type = m.type;
    if (typeof type !== "string") return t.fail(`a string type (${[...COMMANDS, UI_RESPONSE].join(", ")})`, "a client message has no string type", proof());
    if (!isCommandType(type) && type !== UI_RESPONSE) return t.fail(`one of ${[...COMMANDS, UI_RESPONSE].join(", ")}`, `the client sent an undocumented command type ${JSON.stringify(type)}`, proof());
    t.ok();
  },
});

export const commandSchemaCheck = clientRule({
  id: "pi-web/client/command-schema",
  pass: "every command validated against its schema",
  untested: "the client sent no documented command",
  client({ m, proof }, t, _s, ctx) {
    const type = m && typeOf(m);
    if (!m || !isCommandType(type)) return;
    const result = ctx.validate(commandSchema(type), documentedOnly(m, commandFields(type)));
    if (!result.ok) return t.fail(`a valid ${type} command`, `${type} command is invalid: ${formatSchemaErrors(result.errors)}`, proof());
    t.ok();
  },
});

export const unknownFieldsCheck = clientRule({
  id: "pi-web/client/unknown-fields",
  pass: "no client message carried an undocumented field",
  untested: "the client sent no command or reply of a documented type",
  client({ m, proof }, t) {
    const type = m && typeOf(m);
    if (!m || !type || (!isCommandType(type) && type !== UI_RESPONSE)) return;
    const fields = type === UI_RESPONSE ? UI_RESPONSE_FIELDS : commandFields(type);
    const extra = Object.keys(m).filter((k) => !fields.includes(k));
    if (Array.isArray(m.images)) {
      m.images.forEach((img: unknown, i: number) => {
        if (img !== null && typeof img === "object" && !Array.isArray(img)) {
          for (const k of Object.keys(img)) if (!IMAGE_FIELDS.includes(k)) extra.push(`images[${i}].${k}`);
        }
      });
    }
    if (extra.length > 0) return t.fail(`only ${fields.join(", ")}`, `${type} carries undocumented field(s) ${extra.map((k) => JSON.stringify(k)).join(", ")}`, proof());
    t.ok();
  },
});

/** Why a command needs an id although the wire makes it optional (§3 r3: responses are matched by id only). */
const UNCORRELATED = "its response cannot be matched to it (responses are matched by id only, and come in any order)";

export const idPresentCheck = clientRule({
  id: "pi-web/client/id-present",
  pass: ({ commands, reqN }) => `every command had a non-empty string id (${reqN === commands ? "all" : `${reqN} of ${commands}`} in the req_N style)`,
  untested: "the client sent no command",
  state: () => ({ commands: 0, reqN: 0 }),
  client({ ev, m, proof }, t, s) {
    if (!m || !isCommand(m)) return;
    const id = m.id;
    const type = typeOf(m);
    const what = `${type ?? "typeless"} command`;
    // A documented command's id that is not a string breaks its schema: command-schema fails it, once.
    if (id !== undefined && typeof id !== "string" && isCommandType(type)) return t.knockOn("pi-web/client/command-schema", `${what} with id ${excerpt(id)} (seq ${ev.seq})`);
    s.commands++;
    if (id === undefined) return t.fail("a non-empty string id", `${what} has no id: ${UNCORRELATED}`, proof());
    if (typeof id !== "string") return t.fail("a non-empty string id", `${what} has id ${excerpt(id)}, not a string: ${UNCORRELATED}`, proof());
    if (id === "") return t.fail("a non-empty string id", `${what} has an empty id, which does not tell its response from another command's`, proof());
    if (REQ_N.test(id)) s.reqN++;
    t.ok();
  },
});

export const idUniqueCheck = clientRule({
  id: "pi-web/client/id-unique",
  pass: "no command reused a pending id",
  untested: "the client sent no command with an id",
  /** connection → id → when it was sent and as which type. */
  state: (ctx) => ({ limit: timeoutOf(ctx), pending: new Map<string, Map<string, { t: number; type: string; seq: number }>>() }),
  close(ev, _c, _t, s) {
    s.pending.delete(ev.connection);
  },
  mock({ ev, m }, _t, s) {
    if (m?.type === "response" && typeof m.id === "string") s.pending.get(ev.connection)?.delete(m.id);
  },
  client({ ev, m, proof }, t, s) {
    if (!m || !isCommand(m) || typeof m.id !== "string") return;
    let mine = s.pending.get(ev.connection);
    if (!mine) s.pending.set(ev.connection, (mine = new Map()));
    const before = mine.get(m.id);
    const type = typeOf(m) ?? "typeless";
    if (before && ev.t - before.t < s.limit) {
      t.fail(
        "a fresh id while the earlier command is pending",
        `${type} reuses id ${JSON.stringify(m.id)} of a ${before.type} still pending (sent ${Math.round(ev.t - before.t)} ms earlier, seq ${before.seq}, no response yet)`,
        proof(),
      );
    } else t.ok();
    mine.set(m.id, { t: ev.t, type, seq: ev.seq });
  },
});

/**
 * The dialog a reply answers, or why it answers none (`crossed`: it arrived past the request's timeout, but by less than
 * the crossing grace, so it may have been sent in time).
 */
function replyTarget(view: MockView, m: Message, t: number, grace: number): { ok: true; method: string } | { ok: false; why: string; crossed?: boolean } {
  const id = m.id;
  if (typeof id !== "string") return { ok: false, why: id === undefined ? "has no id" : `has id ${JSON.stringify(id)}, not a string` };
  const req = view.requests.get(id);
  if (!req) return { ok: false, why: `answers ${JSON.stringify(id)}, which no extension_ui_request named` };
  if (!isDialogMethod(req.method)) return { ok: false, why: `answers ${JSON.stringify(id)}, a fire-and-forget ${req.method} request` };
  if (req.timeoutMs !== undefined && t - req.t > req.timeoutMs) {
    return { ok: false, why: `answers ${req.method} ${JSON.stringify(id)} ${Math.round(t - req.t)} ms after it was sent, past its ${req.timeoutMs} ms timeout`, crossed: t - req.t <= req.timeoutMs + grace };
  }
  return { ok: true, method: req.method };
}

export const uiResponseIdCheck = clientRule({
  id: "pi-web/client/ui-response-id",
  pass: "every reply answered a live dialog request (and no fire-and-forget request was answered)",
  untested: "the mock sent no extension UI request and the client sent no reply",
  mock({ m }, t) {
    // A request left unanswered holds the rule too: no reply is never a wrong one.
    if (m?.type === "extension_ui_request") t.ok();
  },
  client({ ev, m, view, proof }, t) {
    if (!m || m.type !== UI_RESPONSE) return;
    const target = replyTarget(view, m, ev.t, view.run.grace);
    if (!target.ok && target.crossed) return t.untestable(`extension_ui_response ${target.why}, by less than the crossing grace (${view.run.grace} ms): it may have been sent in time (not judged)`);
    if (!target.ok) return t.fail("the id of a pending dialog request (select/confirm/input/editor)", `extension_ui_response ${target.why}`, proof());
    t.ok();
  },
});

const ANSWER_KEYS = ["value", "confirmed", "cancelled"] as const;

export const uiResponseShapeCheck = clientRule({
  id: "pi-web/client/ui-response-shape",
  pass: "every reply carried exactly one answer key of its method's kind",
  untested: "the client sent no extension_ui_response",
  optional: (_s, view) => unansweredDialogs(view, isDialogMethod, "dialog"),
  client({ m, view, proof }, t, _s, ctx) {
    if (!m || m.type !== UI_RESPONSE) return;
    const keys = ANSWER_KEYS.filter((k) => Object.hasOwn(m, k));
    const problems: string[] = [];
    if (keys.length !== 1) problems.push(keys.length === 0 ? "has no value, confirmed or cancelled" : `has ${keys.join(" and ")} together`);
    if (Object.hasOwn(m, "value") && typeof m.value !== "string") problems.push(`value is ${excerpt(m.value)}, not a string`);
    if (Object.hasOwn(m, "confirmed") && typeof m.confirmed !== "boolean") problems.push(`confirmed is ${excerpt(m.confirmed)}, not a boolean`);
    if (Object.hasOwn(m, "cancelled") && m.cancelled !== true) problems.push(`cancelled is ${excerpt(m.cancelled)}, not true`);
    const req = typeof m.id === "string" ? view.requests.get(m.id) : undefined;
    if (problems.length === 0 && req && isDialogMethod(req.method) && keys[0] !== "cancelled") {
      const want = DIALOG_ANSWER_KEY[req.method]!;
      if (keys[0] !== want) problems.push(`answers a ${req.method} with ${keys[0]} instead of ${want}`);
    }
    if (problems.length === 0) {
      // The schema sees the documented keys only, with a stand-in for a bad id (both judged elsewhere).
      const copy = documentedOnly(m, UI_RESPONSE_FIELDS);
      if (typeof copy.id !== "string" || copy.id === "") copy.id = "id";
      const result = ctx.validate(UI_RESPONSE_SCHEMA, copy);
      if (!result.ok) problems.push(`does not validate: ${formatSchemaErrors(result.errors)}`);
    }
    if (problems.length > 0) return t.fail("exactly one of value (string), confirmed (boolean), cancelled (true), matching the method", `extension_ui_response ${problems.join("; ")}`, proof());
    t.ok();
  },
});

export const uiResponseOnceCheck = clientRule({
  id: "pi-web/client/ui-response-once",
  pass: "no dialog was answered twice",
  untested: "the client answered no dialog request",
  optional: (_s, view) => unansweredDialogs(view, isDialogMethod, "dialog"),
  // Per connection: dialog id → replies so far.
  state: () => new Map<string, Map<string, number>>(),
  client({ ev, m, view, proof }, t, seen) {
    if (!m || m.type !== UI_RESPONSE || typeof m.id !== "string") return;
    const req = view.requests.get(m.id);
    if (!req || !isDialogMethod(req.method)) return;
    let mine = seen.get(ev.connection);
    if (!mine) seen.set(ev.connection, (mine = new Map()));
    const n = (mine.get(req.id) ?? 0) + 1;
    mine.set(req.id, n);
    if (n === 2) return t.fail("one reply per dialog", `${req.method} ${JSON.stringify(req.id)} was answered again`, proof());
    t.ok();
  },
});

export const uiSelectOptionCheck = clientRule({
  id: "pi-web/client/ui-select-option",
  pass: "every select was answered with one of its options (or cancelled)",
  untested: "the client answered no select request",
  optional: (_s, view) => unansweredDialogs(view, (m) => m === "select", "select"),
  client({ m, view, proof }, t) {
    if (!m || m.type !== UI_RESPONSE || typeof m.id !== "string") return;
    const req = view.requests.get(m.id);
    if (!req || req.method !== "select") return;
    const value = m.value;
    if (typeof value === "string" && !(req.options ?? []).includes(value)) {
      return t.fail(`one of ${JSON.stringify(req.options ?? [])}`, `select ${JSON.stringify(req.id)} answered ${JSON.stringify(value)}, not a listed option`, proof());
    }
    t.ok();
  },
});

export const streamingBehaviorCheck = clientRule({
  id: "pi-web/client/streaming-behavior",
  pass: "every prompt sent mid-run carried streamingBehavior",
  untested: "the client sent no prompt during a run",
  // Prompting mid-run is the client's choice: one that waits for the run to end never needs streamingBehavior.
  optional: (_s, view) => (view.sawRun ? "runs took place, but the client sent no prompt during one (waiting for the run to end is allowed)" : undefined),
  client({ ev, m, view, proof }, t) {
    if (m?.type !== "prompt") return;
    const message = m.message;
    if (typeof message === "string" && message.startsWith("/")) return;
    // A prompt crossing agent_start (or agent_end) on the wire was written against the other state.
    const states = view.run.plausible(ev.t);
    if (!states.includes(true)) return;
    const r = acrossStates(states, (running) => (running && m.streamingBehavior === undefined ? "no streamingBehavior" : undefined));
    if (r.verdict === "unsure") return t.untestable(crossedReason("a prompt without streamingBehavior", view.run.grace));
    if (r.verdict === "fail") return t.fail('streamingBehavior "steer" or "followUp"', "a prompt sent during a run has no streamingBehavior (the server rejects it)", proof());
    t.ok();
  },
});

/** The commands a client sends to learn the state again after a reconnect (§8 case 18). */
export const RESYNC_COMMANDS = ["get_state", "list_sessions", "get_messages"] as const;

/** What the resync rule follows: whether the mock just shut down, and the sockets opened after it. */
interface Resyncs {
  shutdown: boolean;
  shutdowns: number;
  /** Reconnected sockets and what they have sent so far. */
  open: Map<string, { sent: Set<string>; event: TranscriptEvent }>;
}

/**
 * A reconnected socket's verdict, when it closes or the run ends. A close the kit's stop came before, the end of a
 * stopped run, and the mock's cut of the socket at its own cap (`cut`) leave what it had not sent yet unjudged: the
 * client was cut off while it might still resync.
 */
function settle(s: Resyncs, connection: string, t: Tally, stop: RunStop, at_ = Infinity, cut?: string): void {
  const c = s.open.get(connection);
  if (!c) return;
  s.open.delete(connection);
  const missing = RESYNC_COMMANDS.filter((x) => !c.sent.has(x));
  if (missing.length === 0) return t.ok();
  if (cut !== undefined) return t.untestable(`the reconnected client had not sent ${missing.join(", ")} yet when the mock cut socket ${connection} at its own limit (${cut}; not judged)`);
  if (stop.hadStopped(at_)) return t.untestable(stop.reason(`the reconnected client had not sent ${missing.join(", ")} yet`));
  t.fail(`${RESYNC_COMMANDS.join(", ")} on the new socket`, `after reconnecting, the client never sent ${missing.join(", ")} (nothing is replayed: the state, the session list and the history are fetched again)`, at(c.event));
}

export const reconnectResyncCheck = clientRule({
  id: "pi-web/client/reconnect-resync",
  pass: "after reconnecting, the client resynced with get_state, list_sessions and get_messages",
  untested: "the client did not reconnect after a server shutdown",
  // §1: reconnecting is optional (the fork client never reconnects); only a client that does must resync.
  optional: (s) => (s.shutdowns > 0 ? "the mock shut down (1001/1012) and the client did not reconnect, which is allowed (the fork client never reconnects)" : undefined),
  state: (): Resyncs => ({ shutdown: false, shutdowns: 0, open: new Map() }),
  close(ev, _c, t, s, stop) {
    settle(s, ev.connection, t, stop, ev.t, cutByKit(ev));
    // The mock going down because the kit stopped the run invites no reconnect.
    if (!isShutdownClose(ev) || stop.hadStopped(ev.t)) return;
    s.shutdown = true;
    s.shutdowns++;
  },
  open(ev, _c, _t, s) {
    if (!s.shutdown) return;
    s.shutdown = false;
    s.open.set(ev.connection, { sent: new Set(), event: ev });
  },
  client({ ev, m }, _t, s) {
    const c = s.open.get(ev.connection);
    const type = m && typeOf(m);
    if (c && type) c.sent.add(type);
  },
  end(t, s, stop) {
    for (const connection of [...s.open.keys()]) settle(s, connection, t, stop);
  },
});

export const PI_WEB_CLIENT_CHECKS: CheckDef[] = [
  connectCheck,
  jsonObjectFramesCheck,
  commandSchemaCheck,
  knownCommandsCheck,
  unknownFieldsCheck,
  idPresentCheck,
  idUniqueCheck,
  uiResponseIdCheck,
  uiResponseShapeCheck,
  uiResponseOnceCheck,
  uiSelectOptionCheck,
  streamingBehaviorCheck,
  reconnectResyncCheck,
];

/** Levels the `pi-fork-0.54` profile gives client checks (§5: commands beyond the seed are INFO). */
export const PI_WEB_CLIENT_FORK_LEVELS: Record<string, Level> = {
  "pi-web/client/known-commands": "INFO",
  "pi-web/client/unknown-fields": "INFO",
};
