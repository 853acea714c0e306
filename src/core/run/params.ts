/**
 * Typed access to a suite's parameters. The runner fills ctx.params from the protocol's defaults,
 * the profile and the command line (`--set k=v` gives strings); a reader coerces what it can and
 * falls back to the default for a value of the wrong type.
 */
export function paramReader<T extends Record<string, unknown>>(
  defaults: T,
  opts: { numbersAsStrings?: boolean } = {},
): (params: Readonly<Record<string, unknown>>) => T {
  return (params) => {
    const out: Record<string, unknown> = { ...defaults };
    for (const key of Object.keys(defaults)) {
      const value = params[key];
      const def = defaults[key];
      if (value === undefined || value === null) continue;
      out[key] = coerce(def, value, opts.numbersAsStrings ?? false) ?? def;
    }
    return out as T;
  };
}

function coerce(def: unknown, value: unknown, numbersAsStrings: boolean): unknown {
  if (Array.isArray(def)) {
    if (Array.isArray(value)) return value.map(String);
    if (typeof value === "string") return value.split(",").map((s) => s.trim()).filter(Boolean);
    return undefined;
  }
  if (typeof value === typeof def) return value;
  if (typeof def === "number" && typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  if (typeof def === "boolean" && (value === "true" || value === "false")) return value === "true";
  // A model id or a name may come as a number from a config file.
  if (numbersAsStrings && typeof def === "string" && (typeof value === "number" || typeof value === "boolean")) return String(value);
  return undefined;
}

/**
 * Parameters every run reads besides a protocol's own, with a value of their type: the client
 * checks' crossing grace (checks/crossing.ts), and pi-web's wait for an answer to a client request.
 */
const RUN_PARAMS: Record<string, unknown> = { crossingGraceMs: 250 };
const PROTOCOL_EXTRA_PARAMS: Record<string, Record<string, unknown>> = { "pi-web": { clientRequestTimeoutMs: 30_000 } };

/**
 * The parameters a protocol's probes and checks read (what `--set` may name), each with a value
 * that shows its type: the defaults, the self-test pacing, what the profiles set, and the run-wide ones.
 */
export function knownParams(p: {
  id: string;
  defaultParams: Readonly<Record<string, unknown>>;
  selfTest?: { params?: Readonly<Record<string, unknown>> };
  profiles: readonly { params?: Readonly<Record<string, unknown>> }[];
}): Record<string, unknown> {
  // The defaults first (their order is the suite's), then what only the others name.
  const out: Record<string, unknown> = { ...p.defaultParams };
  for (const extra of [p.selfTest?.params ?? {}, ...p.profiles.map((x) => x.params ?? {}), PROTOCOL_EXTRA_PARAMS[p.id] ?? {}, RUN_PARAMS]) {
    for (const [k, v] of Object.entries(extra)) if (!(k in out)) out[k] = v;
  }
  return out;
}

/** Whether a `--set` value can be read as a parameter whose default is `def` (what `paramReader` coerces). */
export function paramTypeFits(def: unknown, value: unknown): boolean {
  if (Array.isArray(def)) return Array.isArray(value) || typeof value === "string";
  if (def === null || def === undefined) return true;
  if (typeof def === "object") return typeof value === "object" && value !== null && !Array.isArray(value);
  // A string parameter takes any text (`--set model=3` means the text "3").
  if (typeof def === "string") return true;
  const read = coerce(def, value, false);
  // A number parameter takes a finite number (1e999 is no time limit, it is a typo).
  return typeof def === "number" ? typeof read === "number" && Number.isFinite(read) : read !== undefined;
}
