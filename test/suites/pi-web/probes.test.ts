/** The pi-web probes: target URLs in every accepted form, and the documented probe order. */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import { TranscriptBus, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { PI_WEB_DEFAULT_PARAMS, piWeb, resolvePiWebTarget } from "../../../src/suites/pi-web/index.js";
import { readParams } from "../../../src/suites/pi-web/params.js";

const params = readParams({});

describe("target URLs", () => {
  it.each([
    ["http://127.0.0.1:4781", undefined, { http: "http://127.0.0.1:4781", ws: "ws://127.0.0.1:4781", wsPath: "/ws", origin: "http://127.0.0.1:4781", token: undefined }],
    ["ws://127.0.0.1:4781/ws", undefined, { http: "http://127.0.0.1:4781", ws: "ws://127.0.0.1:4781", wsPath: "/ws", origin: "http://127.0.0.1:4781", token: undefined }],
    ["ws://localhost:4781/ws?token=a%20b", undefined, { http: "http://localhost:4781", wsPath: "/ws", origin: "http://localhost:4781", token: "a b" }],
    ["ws://127.0.0.1:4781/ws?token=url", "flag", { token: "flag" }],
    ["ws://127.0.0.1:4781", undefined, { wsPath: "/ws" }],
    ["wss://pi.example/agent/socket", undefined, { http: "https://pi.example", ws: "wss://pi.example", wsPath: "/agent/socket", origin: "https://pi.example:443" }],
    ["http://127.0.0.1:4781/base", undefined, { http: "http://127.0.0.1:4781/base", ws: "ws://127.0.0.1:4781/base", wsPath: "/ws" }],
  ] as const)("%s (token %s)", (url, token, want) => {
    expect(resolvePiWebTarget(url, token, params)).toMatchObject(want);
  });

  it("takes --origin over the derived one", () => {
    expect(resolvePiWebTarget("http://127.0.0.1:4781", undefined, readParams({ origin: "http://localhost:5173" })).origin).toBe("http://localhost:5173");
  });

  it("gives clients the ws:// URL of the mock", () => {
    expect(piWeb.clientEnv?.("http://127.0.0.1:4781")).toEqual({ PI_WEB_URL: "ws://127.0.0.1:4781/ws" });
    expect(piWeb.auth).toEqual({ token: "probes" });
    expect(piWeb.defaultPort).toBe(4781);
    expect(piWeb.timeouts.request).toBe(30_000);
    expect(PI_WEB_DEFAULT_PARAMS.foreignOrigin).toBe("http://evil.example");
  });
});

describe("probe order against the mock", () => {
  it("runs the documented groups, connections and labelled messages in order", async () => {
    const bus = new TranscriptBus();
    const groups: string[] = [];
    const conns: string[] = [];
    const out: string[] = [];
    const labelOf = new Map<string, string | undefined>();
    const replies: Record<string, string | undefined> = {};
    bus.subscribe((e: TranscriptEvent) => {
      if (e.kind === "probe-start") groups.push(e.probe);
      if (e.kind === "ws-open") labelOf.set(e.connection, e.label);
      if (e.kind === "ws-frame" && e.direction === "out" && e.label?.startsWith("reply:")) replies[e.label] = labelOf.get(e.connection);
      if (e.kind === "ws-open") conns.push(`101 ${e.label}`);
      if (e.kind === "ws-reject") conns.push(`${e.status} ${e.label}`);
      if (e.kind === "ws-frame" && e.direction === "out") out.push(e.label ?? "?");
    });
    // The mock at the self-test pace; the probes with a real target's timeouts and parameters.
    const mock = await piWeb.startMock({ host: "127.0.0.1", port: 0, suite: true });
    try {
      await piWeb.runProbes({
        url: mock.url,
        bus,
        timeouts: piWeb.timeouts,
        headers: {},
        profile: DEFAULT_PROFILE,
        params: { ...piWeb.defaultParams },
        maxBytes: 1 << 26,
        signal: new AbortController().signal,
        progress: () => undefined,
      });
    } finally {
      await mock.close();
    }
    expect(groups).toEqual(["health", "upgrade", "idle", "bad-input", "runs", "invalid-prompt", "long", "queue", "abort", "ext", "sessions", "settle"]);
    expect(conns).toEqual(["101 main", "404 upgrade:other-path:/socket", "404 upgrade:other-path:/ws/x", "403 upgrade:foreign-origin", "403 upgrade:no-origin", "101 passive"]);
    expect(out).toEqual([
      "abort:idle", "state:initial", "usage:initial", "messages:initial",
      "bad:malformed", "bad:array", "bad:number", "bad:typeless", "bad:unknown-command", "state:after-bad-input",
      "echo:unicode", "echo:long", "echo:quotes", "echo:spaces", "echo:none",
      "prompt:text", "history:text", "prompt:thinking", "history:thinking", "prompt:tool", "history:tool",
      "prompt:two-tools", "history:two-tools", "prompt:error", "history:error", "prompt:error-retry", "history:error-retry",
      "prompt:ext-error", "history:ext-error", "prompt:images", "history:images",
      "prompt:invalid",
      "prompt:long", "mid-run:state", "mid-run:messages", "mid-run:usage", "mid-run:sessions", "prompt:busy", "state:after-run", "history:long",
      "prompt:queue-q1", "steer:q1", "history:queue-q1",
      "prompt:queue-q4", "follow-up:q4", "history:queue-q4",
      "prompt:queue-q2", "steer:q2", "follow-up:q2", "clear:q2", "history:queue-q2",
      "prompt:queue-q3", "follow-up:q3", "state:queue-q3-before", "abort:queue", "state:queue-q3-after", "clear:q3", "history:queue-q3",
      "prompt:abort", "abort:run", "state:after-abort",
      "prompt:ext-dialogs", "reply:confirm", "reply:select", "reply:second", "reply:input", "reply:editor",
      "reply:stray-unknown", "reply:stray-fire-and-forget", "state:after-stray",
      "sessions:all", "sessions:default", "sessions:cwd", "state:before-new", "new:after-run", "state:after-new", "messages:after-new",
      "switch:listed", "state:after-switch", "messages:after-switch", "switch:missing", "state:after-missing",
      "prompt:new-mid-run", "new:mid-run", "state:after-new-mid-run", "prompt:after-new", "history:after-new", "sessions:after-new",
    ]);
    // Both replies to the select dialog on one socket: only there is the order they arrive in the order they were sent.
    expect(replies["reply:select"]).toBe("main");
    expect(replies["reply:second"]).toBe("main");
  });
});
