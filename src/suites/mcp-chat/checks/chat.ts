/** Request-level errors on /chat/stream: bad input, and chat while disconnected. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { isBadInputLabel, L } from "../labels.js";
import { all, describe, disconnectKnockOn, eventEvidence, eventWhere, evidenceOf, hasDetail, is2xx, is4xx, isObject, isTextEvent, isToolEvent, mediaType, onExchanges, onStreams, serverCheck, unanswered, wrongMeaning } from "./support.js";


/** Statuses that say the request body is invalid. */
const INVALID: ReadonlySet<number> = new Set([400, 422]);
/** Statuses among those with their own meaning that may say "not connected" (409 recommended). */
const NOT_NOW: ReadonlySet<number> = new Set([409]);

export const CHAT_CHECKS: CheckDef[] = [
  serverCheck("mcp-chat/chat/bad-input-4xx", (t) => {
    const statuses: string[] = [];
    const observe = onExchanges((x) => {
      if (!isBadInputLabel(x.label) && x.label !== L.chatSyncProbe) return;
      // The status is the answer; a body the kit stopped reading (a stream) does not hide it.
      if (x.status === undefined || x.status === 429) {
        t.untestable(unanswered(x)!);
        return;
      }
      const body = x.label === L.chatSyncProbe ? "POST /chat {}" : `${x.label.slice("bad-input:".length)}`;
      statuses.push(`${body} → ${x.status}`);
      if (x.label === L.chatSyncProbe && (x.status === 404 || x.status === 405)) return;
      const stream = mediaType(x.headers["content-type"]) === "text/event-stream";
      if (!is4xx(x.status) || stream) {
        t.fail("a 4xx error answer, not a stream", `${body} got ${describe(x)}${stream ? " — the bad request was answered as a chat" : ""}`, evidenceOf(x));
        return;
      }
      // The status must say "invalid request"; a 404 or 409 rejects for another reason.
      const wrong = INVALID.has(x.status) ? undefined : (wrongMeaning(x.status, INVALID) ?? `${x.status} is no validation error`);
      if (wrong) t.fail("400 or 422 {detail}: the request body is invalid", `${body} got ${describe(x)}: ${wrong}, not that the request is malformed`, evidenceOf(x));
      else if (!hasDetail(x)) t.knockOn("mcp-chat/errors/detail-shape", `${x.method} ${x.path} (${x.label})`);
      else t.ok();
    });
    return { observe, finish: () => t.outcome(`every malformed chat request got a 4xx (${statuses.join(", ")})`, "no malformed chat request was answered") };
  }),
  serverCheck("mcp-chat/chat/disconnected-rejected", (t) => {
    let form = "";
    const observe = all(
      onExchanges((x) => {
        if (x.label !== L.chatDisconnected) return;
        const why = x.status === undefined || x.status === 429 ? unanswered(x) : undefined;
        if (why) return t.untestable(why);
        if (is2xx(x.status)) {
          // Judged event by event below; the form is settled at the end.
          if (x.end?.reason !== "eof" && x.end?.reason !== "error" && x.end?.reason !== "close-timeout" && !t.failures) t.untestable(`the kit stopped reading the disconnected stream (${x.end?.reason})`);
          return;
        }
        form = `(a) ${x.status} ${isObject(x.json) ? excerpt(x.json, 80) : excerpt(x.text ?? "", 80)}`;
        const expected = "4xx (409 recommended) or 503 with {detail}, or 200 SSE with only [ERROR] <msg>";
        const wrong = is4xx(x.status) ? wrongMeaning(x.status!, NOT_NOW) : undefined;
        if (!is4xx(x.status) && x.status !== 503) t.fail(expected, describe(x), evidenceOf(x));
        else if (wrong) t.fail(expected, `${describe(x)}: ${wrong}, not that no server is connected (the same request streamed an answer while connected)`, evidenceOf(x));
        else if (!hasDetail(x)) t.knockOn("mcp-chat/errors/detail-shape", `${x.method} ${x.path} (${x.label})`);
        else t.ok();
      }),
      onStreams<{ bad: boolean }>(
        {
          start: () => ({ bad: false }),
          only: ["text", "tool", "terminal"],
          event: (ev, p, phase, s, st) => {
            if (s.label !== L.chatDisconnected || phase === "after" || st.bad) return;
            const forbidden =
              isToolEvent(p) || isTextEvent(p) ? `a ${(p as { type: string }).type} event` : phase === "terminal" && s.terminal?.kind === "done" ? "[DONE]" : undefined;
            if (!forbidden) return;
            st.bad = true;
            t.fail("no tools, text or [DONE] while disconnected: a 4xx/503 {detail} or only [ERROR] <msg>", `${eventWhere(ev)} is ${forbidden}: the server answered a chat with no server connected`, eventEvidence(ev));
          },
          end: (ev, s, st) => {
            if (s.label !== L.chatDisconnected || st.bad) return;
            if (ev.reason !== "eof" && ev.reason !== "error" && ev.reason !== "close-timeout" && !s.terminal) return;
            form = s.terminal ? `(b) 200 SSE with only ${excerpt(s.terminal.event.data, 80)}` : "200 SSE with no sentinel (see terminal/required)";
            t.ok();
          },
        },
      ),
    );
    return { observe: all(observe, disconnectKnockOn(t)), finish: () => t.outcome(`chat while disconnected was rejected: form ${form}`, "the disconnect was never confirmed by /status, so chat while disconnected was not probed") };
  }),
];
