/** wire/*: discovery, CORS, the port, the upgrade, text frames (§1). */
import type { CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { C, DISCOVERY_MS, NOTE, X } from "../labels.js";
import { FIRST_PORT, LAST_PORT } from "../../../stagewise/adapter/ports.js";
import { describeExchange, exchangeEvidence, frameEvidence, isObject, onFrames, onInfo, onNote, serverCheck, Tally, where, WIRE } from "./support.js";


export const WIRE_CHECKS: CheckDef[] = [
  serverCheck("stagewise-chat/wire/info-shape", (t, ctx) => {
    return {
      observe: onInfo(t, X.info, (x) => {
        const ms = (x.response?.t ?? x.request.t) - x.request.t;
        if (x.status !== 200) return t.fail("200", describeExchange(x), exchangeEvidence(x));
        if (!x.isJson) return t.fail("a JSON body", `the body is not JSON: ${describeExchange(x)}`, exchangeEvidence(x));
        const v = ctx.validate("stagewise-info", x.json);
        if (!v.ok) return t.fail("a StagewiseInfo", `the body does not match StagewiseInfo: ${formatSchemaErrors(v.errors)}`, exchangeEvidence(x));
        if (ms > DISCOVERY_MS) return t.failLate(x.response?.t ?? x.request.t, ms - DISCOVERY_MS, `an answer within ${DISCOVERY_MS} ms`, `the head came after ${Math.round(ms)} ms`, exchangeEvidence(x));
        t.ok();
      }),
      finish: () => t.outcome("discovery answered a valid StagewiseInfo within 2 s", "discovery was never asked"),
    };
  }),
  serverCheck("stagewise-chat/wire/info-capabilities", (t) => {
    return {
      observe: onInfo(t, X.info, (x) => {
        const caps = isObject(x.json) && isObject(x.json.capabilities) ? x.json.capabilities : undefined;
        if (!caps) return t.untestable(`no capabilities object in ${describeExchange(x)}`);
        if (caps.toolCalling !== false || caps.chatHistory !== true) {
          return t.fail(
            "toolCalling:false, chatHistory:true",
            `toolCalling:${JSON.stringify(caps.toolCalling)}, chatHistory:${JSON.stringify(caps.chatHistory)}`,
            exchangeEvidence(x),
          );
        }
        t.ok();
      }),
      finish: () => t.outcome("toolCalling:false, chatHistory:true", "discovery answered no capabilities"),
    };
  }),
  serverCheck("stagewise-chat/wire/info-cors", (t) => {
    return {
      observe: onInfo(t, X.info, (x) => {
        const acao = x.headers["access-control-allow-origin"];
        if (acao === "*" || (x.origin !== undefined && acao === x.origin)) return t.ok();
        t.fail(
          `Access-Control-Allow-Origin "*" or "${x.origin ?? ""}"`,
          acao === undefined ? "no Access-Control-Allow-Origin header" : `Access-Control-Allow-Origin "${acao}"`,
          exchangeEvidence(x),
        );
      }),
      finish: () => t.outcome("the page's origin may read discovery", "discovery was never asked"),
    };
  }),
  serverCheck("stagewise-chat/wire/port-range", (t) => {
    return {
      observe: onNote(NOTE.target, (v, ev) => {
        const port = isObject(v) ? Number(v.port) : NaN;
        if (port >= FIRST_PORT && port <= LAST_PORT) t.ok();
        else t.fail(`a port in ${FIRST_PORT}..${LAST_PORT}`, `port ${port}`, { seq: ev.seq });
      }),
      finish: () => t.outcome("the port is in the toolbar's range", "the target's port was not recorded"),
    };
  }),
  serverCheck("stagewise-chat/wire/ws-upgrade", (t) => {
    return {
      observe: onWsOpen(t),
      finish: () => t.outcome("the WebSocket path upgraded", "no upgrade was attempted"),
    };
  }),
  serverCheck("stagewise-chat/wire/text-frames", (t) => {
    return {
      observe: onFrames((ev, f, c) => {
        if (ev.direction !== "in") return;
        if (ev.binary) return t.fail("a text frame", `a binary frame of ${ev.bytes ?? "?"} bytes at ${where(ev, c)}`, frameEvidence(ev));
        if (ev.invalidUtf8) return t.fail("UTF-8 text", `invalid UTF-8 at ${where(ev, c)}`, frameEvidence(ev));
        if (f.kind === "bad") return t.fail("JSON (or PING/PONG)", `${f.reason} at ${where(ev, c)}`, frameEvidence(ev));
        t.ok();
      }),
      finish: () => t.outcome("every server frame was JSON text or keep-alive", "the server sent no frame"),
    };
  }),
];

function onWsOpen(t: Tally) {
  return WIRE.on({
    accept: (label) => label === C.main,
    open: () => t.ok(),
    reject: (ev) =>
      t.fail(
        "101 Switching Protocols",
        ev.status !== undefined ? `HTTP ${ev.status}${ev.body ? `: ${ev.body.slice(0, 80)}` : ""}` : `no upgrade: ${ev.error ?? "?"}`,
        { seq: ev.seq, probe: ev.probe, note: ev.url },
      ),
  });
}
