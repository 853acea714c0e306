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
