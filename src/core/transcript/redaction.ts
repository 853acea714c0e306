/**
 * What a run keeps out of its transcripts and reports: the values of credential headers (a fixed
 * list, plus every header the user passed, whatever its name) and the literal secrets the user
 * gave (--token, --header values) wherever else they turn up — URLs, bodies, check messages.
 */

/** Header names whose values are always credentials. */
const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "x-api-key", "api-key", "cookie", "set-cookie"];

export const REDACTED = "[redacted]";

/**
 * Secrets shorter than this are only hidden in header fields: replacing a 1-3 character value
 * everywhere would shred the transcript without protecting anything.
 */
const MIN_SCRUBBED_LENGTH = 4;

export interface Secrets {
  /** Lower-cased header names whose values are replaced. */
  headers: ReadonlySet<string>;
  /** Literal values replaced wherever they occur in a string. */
  values: readonly string[];
}

export function secretsOf(userHeaders: Record<string, string> = {}, literals: (string | undefined)[] = []): Secrets {
  const values = [...Object.values(userHeaders), ...literals]
    .filter((v): v is string => typeof v === "string" && v.length >= MIN_SCRUBBED_LENGTH)
    // Longest first, so a value that contains another is replaced whole.
    .sort((a, b) => b.length - a.length);
  return {
    headers: new Set([...CREDENTIAL_HEADERS, ...Object.keys(userHeaders).map((k) => k.toLowerCase())]),
    values: [...new Set(values)],
  };
}

/** Query parameters that carry credentials in URLs (pi-web's ?token=, API keys). */
const SECRET_QUERY = /([?&](?:token|access_token|api_key|apikey|key)=)[^&#]*/gi;

/** A URL (or path) with the values of credential query parameters replaced. */
export function redactQuery(url: string): string {
  return url.replace(SECRET_QUERY, `$1${REDACTED}`);
}

/** The values of credential query parameters in a URL: secrets to hide wherever the URL is quoted. */
export function queryCredentials(url: string | undefined): string[] {
  return [...(url ?? "").matchAll(SECRET_QUERY)].map((m) => m[0].slice(m[1]!.length)).filter((v) => v !== "");
}

/** The default: the fixed credential headers, no user secrets. */
export const DEFAULT_SECRETS: Secrets = secretsOf();

/** Replaces each secret value in a string (also in its JSON-escaped form, as report text carries it). */
export function scrubText(text: string, secrets: Secrets): string {
  let out = text;
  for (const v of secrets.values) {
    if (out.includes(v)) out = out.split(v).join(REDACTED);
    const escaped = JSON.stringify(v).slice(1, -1);
    if (escaped !== v && out.includes(escaped)) out = out.split(escaped).join(REDACTED);
  }
  return out;
}

/** A copy of `value` with secret values replaced in every string it holds; header maps are not special here. */
export function scrubDeep<T>(value: T, secrets: Secrets): T {
  if (secrets.values.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return scrubText(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object" && !(v instanceof Uint8Array)) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}

/** A header map with the values of secret headers replaced. */
export function redactHeaders(headers: Record<string, string>, secrets: Secrets): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = secrets.headers.has(k.toLowerCase()) ? redactHeaderValue(k, v) : v;
  return out;
}

/**
 * Authorization headers keep a registered scheme that carries one credential ("Bearer [redacted]"):
 * the rules on the header's form judge a replay as they judged the run. Anything else is hidden whole.
 */
const SCHEMED = new Set(["authorization", "proxy-authorization"]);
const ONE_CREDENTIAL = /^(bearer|basic|token|apikey)[ \t]+\S+$/i;

export function redactHeaderValue(name: string, value: string): string {
  if (!SCHEMED.has(name.toLowerCase())) return REDACTED;
  const m = ONE_CREDENTIAL.exec(value.trim());
  return m ? `${value.trim().slice(0, m[1]!.length)} ${REDACTED}` : REDACTED;
}
