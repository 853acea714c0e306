/**
 * The names a mock offers (scenarios, framings, faults, profiles...) and the checks of its options:
 * a mock started with an unknown name or a bad number fails loudly, naming what is wrong, instead
 * of serving the default. Browser-safe.
 */
import { MockOptionError } from "../protocol.js";

/** How to look a name up, and every valid name (listed when one is unknown). */
export interface NameTable {
  find: (name: string) => unknown;
  all: readonly { name: string }[];
}

export interface MockNames<K extends string> {
  /** Null when the name is known, else a message that lists the valid names. */
  unknownNameMessage(kind: K, name: string): string | null;
  /** Throws a MockOptionError for an unknown name. */
  checkName(kind: K, name: string): void;
}

/** Throws option errors prefixed with the mock's name, the form every mock uses. */
export function optionFailure(protocolId: string): (message: string) => never {
  return (message) => {
    throw new MockOptionError(`${protocolId} mock: ${message}`);
  };
}

export function mockNames<K extends string>(protocolId: string, tables: Record<K, NameTable>): MockNames<K> {
  const fail = optionFailure(protocolId);
  const unknownNameMessage = (kind: K, name: string): string | null => {
    const t = tables[kind];
    if (t.find(name)) return null;
    return `Unknown ${kind} "${name}". Valid ${kind}s: ${t.all.map((x) => x.name).join(", ")}`;
  };
  return {
    unknownNameMessage,
    checkName(kind, name) {
      const message = unknownNameMessage(kind, name);
      if (message) fail(message);
    },
  };
}

/** Why a knob is not a number of milliseconds (or of `unit`) >= 0; null when it is one. */
export function nonNegativeProblem(unit?: string): (key: string, v: unknown) => string | null {
  const what = unit ? `a number of ${unit}` : "a number";
  return (key, v) => (typeof v !== "number" || !Number.isFinite(v) || v < 0 ? `${key} must be ${what} >= 0, got ${String(v)}` : null);
}

/** The numeric knobs given explicitly, each checked; the first bad one fails. */
export function givenNumbers<K extends string>(
  keys: readonly K[],
  options: Partial<Record<K, unknown>>,
  problem: (key: K, v: unknown) => string | null,
  fail: (message: string) => never,
): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const key of keys) {
    const v = options[key];
    if (v === undefined) continue;
    const p = problem(key, v);
    if (p) fail(p);
    out[key] = v as number;
  }
  return out;
}

/** A comma-separated list of names, blanks dropped. */
export function splitNames(list: string | null | undefined): string[] {
  return (list ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** A percent-decoded path parameter, or the raw text when it does not decode. */
export function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The entries that are set: an option given as undefined must not hide a default or a setting. */
export function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The scenario, framing and faults a mock starts with, each name checked. */
export function checkedSelection(
  names: MockNames<"scenario" | "framing" | "fault">,
  given: { scenario?: string; framing?: string; faults?: readonly string[] },
  defaults: { scenario: string; framing: string },
): { scenario: string; framing: string; faults: string[] } {
  const scenario = given.scenario ?? defaults.scenario;
  names.checkName("scenario", scenario);
  const framing = given.framing ?? defaults.framing;
  names.checkName("framing", framing);
  const faults = [...(given.faults ?? [])];
  for (const f of faults) names.checkName("fault", f);
  return { scenario, framing, faults };
}
