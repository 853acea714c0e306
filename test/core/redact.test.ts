import { describe, expect, it } from "vitest";
import { redact } from "../../src/core/transcript/transcript-file.js";
import type { TranscriptEvent } from "../../src/core/transcript/transcript.js";

describe("transcript redaction", () => {
  it("hides credential headers and token query parameters, keeping the rest", () => {
    const req = {
      kind: "http-request", seq: 0, t: 0, probe: "p", exchange: "x1", label: "l", method: "GET",
      url: "http://h/ws?token=s3cret&x=1", path: "/ws?token=s3cret&x=1",
      headers: { authorization: "Bearer s3cret", accept: "*/*" },
    } as TranscriptEvent;
    const out = JSON.stringify(redact(req));
    expect(out).not.toContain("s3cret");
    expect(out).toContain("x=1");
    expect(out).toContain('"accept":"*/*"');
    const open = { kind: "ws-open", seq: 1, t: 0, probe: "p", connection: "c1", url: "ws://h/ws?token=abc" } as TranscriptEvent;
    expect(JSON.stringify(redact(open))).not.toContain("abc");
    // Twice in a row: the shared pattern must not keep state between calls.
    expect(JSON.stringify(redact(open))).not.toContain("abc");
  });
});
