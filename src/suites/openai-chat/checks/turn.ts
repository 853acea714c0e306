/** The follow-up turn of seed §3: history with a tool result, answered in plain text. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { L } from "../labels.js";
import { describe, evidenceOf, isObject, onExchanges, serverCheck, unanswered, type Exchange } from "./support.js";

/** choices[0].message of a follow-up answer, when there is one. */
function message(x: Exchange): Record<string, unknown> | undefined {
  const choices = isObject(x.json) ? x.json.choices : undefined;
  const first = Array.isArray(choices) ? choices[0] : undefined;
  return isObject(first) && isObject(first.message) ? first.message : undefined;
}

export const TURN_CHECKS: CheckDef[] = [
  serverCheck("openai-chat/turn/follow-up-accepted", (t) => {
    const observe = onExchanges((x) => {
      if (x.label !== L.followUpSync) return;
      if (x.status === undefined || x.status === 429) return t.untestable(unanswered(x)!);
      if (x.status !== 200) return t.fail("200 with choices[0].message", `${describe(x)}: the follow-up with a tool result was refused`, evidenceOf(x));
      const why = unanswered(x);
      if (why) return t.untestable(why);
      if (message(x)) t.ok();
      else t.fail("a JSON body with choices[0].message", `${describe(x)}: no choices[0].message`, evidenceOf(x));
    });
    return { observe, finish: () => t.outcome("the follow-up request got a completion", "the follow-up probe was not answered") };
  }),
  serverCheck("openai-chat/turn/follow-up-final-answer", (t) => {
    let text = "";
    const observe = onExchanges((x) => {
      if (x.label !== L.followUpSync) return;
      const why = unanswered(x);
      if (why) return t.untestable(why);
      const m = x.status === 200 ? message(x) : undefined;
      // Refused, or no message in the answer: follow-up-accepted's finding.
      if (!m) return t.knockOn("openai-chat/turn/follow-up-accepted", x.label);
      const choice = (x.json as { choices: Record<string, unknown>[] }).choices[0]!;
      const problems: string[] = [];
      if (typeof m.content !== "string" || m.content.trim() === "") problems.push(`content is ${m.content === "" ? '""' : excerpt(m.content, 30)}`);
      if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) problems.push(`it calls ${m.tool_calls.length} tool(s) again`);
      if (choice.finish_reason === "length" || choice.finish_reason === "content_filter") problems.push(`finish_reason "${choice.finish_reason}"`);
      if (problems.length) return t.fail("a non-empty plain-text final answer", `${x.label}: ${problems.join("; ")}`, evidenceOf(x));
      text = m.content as string;
      t.ok();
    });
    return { observe, finish: () => t.outcome(`the follow-up got a final answer: "${excerpt(text, 60)}"`, "the follow-up probe got no completion") };
  }),
];
