/** POST /connect/{server_id}: answers to listed and unlisted ids, and the tool objects. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { isStatusLabel, L, LISTED_CONNECT_LABELS, NOTE } from "../labels.js";
import { listedServers, type Listed } from "../listing.js";
import {
  all,
  connectId,
  connectView,
  describe,
  evidenceOf,
  hasDetail,
  is2xx,
  is4xx,
  isObject,
  judgeExchanges,
  onExchanges,
  onNote,
  sameStatus,
  serverCheck,
  showStatus,
  statusView,
  wrongMeaning,
  type StatusView,
} from "./support.js";

/** Among the statuses with a meaning of their own, those that can say "no such id". */
const UNKNOWN_ID: ReadonlySet<number> = new Set([404, 422]);

export const CONNECT_CHECKS: CheckDef[] = [
  serverCheck("mcp-chat/connect/success-shape", (t) => {
    let n = 0;
    // The reconnect's status code is state/reconnect-same-id's; its body, when 2xx, is judged here.
    const match = (x: { label: string; status?: number }) =>
      LISTED_CONNECT_LABELS.has(x.label) || (x.label === L.reconnectB && is2xx(x.status));
    const observe = judgeExchanges(t, match, (x) => {
      const id = connectId(x);
      if (x.status !== 200) {
        t.fail(`200 for the listed id ${JSON.stringify(id)}`, describe(x), evidenceOf(x));
        return;
      }
      const b = x.json;
      if (!isObject(b)) {
        t.fail("a JSON object {server_id, server_name, tools}", `${describe(x)}: body is not a JSON object`, evidenceOf(x));
        return;
      }
      const wrong: string[] = [];
      if (b.server_id !== id) wrong.push(`server_id is ${excerpt(b.server_id)}, expected ${JSON.stringify(id)}`);
      if (typeof b.server_name !== "string") wrong.push(`server_name is ${b.server_name === undefined ? "missing" : excerpt(b.server_name)}, expected a string`);
      if (!Array.isArray(b.tools)) wrong.push(`tools is ${b.tools === undefined ? "missing" : excerpt(b.tools)}, expected an array`);
      if ("success" in b && b.success !== true) wrong.push(`success is ${excerpt(b.success)}; when present it must be true`);
      if (wrong.length) t.fail("server_id = the id, server_name: string, tools: array", `POST ${x.path}: ${wrong.join("; ")}`, evidenceOf(x));
      else t.ok();
      n++;
    });
    return { observe, finish: () => t.outcome(`${n} connect answer(s) had the id, a string server_name and a tools array`, "no listed server id was connected") };
  }),
  serverCheck("mcp-chat/connect/matches-listing", (t) => {
    const names = new Map<string, string>();
    let n = 0;
    const learn = (servers: readonly Listed[] | undefined) => {
      for (const s of servers ?? []) if (s.name !== undefined) names.set(s.id, s.name);
    };
    const observe = all(
      onNote(NOTE.servers, (v) => learn(v as Listed[])),
      // A listing a client fetched through the proxy teaches the same names (no probe notes them there).
      onExchanges((x) => {
        if (x.label === L.servers && x.status === 200) learn(listedServers(x.json));
      }),
      judgeExchanges(t, (x) => LISTED_CONNECT_LABELS.has(x.label) || x.label === L.reconnectB, (x) => {
        const b = x.json;
        if (x.status !== 200 || !isObject(b)) return;
        if (typeof b.server_name !== "string") {
          if (LISTED_CONNECT_LABELS.has(x.label)) t.knockOn("mcp-chat/connect/success-shape", `POST ${x.path}`);
          return;
        }
        const id = connectId(x);
        const listed = names.get(id);
        if (listed === undefined) return;
        n++;
        if (b.server_name === listed) t.ok();
        else t.fail(`server_name ${JSON.stringify(listed)} (the name GET /servers lists for ${JSON.stringify(id)})`, `POST ${x.path} answered server_name ${JSON.stringify(b.server_name)}`, evidenceOf(x));
      }),
    );
    return { observe, finish: () => t.outcome(`${n} connect answer(s) named the server as the listing does`, "no 200 connect answer with a string server_name for a listed id") };
  }),
  serverCheck("mcp-chat/connect/tool-shape", (t, ctx) => {
    let n = 0;
    const observe = judgeExchanges(t, (x) => x.status === 200 && (x.label.startsWith("connect") || x.label.startsWith("reconnect") || isStatusLabel(x.label)), (x) => {
      const tools = isObject(x.json) ? x.json.tools : undefined;
      if (!Array.isArray(tools)) return;
      // A server without tools is legal: there is then no tool object to judge.
      if (tools.length === 0 && x.method === "POST" && x.label !== L.connectUnknown) t.notApplicable(`${x.method} ${x.path} answered tools: [] (a server may have no tools)`);
      for (const [i, tool] of tools.entries()) {
        n++;
        const r = ctx.validate("tool", tool);
        if (r.ok) t.ok();
        else t.fail("{name: non-empty string, description: string}", `${x.method} ${x.path}: tools/${i} ${excerpt(tool)}: ${formatSchemaErrors(r.errors)}`, evidenceOf(x));
      }
    });
    return { observe, finish: () => t.outcome(`${n} tool object(s) in connect and status answers had a name and a description`, "no connect or status answer listed a tool") };
  }),
  serverCheck("mcp-chat/connect/unknown-id-4xx", (t) => {
    let status = 0;
    const observe = judgeExchanges(t, (x) => x.label === L.connectUnknown, (x) => {
      status = x.status!;
      const wrong = is4xx(x.status) ? wrongMeaning(x.status!, UNKNOWN_ID) : undefined;
      if (!is4xx(x.status)) t.fail("4xx (404 in the reference) for an id GET /servers does not list", describe(x), evidenceOf(x));
      else if (wrong) t.fail("4xx (404 in the reference) saying the id is unknown", `${describe(x)}: ${wrong}, not that the id is unknown`, evidenceOf(x));
      else if (!hasDetail(x)) t.knockOn("mcp-chat/errors/detail-shape", `${x.method} ${x.path} (${x.label})`);
      else t.ok();
    });
    return { observe, finish: () => t.outcome(`an unlisted id got ${status} with {detail}`, "no unlisted id was probed") };
  }),
  serverCheck("mcp-chat/connect/unknown-id-keeps-state", (t) => {
    let last: StatusView | undefined;
    let lastLabel: string | undefined;
    let before: StatusView | undefined;
    let beforeLabel: string | undefined;
    let connected = false;
    let rejected = false;
    const observe = judgeExchanges(t, (x) => isStatusLabel(x.label) || x.label === L.connectUnknown || x.label === L.connect, (x) => {
      if (x.label === L.connect) {
        connected = connectView(x)?.tools !== undefined;
        return;
      }
      if (x.label === L.connectUnknown) {
        rejected = x.status! >= 400;
        before = last;
        beforeLabel = lastLabel;
        if (!rejected) t.knockOn("mcp-chat/connect/unknown-id-4xx", `POST ${x.path} (${x.status})`);
        return;
      }
      const now = statusView(x);
      if (x.label === L.statusAfterUnknown && rejected) {
        // An unreadable status right after a successful connect is status/connected-shape's failure.
        if (!before && beforeLabel === L.statusAfterConnect && connected) t.knockOn("mcp-chat/status/connected-shape", L.statusAfterConnect);
        else if (!before || !now) t.untestable("GET /status did not answer a readable state before and after the rejected connect");
        else if (sameStatus(before, now)) t.ok();
        else t.fail(`still ${showStatus(before)}`, `after the rejected connect GET /status says ${showStatus(now)}`, evidenceOf(x));
      }
      last = now;
      lastLabel = x.label;
    });
    return { observe, finish: () => t.outcome(`/status was unchanged by the rejected connect (${before ? showStatus(before) : ""})`, "no connect to an unlisted id was probed after a readable /status") };
  }),
];
