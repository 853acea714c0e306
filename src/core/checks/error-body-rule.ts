/** The error-body rule the HTTP protocols share; each words its own error shape. */
import type { CheckContext, Tally } from "./check.js";
import type { SchemaError } from "../schemas/schema-registry.js";
import { evidenceOf, type Exchange } from "../views/exchange.js";

/** What differs between protocols in the error-body rule: which answers it leaves out, and its wording. */
export interface ErrorBodyWording {
  /** Error answers that are not the contract's (foreign-origin probes, an optional route found absent...). */
  exempt(x: Exchange): boolean;
  /** The expectation, e.g. 'a JSON body {"detail": "<message>"}'. */
  expected: string;
  /** The finding for a body that is not JSON (`errors` undefined) or breaks the schema. */
  actual(x: Exchange, errors: SchemaError[] | undefined): string;
}

/**
 * The rule "every 4xx/5xx answer carries the protocol's error body (`error-response`)", judged on
 * each finished exchange: preflights and exempt answers are left out, a body the kit did not read
 * whole is untestable. `statuses()` lists the judged answers by status, for the passing message.
 */
export function errorBodyRule(t: Tally, ctx: CheckContext, wording: ErrorBodyWording) {
  const statuses = new Map<number, number>();
  return {
    statuses: () => [...statuses].map(([s, n]) => `${s} ×${n}`).join(", "),
    judge(x: Exchange): void {
      if (x.status === undefined || x.status < 400 || x.method === "OPTIONS" || wording.exempt(x)) return;
      if (x.text === undefined || (x.end && x.end.reason !== "eof")) {
        t.untestable(`the body of ${x.method} ${x.path} (${x.status}) was not read whole`);
        return;
      }
      statuses.set(x.status, (statuses.get(x.status) ?? 0) + 1);
      const r = x.isJson ? ctx.validate("error-response", x.json) : undefined;
      if (r?.ok) t.ok();
      else t.fail(wording.expected, wording.actual(x, r?.errors), evidenceOf(x));
    },
  };
}
