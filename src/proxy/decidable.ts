/**
 * Which checks the proxy can decide from relayed traffic: the rest end `skip` with the reason the
 * protocol's adapter gives (its data), never by editing a check.
 */
import type { CheckDef } from "../core/checks/check.js";
import { tap } from "../core/checks/check.js";
import type { ProxyAdapter, Undecidable } from "./adapter.js";
import { NEEDS_TEST } from "./adapter.js";

/** Probe names that stand for any relayed request ("every request", "every chat request"). */
const ANY_REQUEST = /^every\b/;

function listed(id: string, sets: readonly Undecidable[]): string | undefined {
  return sets.find((s) => s.ids.some((p) => id === p || (p.endsWith("/") && id.startsWith(p))))?.reason;
}

/** Why the proxy cannot decide a check, or undefined when it can. */
export function undecidable(check: CheckDef, adapter: ProxyAdapter): string | undefined {
  if (check.side === "client") return listed(check.id, adapter.needsMock);
  const reason = listed(check.id, adapter.needsKit);
  if (reason) return reason;
  const labels = new Set(adapter.labels);
  return check.probes.some((p) => labels.has(p) || ANY_REQUEST.test(p)) ? undefined : NEEDS_TEST;
}

/** The check as the proxy runs it: itself, or a record that ends `skip` with the reason. */
export function asProxied(check: CheckDef, adapter: ProxyAdapter): CheckDef {
  const reason = undecidable(check, adapter);
  if (!reason) return check;
  return { ...check, create: () => ({ observe: tap([], () => undefined), finish: () => ({ verdict: "skip", message: `not judged live: ${reason}` }) }) };
}
