/**
 * What a protocol's exchange-keyed checks read, from one definition: its exchange view, its rule for
 * what counts as an answer, and the common shape "judge every answered exchange a rule matches;
 * the unanswered ones are why the check may end incomplete".
 */
import type { Tally } from "../checks/check.js";
import { exchangeView, unanswered as unansweredBy, type AnswerRules, type Exchange, type ExchangeOptions, type ExchangeView } from "./exchange.js";
import type { Listen } from "./hooks.js";

export interface ExchangeChecks {
  /** The view itself, for views derived from it (a poll series). */
  view: ExchangeView;
  /** Calls `done` once per exchange when it ends (body end or transport error). */
  onExchanges(done: (x: Exchange) => void): Listen;
  /** Why an exchange cannot be judged, or undefined when it can. */
  unanswered(x: Exchange): string | undefined;
  judgeExchanges(t: Tally, match: (x: Exchange) => boolean, judge: (x: Exchange) => void): Listen;
}

export function exchangeChecks(opts: ExchangeOptions & AnswerRules): ExchangeChecks {
  const view = exchangeView(opts);
  const rules: AnswerRules = { brokenBodyIsAnswer: opts.brokenBodyIsAnswer };
  const unanswered = (x: Exchange) => unansweredBy(x, rules);
  return {
    view,
    onExchanges: (done) => view.on(done),
    unanswered,
    judgeExchanges: (t, match, judge) =>
      view.on((x) => {
        if (!match(x)) return;
        const why = unanswered(x);
        if (why) t.untestable(why);
        else judge(x);
      }),
  };
}
