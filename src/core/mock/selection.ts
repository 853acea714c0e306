/**
 * What one request selects by name: the scenario, framing and faults a test asks for through the
 * `x-agentwire-*` headers or the query, on top of the mock's options. An unknown name is kept as a
 * problem for the mock to refuse in its own error shape; the default stands in for it meanwhile.
 */
import type { MockRequest } from "./exchange.js";
import { splitNames } from "./names.js";

export const HEADER_SCENARIO = "x-agentwire-scenario";
export const HEADER_FRAMING = "x-agentwire-framing";
export const HEADER_FAULT = "x-agentwire-fault";

export interface SelectionProblem<K extends string> {
  kind: K;
  message: string;
}

/** The name a header gives, else the query parameter, else null. */
export function requestedName(request: MockRequest, url: URL, header: string, query: string): string | null {
  // No query, no URLSearchParams to build.
  return request.headers.get(header) ?? (url.search === "" ? null : url.searchParams.get(query));
}

export class Selection<K extends string> {
  /** Unknown names, in the order they were met. */
  readonly problems: SelectionProblem<K>[] = [];

  constructor(private readonly unknownNameMessage: (kind: K, name: string) => string | null) {}

  /** The item of that name, or undefined with a problem noted. */
  pick<T>(kind: K, name: string, find: (name: string) => T | undefined): T | undefined {
    const found = find(name);
    if (found === undefined) this.problems.push({ kind, message: this.unknownNameMessage(kind, name) as string });
    return found;
  }

  /** The named item, or the configured one when the name is unknown. */
  one<T>(kind: K, name: string | null, configured: string, find: (name: string) => T | undefined): T {
    return this.pick(kind, name ?? configured, find) ?? (find(configured) as T);
  }

  /** The configured items plus the known ones of a comma-separated list. */
  list<T>(kind: K, configured: readonly T[], names: string | null, find: (name: string) => T | undefined): T[] {
    const out = [...configured];
    for (const name of splitNames(names)) {
      const found = this.pick(kind, name, find);
      if (found !== undefined) out.push(found);
    }
    return out;
  }
}
