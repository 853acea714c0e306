/**
 * `pi-web/client/*` (contract §3 rules 28–32, §4): what a client sends the mock over the
 * WebSocket, judged from the mock's recording of it. Frames from the client ("in") are judged;
 * frames the mock sent ("out") tell the checks what the client was answering: the dialogs it was
 * asked, whether a run was in progress, which ids got their response.
 *
 * Each rule has one owner, so one client mistake fails one check: the frame check owns bytes
 * that are not one JSON object, known-commands owns the `type`, unknown-fields owns keys nobody
 * documented (the schema checks judge a copy without them), id-present owns command ids,
 * ui-response-id owns reply ids.
 */
import { at, excerpt, Violations, type CheckContext, type CheckDef, type CheckObserver, type Level } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import type { TranscriptEvent } from "../../../core/transcript/transcript.js";
import {
  CLIENT_PROBE,
  isClientFrame,
  messageOf,
  MockView,
  parseFrame,
  typeOf,
  type Message,
  type WsFrame,
} from "./traffic.js";
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

type Request = Extract<TranscriptEvent, { kind: "http-request" }>;

interface Judge {
  /** Sees every transcript event after the check's MockView; true when it exercised the rule. */
  observe(e: TranscriptEvent, v: Violations, view: MockView): boolean | void;
  /** Last word at the end of the run; true when that exercised the rule. */
  end?(v: Violations): boolean | void;
  /** The pass message, when it depends on what was seen. */
  pass?(): string;
  /**
   * Why the rule's case never arose because the client took another path the contract allows
   * (asked only when the rule was not exercised); the check is then skipped with that reason.
   */
  notApplicable?(view: MockView): string | undefined;
}

interface ClientCheckSpec extends Omit<CheckDef, "create" | "side"> {
  pass: string;
  untested: string;
  judge(ctx: CheckContext): Judge;
}

function clientCheck(spec: ClientCheckSpec): CheckDef {
  const { pass, untested, judge, ...def } = spec;
  return {
    ...def,
    side: "client",
    create(ctx): CheckObserver {
      const v = new Violations();
      const view = new MockView();
      const j = judge(ctx);
      let exercised = false;
      return {
        observe(e) {
          if (e.probe !== CLIENT_PROBE) return;
          view.observe(e);
          if (j.observe(e, v, view)) exercised = true;
        },
        finish() {
          if (j.end?.(v)) exercised = true;
          const alternative = exercised || v.size > 0 ? undefined : j.notApplicable?.(view);
          if (alternative) return { verdict: "skip", message: `not applicable: ${alternative}` };
          return v.outcome({ pass: j.pass?.() ?? pass, exercised, untested });
        },
      };
    },
  };
}

/** Client frames that are one JSON object, with the object. */
function clientMessage(e: TranscriptEvent): { frame: WsFrame; message: Message } | undefined {
  if (!isClientFrame(e)) return undefined;
  const message = messageOf(e);
  return message ? { frame: e, message } : undefined;
}

/** A client message that is a command (any object whose `type` is not the reply type, r3). */
function isCommand(m: Message): boolean {
  return m.type !== UI_RESPONSE;
}

function evidence(frame: WsFrame, note?: string) {
  return at(frame, { label: frame.connection, excerpt: excerpt(frame.data), ...(note ? { note } : {}) });
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
  return ["type", "id", ...(COMMAND_FIELDS[type] ?? [])];
}

const timeoutOf = (ctx: CheckContext): number =>
  typeof ctx.params.clientRequestTimeoutMs === "number" ? ctx.params.clientRequestTimeoutMs : REQUEST_TIMEOUT_MS;

const SCENARIOS_ALL = ["text", "queue", "ext-dialogs"];

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
  403: "the Origin is missing or not allowed",
};

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

export const connectCheck = clientCheck({
  id: "pi-web/client/connect",
  level: "MUST",
  title: "Connect on /ws with the token and an allowed Origin",
  rule: "The client upgrades on `/ws`, with the mock's `?token=` and an allowed Origin, so the upgrade succeeds (101).",
  ref: { seed: SEED, section: "Connection", quote: "The client derives protocol + host from the current page and forwards `?token=` from the page URL." },
  probes: SCENARIOS_ALL,
  pass: "every WebSocket upgrade the client attempted was on /ws and accepted",
  untested: "not exercised: the client never opened a WebSocket to the mock",
  judge() {
    const upgrades = new Map<string, Request>();
    return {
      observe(e, v) {
        if (e.kind === "ws-open") {
          const path = pathOf(e.url);
          if (path !== "/ws") v.add("an upgrade on /ws", `WebSocket opened on ${JSON.stringify(path)}`, at(e, { label: e.connection, excerpt: excerpt(e.url) }));
          return true;
        }
        if (e.kind === "http-request" && isUpgradeRequest(e)) {
          upgrades.set(e.exchange, e);
          return true;
        }
        if (e.kind === "http-response" && upgrades.has(e.exchange)) {
          const req = upgrades.get(e.exchange)!;
          upgrades.delete(e.exchange);
          if (e.status !== 101) {
            const why = UPGRADE_REFUSAL[e.status] ?? "refused";
            const origin = req.headers["origin"];
            v.add(
              "a 101 upgrade on /ws with the mock's token and an allowed Origin",
              `upgrade on ${JSON.stringify(req.path)} (Origin ${origin === undefined ? "none" : JSON.stringify(origin)}) was refused with ${e.status}: ${why}`,
              at(req, { excerpt: excerpt(req.path) }),
            );
          }
        }
        return false;
      },
    };
  },
});

export const jsonObjectFramesCheck = clientCheck({
  // The catalogue lists this rule for both sides; this is its client half (the server suite has
  // the server half under the same id, side "server").
  id: "pi-web/framing/json-object-frames",
  level: "MUST",
  title: "Client messages are text frames with one JSON object",
  rule: "Each client message is a UTF-8 text frame holding exactly one JSON object (no binary frames, no batching, no bare values).",
  ref: { seed: SEED, section: "Protocol", quote: "The frontend communicates with the coding-agent backend over WebSocket JSON messages." },
  probes: SCENARIOS_ALL,
  pass: "every client frame was a text frame with one JSON object",
  untested: "not exercised: the client sent no frame",
  judge() {
    return {
      observe(e, v) {
        if (!isClientFrame(e)) return false;
        if (e.binary) v.add("a text frame", "the client sent a binary frame", evidence(e));
        else {
          const p = parseFrame(e);
          if (!p.ok) v.add("one JSON object per text frame", `a client frame ${p.problem}`, evidence(e));
        }
        return true;
      },
    };
  },
});

export const knownCommandsCheck = clientCheck({
  id: "pi-web/client/known-commands",
  level: "MUST",
  title: "Only the documented commands",
  rule: "Every client message's `type` is one of the nine commands or `extension_ui_response`.",
  ref: { seed: SEED, section: "Protocol", quote: "It uses the same protocol family as RPC mode, but only the command/event subset needed by the web UI." },
  probes: SCENARIOS_ALL,
  pass: "every client message had a documented type",
  untested: "not exercised: the client sent no JSON object",
  judge() {
    return {
      observe(e, v) {
        const cm = clientMessage(e);
        if (!cm) return false;
        const type = cm.message.type;
        if (typeof type !== "string") {
          v.add(`a string type (${[...COMMANDS, UI_RESPONSE].join(", ")})`, "a client message has no string type", evidence(cm.frame));
        } else if (!isCommandType(type) && type !== UI_RESPONSE) {
          v.add(`one of ${[...COMMANDS, UI_RESPONSE].join(", ")}`, `the client sent an undocumented command type ${JSON.stringify(type)}`, evidence(cm.frame));
        }
        return true;
      },
    };
  },
});

export const commandSchemaCheck = clientCheck({
  id: "pi-web/client/command-schema",
  level: "MUST",
  title: "Commands validate against their schemas",
  rule: "Every command of a documented type validates against its schema (schemas/pi-web/<type>-command); undocumented keys are left to client/unknown-fields.",
  ref: { seed: SEED, section: "Commands (Client → Server)", quote: '{"id":"req_1","type":"prompt","message":"Hi"}' },
  probes: SCENARIOS_ALL,
  pass: "every command validated against its schema",
  untested: "not exercised: the client sent no documented command",
  judge(ctx) {
    return {
      observe(e, v) {
        const cm = clientMessage(e);
        const type = cm && typeOf(cm.message);
        if (!cm || !isCommandType(type)) return false;
        const result = ctx.validate(commandSchema(type), documentedOnly(cm.message, commandFields(type)));
        if (!result.ok) {
          v.add(`a valid ${type} command`, `${type} command is invalid: ${formatSchemaErrors(result.errors)}`, evidence(cm.frame));
        }
        return true;
      },
    };
  },
});

export const unknownFieldsCheck = clientCheck({
  id: "pi-web/client/unknown-fields",
  level: "SHOULD",
  title: "No undocumented fields",
  rule: "Commands and replies carry only their documented fields (prompt images included).",
  ref: { seed: SEED, section: "Commands (Client → Server)", quote: "Commands include an optional `id`. The server echoes this in `response` events." },
  probes: SCENARIOS_ALL,
  pass: "no client message carried an undocumented field",
  untested: "not exercised: the client sent no command or reply of a documented type",
  judge() {
    return {
      observe(e, v) {
        const cm = clientMessage(e);
        const type = cm && typeOf(cm.message);
        if (!cm || !type || (!isCommandType(type) && type !== UI_RESPONSE)) return false;
        const fields = type === UI_RESPONSE ? UI_RESPONSE_FIELDS : commandFields(type);
        const extra = Object.keys(cm.message).filter((k) => !fields.includes(k));
        if (Array.isArray(cm.message.images)) {
          cm.message.images.forEach((img: unknown, i: number) => {
            if (img !== null && typeof img === "object" && !Array.isArray(img)) {
              for (const k of Object.keys(img)) if (!IMAGE_FIELDS.includes(k)) extra.push(`images[${i}].${k}`);
            }
          });
        }
        if (extra.length > 0) {
          v.add(`only ${fields.join(", ")}`, `${type} carries undocumented field(s) ${extra.map((k) => JSON.stringify(k)).join(", ")}`, evidence(cm.frame));
        }
        return true;
      },
    };
  },
});

export const idPresentCheck = clientCheck({
  id: "pi-web/client/id-present",
  level: "SHOULD",
  title: "Every command has an id",
  rule: "Every command carries a non-empty string `id` (whether ids follow the fork's `req_N` is reported).",
  ref: { seed: SEED, section: "Request/Response Model", quote: "The web client auto-generates request IDs (`req_1`, `req_2`, ...)." },
  probes: SCENARIOS_ALL,
  pass: "every command had a non-empty string id",
  untested: "not exercised: the client sent no command",
  judge() {
    let commands = 0;
    let reqN = 0;
    return {
      observe(e, v) {
        const cm = clientMessage(e);
        if (!cm || !isCommand(cm.message)) return false;
        commands++;
        const id = cm.message.id;
        const type = typeOf(cm.message) ?? "typeless";
        if (id === undefined) v.add("a non-empty string id", `${type} command has no id`, evidence(cm.frame));
        else if (typeof id !== "string" || id === "") v.add("a non-empty string id", `${type} command has id ${JSON.stringify(id)}`, evidence(cm.frame));
        else if (REQ_N.test(id)) reqN++;
        return true;
      },
      pass: () =>
        `every command had a non-empty string id (${reqN === commands ? "all" : `${reqN} of ${commands}`} in the req_N style)`,
    };
  },
});

export const idUniqueCheck = clientCheck({
  id: "pi-web/client/id-unique",
  level: "MUST",
  title: "No id reused while pending",
  rule: "A command never reuses the id of a command on the same socket that is still pending (no response yet, and sent less than 30 s ago).",
  ref: { seed: SEED, section: "Request/Response Model", quote: "The web client auto-generates request IDs (`req_1`, `req_2`, ...). Requests time out after 30 seconds." },
  probes: [...SCENARIOS_ALL, "silent-command"],
  pass: "no command reused a pending id",
  untested: "not exercised: the client sent no command with an id",
  judge(ctx) {
    const limit = timeoutOf(ctx);
    /** connection → id → when it was sent and as which type. */
    const pending = new Map<string, Map<string, { t: number; type: string; seq: number }>>();
    const of = (connection: string) => {
      let m = pending.get(connection);
      if (!m) pending.set(connection, (m = new Map()));
      return m;
    };
    return {
      observe(e, v) {
        if (e.kind === "ws-close") {
          pending.delete(e.connection);
          return false;
        }
        if (e.kind !== "ws-frame") return false;
        const m = messageOf(e);
        if (!m) return false;
        if (e.direction === "out") {
          if (m.type === "response" && typeof m.id === "string") pending.get(e.connection)?.delete(m.id);
          return false;
        }
        if (!isCommand(m) || typeof m.id !== "string") return false;
        const mine = of(e.connection);
        const before = mine.get(m.id);
        const type = typeOf(m) ?? "typeless";
        if (before && e.t - before.t < limit) {
          v.add(
            "a fresh id while the earlier command is pending",
            `${type} reuses id ${JSON.stringify(m.id)} of a ${before.type} still pending (sent ${Math.round(e.t - before.t)} ms earlier, seq ${before.seq}, no response yet)`,
            evidence(e),
          );
        }
        mine.set(m.id, { t: e.t, type, seq: e.seq });
        return true;
      },
    };
  },
});

/** The dialog a reply answers, or why it answers none. */
function replyTarget(view: MockView, m: Message, t: number): { ok: true; method: string } | { ok: false; why: string } {
  const id = m.id;
  if (typeof id !== "string") return { ok: false, why: id === undefined ? "has no id" : `has id ${JSON.stringify(id)}, not a string` };
  const req = view.requests.get(id);
  if (!req) return { ok: false, why: `answers ${JSON.stringify(id)}, which no extension_ui_request named` };
  if (!isDialogMethod(req.method)) return { ok: false, why: `answers ${JSON.stringify(id)}, a fire-and-forget ${req.method} request` };
  if (req.timeoutMs !== undefined && t - req.t > req.timeoutMs) {
    return { ok: false, why: `answers ${req.method} ${JSON.stringify(id)} ${Math.round(t - req.t)} ms after it was sent, past its ${req.timeoutMs} ms timeout` };
  }
  return { ok: true, method: req.method };
}

export const uiResponseIdCheck = clientCheck({
  id: "pi-web/client/ui-response-id",
  level: "MUST",
  title: "Replies answer dialog requests",
  rule: "An `extension_ui_response` names the id of a dialog request (select, confirm, input, editor) the mock sent and that has not timed out; fire-and-forget requests and unknown ids get no reply.",
  ref: { seed: SEED, section: "extension_ui_request", quote: "Responses are sent as `extension_ui_response`" },
  probes: ["ext-dialogs", "ext-timeout", "ext-unknown-method", "connect-notify"],
  pass: "every reply answered a live dialog request (and no fire-and-forget request was answered)",
  untested: "not exercised: the mock sent no extension UI request and the client sent no reply",
  judge() {
    return {
      observe(e, v, view) {
        if (e.kind === "ws-frame" && e.direction === "out") {
          const m = messageOf(e);
          return m?.type === "extension_ui_request";
        }
        const cm = clientMessage(e);
        if (!cm || cm.message.type !== UI_RESPONSE) return false;
        const target = replyTarget(view, cm.message, e.t);
        if (!target.ok) v.add("the id of a pending dialog request (select/confirm/input/editor)", `extension_ui_response ${target.why}`, evidence(cm.frame));
        return true;
      },
    };
  },
});

const ANSWER_KEYS = ["value", "confirmed", "cancelled"] as const;

export const uiResponseShapeCheck = clientCheck({
  id: "pi-web/client/ui-response-shape",
  level: "MUST",
  title: "Replies carry exactly one answer, of the method's kind",
  rule: "An `extension_ui_response` has exactly one of `value: string`, `confirmed: boolean`, `cancelled: true`: `confirmed` for confirm, `value` for select/input/editor (or `cancelled`).",
  ref: { seed: SEED, section: "extension_ui_request", quote: '{"type":"extension_ui_response","id":"...","confirmed":true}' },
  probes: ["ext-dialogs"],
  pass: "every reply carried exactly one answer key of its method's kind",
  untested: "not exercised: the client sent no extension_ui_response",
  judge(ctx) {
    return {
      observe(e, v, view) {
        const cm = clientMessage(e);
        if (!cm || cm.message.type !== UI_RESPONSE) return false;
        const m = cm.message;
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
        if (problems.length > 0) {
          v.add("exactly one of value (string), confirmed (boolean), cancelled (true), matching the method", `extension_ui_response ${problems.join("; ")}`, evidence(cm.frame));
        }
        return true;
      },
      notApplicable: (view) => unansweredDialogs(view, isDialogMethod, "dialog"),
    };
  },
});

export const uiResponseOnceCheck = clientCheck({
  id: "pi-web/client/ui-response-once",
  level: "SHOULD",
  title: "One reply per dialog",
  rule: "A socket sends at most one `extension_ui_response` per dialog request.",
  ref: { seed: SEED, section: "extension_ui_request", quote: "`confirm` → `window.confirm`" },
  probes: ["ext-dialogs"],
  pass: "no dialog was answered twice",
  untested: "not exercised: the client answered no dialog request",
  judge() {
    /** connection → dialog id → replies so far. */
    const seen = new Map<string, Map<string, number>>();
    return {
      observe(e, v, view) {
        const cm = clientMessage(e);
        if (!cm || cm.message.type !== UI_RESPONSE || typeof cm.message.id !== "string") return false;
        const req = view.requests.get(cm.message.id);
        if (!req || !isDialogMethod(req.method)) return false;
        let mine = seen.get(cm.frame.connection);
        if (!mine) seen.set(cm.frame.connection, (mine = new Map()));
        const n = (mine.get(req.id) ?? 0) + 1;
        mine.set(req.id, n);
        if (n === 2) v.add("one reply per dialog", `${req.method} ${JSON.stringify(req.id)} was answered again`, evidence(cm.frame));
        return true;
      },
      notApplicable: (view) => unansweredDialogs(view, isDialogMethod, "dialog"),
    };
  },
});

export const uiSelectOptionCheck = clientCheck({
  id: "pi-web/client/ui-select-option",
  level: "SHOULD",
  title: "select replies pick a listed option",
  rule: "A `value` answering a `select` request is one of its `options`.",
  ref: { seed: SEED, section: "extension_ui_request", quote: "`input` / `editor` / `select` → `window.prompt`" },
  probes: ["ext-dialogs"],
  pass: "every select was answered with one of its options (or cancelled)",
  untested: "not exercised: the client answered no select request",
  judge() {
    return {
      observe(e, v, view) {
        const cm = clientMessage(e);
        if (!cm || cm.message.type !== UI_RESPONSE || typeof cm.message.id !== "string") return false;
        const req = view.requests.get(cm.message.id);
        if (!req || req.method !== "select") return false;
        const value = cm.message.value;
        if (typeof value === "string" && !(req.options ?? []).includes(value)) {
          v.add(`one of ${JSON.stringify(req.options ?? [])}`, `select ${JSON.stringify(req.id)} answered ${JSON.stringify(value)}, not a listed option`, evidence(cm.frame));
        }
        return true;
      },
      notApplicable: (view) => unansweredDialogs(view, (m) => m === "select", "select"),
    };
  },
});

export const streamingBehaviorCheck = clientCheck({
  id: "pi-web/client/streaming-behavior",
  level: "SHOULD",
  title: "Mid-run prompts say how to queue",
  rule: "A `prompt` sent while a run is in progress (after `agent_start`, before `agent_end` or `session_changed`) carries `streamingBehavior`; `/name` extension commands are exempt.",
  ref: { seed: SEED, section: "Commands (Client → Server) / prompt", quote: "When the agent is already streaming, set `streamingBehavior` to queue the message" },
  probes: ["queue", "long"],
  pass: "every prompt sent mid-run carried streamingBehavior",
  untested: "not exercised: the client sent no prompt during a run",
  judge() {
    let runs = false;
    return {
      observe(e, v, view) {
        if (view.running) runs = true;
        const cm = clientMessage(e);
        if (!cm || cm.message.type !== "prompt" || !view.running) return false;
        const message = cm.message.message;
        if (typeof message === "string" && message.startsWith("/")) return false;
        if (cm.message.streamingBehavior === undefined) {
          v.add('streamingBehavior "steer" or "followUp"', "a prompt sent during a run has no streamingBehavior (the server rejects it)", evidence(cm.frame));
        }
        return true;
      },
      // Prompting mid-run is the client's choice: one that waits for the run to end never needs streamingBehavior.
      notApplicable: () => (runs ? "runs took place, but the client sent no prompt during one (waiting for the run to end is allowed)" : undefined),
    };
  },
});

/** The commands a client sends to learn the state again after a reconnect (§8 case 18). */
export const RESYNC_COMMANDS = ["get_state", "list_sessions", "get_messages"] as const;

/** A close the mock made when shutting down (`1001 "server shutting down"`, §1). */
function isShutdownClose(e: Extract<TranscriptEvent, { kind: "ws-close" }>): boolean {
  return e.code === 1001 && /shut/i.test(e.reason ?? "");
}

export const reconnectResyncCheck = clientCheck({
  id: "pi-web/client/reconnect-resync",
  level: "SHOULD",
  title: "Resync after reconnecting",
  rule: "A client that reconnects after the server shut down (1001) sends get_state, list_sessions and get_messages on the new socket, since nothing is replayed. (Contract §8 case 18; not in the §4 table.)",
  ref: { seed: SEED, section: "Commands (Client → Server) / get_state", quote: "Fetch current session metadata." },
  probes: ["server-shutdown"],
  pass: "after reconnecting, the client resynced with get_state, list_sessions and get_messages",
  untested: "not exercised: the client did not reconnect after a server shutdown",
  judge() {
    let shutdown: { seq: number } | undefined;
    /** Reconnected sockets and what they have sent so far. */
    const open = new Map<string, { sent: Set<string>; event: TranscriptEvent }>();
    let reconnects = 0;
    let shutdowns = 0;
    const settle = (connection: string, v: Violations) => {
      const c = open.get(connection);
      if (!c) return;
      open.delete(connection);
      const missing = RESYNC_COMMANDS.filter((x) => !c.sent.has(x));
      if (missing.length > 0) {
        v.add(`${RESYNC_COMMANDS.join(", ")} on the new socket`, `after reconnecting, the client never sent ${missing.join(", ")}`, at(c.event));
      }
    };
    return {
      observe(e, v) {
        if (e.kind === "ws-close") {
          settle(e.connection, v);
          if (isShutdownClose(e)) {
            shutdown = { seq: e.seq };
            shutdowns++;
          }
          return false;
        }
        if (e.kind === "ws-open" && shutdown) {
          shutdown = undefined;
          open.set(e.connection, { sent: new Set(), event: e });
          reconnects++;
          return true;
        }
        const cm = clientMessage(e);
        const c = cm && open.get(cm.frame.connection);
        const type = cm && typeOf(cm.message);
        if (c && type) c.sent.add(type);
        return false;
      },
      end(v) {
        for (const connection of [...open.keys()]) settle(connection, v);
        return reconnects > 0;
      },
      // §1: reconnecting is optional (the fork client never reconnects); only a client that does must resync.
      notApplicable: () => (shutdowns > 0 ? "the mock shut down (1001) and the client did not reconnect, which is allowed (the fork client never reconnects)" : undefined),
    };
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
