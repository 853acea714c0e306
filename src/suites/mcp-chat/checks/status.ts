/** GET /status while connected and while disconnected. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors, type SchemaError } from "../../../core/schemas/schema-registry.js";
import { L } from "../labels.js";
import { all, connectView, describe, evidenceOf, isObject, judgeExchanges, onExchanges, sameSet, serverCheck, showTools, toolNames } from "./support.js";


/** Errors inside tool objects are connect/tool-shape's; "if/then" only repeats the concrete errors. */
function ownErrors(errors: SchemaError[]): SchemaError[] {
  return errors.filter((e) => !/^\/tools\/\d+\//.test(e.pointer) && e.keyword !== "if");
}

/** Status probes that follow a connect, and the connect each follows. */
const AFTER_CONNECT: Record<string, string> = {
  [L.statusAfterConnect]: L.connect,
  [L.statusAfterConnectB]: L.connectB,
};

const AFTER_DISCONNECT = new Set<string>([L.statusAfterReset, L.statusAfterDisconnect]);

export const STATUS_CHECKS: CheckDef[] = [
  serverCheck("mcp-chat/status/connected-shape", (t, ctx) => {
    const connected = new Map<string, { id: string; tools: string[] }>();
    let n = 0;
    const observe = all(
      onExchanges((x) => {
        if (!Object.values(AFTER_CONNECT).includes(x.label)) return;
        const c = connectView(x);
        if (c?.tools) connected.set(x.label, { id: c.id, tools: c.tools });
        else connected.delete(x.label);
      }),
      judgeExchanges(t, (x) => x.label in AFTER_CONNECT, (x) => {
        const c = connected.get(AFTER_CONNECT[x.label]!);
        if (!c) {
          t.untestable(`the connect before ${x.label} did not succeed with a tools array`);
          return;
        }
        const expected = `200 {connected: true, server_id: ${JSON.stringify(c.id)}, tools: [${showTools(c.tools)}]}`;
        const b = x.json;
        if (x.status !== 200 || !isObject(b)) {
          t.fail(expected, `${describe(x)}${isObject(b) ? "" : " (body is not a JSON object)"}`, evidenceOf(x));
          return;
        }
        const wrong: string[] = [];
        // What the server connected before shows through (its id, its tools): that is
        // state/single-connection's rule, judged on this same answer.
        const prev = x.label === L.statusAfterConnectB ? connected.get(L.connect) : undefined;
        let leftover = false;
        if (b.connected !== true) wrong.push(`connected is ${excerpt(b.connected)}`);
        if (b.server_id !== c.id) {
          if (prev && b.server_id === prev.id) leftover = true;
          else wrong.push(`server_id is ${excerpt(b.server_id)}`);
        }
        const names = toolNames(b.tools);
        if (!names) wrong.push(`tools is ${b.tools === undefined ? "missing" : excerpt(b.tools)}`);
        else if (!sameSet(names, c.tools)) {
          // Sets: lists of thousands of tools would cost their product.
          const own = new Set(c.tools);
          const shown = new Set(names);
          const extra = names.filter((n) => !own.has(n));
          const before = new Set(prev?.tools);
          if (prev && c.tools.every((n) => shown.has(n)) && extra.every((n) => before.has(n))) leftover = true;
          else wrong.push(`tools are [${showTools(names)}] but the connect returned [${showTools(c.tools)}]`);
        }
        const r = ctx.validate("status-response", b);
        const errors = r.ok ? [] : ownErrors(r.errors);
        if (errors.length) wrong.push(formatSchemaErrors(errors));
        if (wrong.length) t.fail(expected, `${x.label}: ${wrong.join("; ")}`, evidenceOf(x));
        else if (leftover) t.knockOn("mcp-chat/state/single-connection", x.label);
        else {
          n++;
          t.ok();
        }
      }),
    );
    return { observe, finish: () => t.outcome(`${n} status answer(s) after a connect showed its id and tools`, "no status was probed after a successful connect") };
  }),
  serverCheck("mcp-chat/status/disconnected-shape", (t, ctx) => {
    let n = 0;
    const observe = judgeExchanges(t, (x) => AFTER_DISCONNECT.has(x.label), (x) => {
      const expected = "200 {connected: false, server_id: null, tools: []}";
      const b = x.json;
      if (x.status !== 200 || !isObject(b)) {
        t.fail(expected, `${describe(x)}${isObject(b) ? "" : " (body is not a JSON object)"}`, evidenceOf(x));
        return;
      }
      if (b.connected === true) return;
      n++;
      const r = ctx.validate("status-response", b);
      const errors = r.ok ? [] : ownErrors(r.errors);
      if (errors.length) t.fail(expected, `${x.label}: ${formatSchemaErrors(errors)}`, evidenceOf(x));
      else t.ok();
    });
    return { observe, finish: () => t.outcome(`${n} status answer(s) after a disconnect had the disconnected shape`, "no status after a disconnect said connected: false") };
  }),
];
