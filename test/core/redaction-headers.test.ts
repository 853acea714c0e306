/**
 * Credential headers as transcripts and reports show them: an Authorization header keeps a scheme that carries one
 * credential, so the rules on its form judge a replay as they judged the run; anything else is hidden whole. The proxy
 * collects every credential word of the headers it relays, so an echo of one alone is hidden too.
 */
import { describe, expect, it } from "vitest";
import { redactHeaderValue, redactHeaders, scrubText, DEFAULT_SECRETS } from "../../src/core/transcript/redaction.js";
import { redact } from "../../src/core/transcript/transcript-file.js";
import { SeenSecrets } from "../../src/proxy/secrets.js";
import type { TranscriptEvent } from "../../src/core/transcript/transcript.js";

describe("redacting an Authorization header", () => {
  it.each([
    ["Bearer sk-test-123", "Bearer [redacted]"],
    ["basic dXNlcjpzdXBlcnNlY3JldA==", "basic [redacted]"],
    ["  Token abcdef  ", "Token [redacted]"],
    ["sk-no-scheme", "[redacted]"],
    ["secretpart1 secretpart2", "[redacted]"],
    ['Digest username="u", realm="r", response="abc"', "[redacted]"],
    ["Bearer aaaa, Bearer bbbb", "[redacted]"],
    ["Bearer", "[redacted]"],
  ])("%j → %j", (value, shown) => {
    expect(redactHeaderValue("Authorization", value)).toBe(shown);
  });

  it("hides other credential headers whole", () => {
    expect(redactHeaders({ cookie: "a=b", "x-api-key": "Bearer k", accept: "*/*" }, DEFAULT_SECRETS)).toEqual({ cookie: "[redacted]", "x-api-key": "[redacted]", accept: "*/*" });
  });
});

describe("the credentials the proxy collects", () => {
  const seen = (authorization: string) => {
    const s = new SeenSecrets();
    s.see({ authorization }, "http://127.0.0.1/");
    return s.secrets;
  };

  it("hides each credential word alone, and the whole value, never the scheme's name", () => {
    const secrets = seen("Bearer aaaa1, Bearer bbbb2");
    expect(scrubText("echo aaaa1 and bbbb2", secrets)).toBe("echo [redacted] and [redacted]");
    expect(scrubText("a Bearer token", secrets)).toBe("a Bearer token");
  });

  it("a transcript's request keeps the scheme in its header and hides the token wherever else it is", () => {
    const secrets = seen("Bearer sk-test-123");
    const ev = { kind: "http-request", seq: 0, t: 0, probe: "p", exchange: "x1", label: "l", method: "POST", url: "http://h/v1?x=sk-test-123", path: "/v1", headers: { authorization: "Bearer sk-test-123" }, body: '{"key":"sk-test-123"}' } as TranscriptEvent;
    const out = redact(ev, secrets) as Extract<TranscriptEvent, { kind: "http-request" }>;
    expect(out.headers.authorization).toBe("Bearer [redacted]");
    expect(JSON.stringify(out)).not.toContain("sk-test-123");
  });
});
