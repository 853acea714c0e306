/**
 * The names a mock offers (scenarios, framings, faults, profiles...): a mock started with an
 * unknown name fails loudly, listing the valid ones, instead of serving the default. Browser-safe.
 */
import { optionFailure } from "./option-checks.js";

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

/** A comma-separated list of names, blanks dropped. */
export function splitNames(list: string | null | undefined): string[] {
  return (list ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
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
