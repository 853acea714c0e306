/**
 * The credentials relayed traffic carries: forwarded as they are, but collected as they pass so the
 * transcript and the reports hide them wherever they turn up (a server may echo a token).
 */
import { queryCredentials, secretsOf, type Secrets } from "../core/transcript/redaction.js";

/** Header values that are credentials, besides the names redaction always hides. */
const TOKEN_HEADERS = ["authorization", "proxy-authorization", "x-api-key", "api-key", "cookie"];
const MIN_LENGTH = 4;
/** Authorization scheme names: words of the header that are no secret. */
const SCHEMES = /^(bearer|basic|token|apikey|digest|negotiate|ntlm)$/i;

export class SeenSecrets {
  private readonly values: string[] = [];
  readonly secrets: Secrets;

  constructor(literals: string[] = []) {
    const base = secretsOf({}, literals);
    this.values.push(...base.values);
    this.secrets = { headers: base.headers, values: this.values };
  }

  /** Collects the credentials of one request (its headers and the query of its URL). */
  see(headers: Record<string, string>, url: string): void {
    for (const name of TOKEN_HEADERS) {
      const v = headers[name];
      if (!v) continue;
      // The whole value, and each credential word after its scheme ("Bearer abc" → "abc"), which a server may echo alone.
      this.add(v);
      if (name.endsWith("authorization")) for (const word of v.trim().split(/[\s,]+/)) if (!SCHEMES.test(word)) this.add(word);
      if (name === "cookie") for (const part of v.split(";")) this.add(part.split("=").slice(1).join("=").trim());
    }
    for (const q of queryCredentials(url)) this.add(q);
  }

  private add(value: string): void {
    if (value.length < MIN_LENGTH || this.values.includes(value)) return;
    this.values.push(value);
    // Longest first, so a value that contains another is replaced whole.
    this.values.sort((a, b) => b.length - a.length);
  }
}
