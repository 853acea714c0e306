/**
 * An agent without the chat capability, as the published package is (availability, state,
 * messaging): under stagewise-published its capabilities are judged and every chat rule is skipped
 * as not applicable, with the prompt sent through messaging as the published toolbar sends it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { WebSocketServer, type WebSocket } from "ws";
import type { CheckResult } from "../../../src/core/verdicts/result.js";
import { runSuite } from "../../../src/core/run/runner.js";
import { stagewiseChat } from "../../../src/suites/stagewise-chat/index.js";
import { byId, explain, serverSide } from "../../helpers/run-results.js";

const DATE = "2025-08-08T10:00:00.000Z";
const VOID = { json: null, meta: { values: ["undefined"] } };
const err = (id: unknown, code: string, json: number, httpStatus: number, message: string) => ({
  id,
  error: { json: { message, code: json, data: { code, httpStatus } } },
});

/** A hand-written published-style agent on raw frames. */
async function publishedAgent(): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "access-control-allow-origin": "*" });
    res.end(JSON.stringify({ name: "published", description: "no chat", capabilities: { toolCalling: false, chatHistory: false } }));
  });
  const wss = new WebSocketServer({ server: http, path: "/stagewise/ws" });
  const messagingSubs = new Set<{ ws: WebSocket; id: unknown }>();
  const update = (messageId: string, text: string) => ({
    json: { messageId, updateParts: text ? [{ contentIndex: 0, part: { type: "text", text } }] : [], createdAt: DATE, resync: true },
    meta: { values: { createdAt: ["Date"] } },
  });
  let current = update("m0", "");
  wss.on("connection", (ws) => {
    const send = (v: unknown) => ws.send(JSON.stringify(v));
    ws.on("message", (raw) => {
      const data = raw.toString();
      if (data === "PING") return ws.send("PONG");
      let msg: { id?: unknown; method?: string; params?: { path?: string; input?: { json?: { contentItems?: unknown } } } };
      try {
        msg = JSON.parse(data);
      } catch {
        return send(err(null, "PARSE_ERROR", -32700, 400, "bad JSON"));
      }
      if (msg.method === "subscription.stop") return;
      if (!msg.params || !("input" in msg.params)) return send(err(null, "PARSE_ERROR", -32700, 400, "no input"));
      const path = msg.params.path ?? "";
      const data_ = (json: unknown) => send({ id: msg.id, result: { type: "data", data: json } });
      if (msg.method === "subscription" && ["availability.getAvailability", "state.getState", "messaging.getMessage"].includes(path)) {
        send({ id: msg.id, result: { type: "started" } });
        if (path === "availability.getAvailability") data_({ json: { isAvailable: true } });
        else if (path === "state.getState") data_({ json: { state: "idle" } });
        else {
          messagingSubs.add({ ws, id: msg.id });
          data_(current);
        }
        return;
      }
      if (msg.method === "mutation" && path === "messaging.sendUserMessage") {
        const items = msg.params.input?.json?.contentItems;
        if (!Array.isArray(items)) return send(err(msg.id, "BAD_REQUEST", -32600, 400, "invalid input"));
        data_(VOID);
        current = update(`m${messagingSubs.size}-${Date.now()}`, `Echo: ${(items[0] as { text?: string })?.text ?? ""}`);
        for (const s of messagingSubs) if (s.ws.readyState === s.ws.OPEN) s.ws.send(JSON.stringify({ id: s.id, result: { type: "data", data: current } }));
        return;
      }
      send(err(msg.id, "NOT_FOUND", -32004, 404, `No "${msg.method}"-procedure on path "${path}"`));
    });
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        http.close(() => r());
      }),
  };
}

describe("stagewise-chat against an agent without chat", () => {
  it("judges wire, tRPC, state and messaging under stagewise-published and skips the chat rules", async () => {
    const agent = await publishedAgent();
    try {
      const checks = serverSide(await runSuite(stagewiseChat, { url: agent.url, profile: "stagewise-published", params: { quietMs: 100, slow: false }, timeout: 5_000 }));
      for (const id of [
        "messaging/initial-resync",
        "messaging/no-replay",
        "messaging/applicable",
        "messaging/reduced-equals-fresh",
        "messaging/send-user-message",
        "state/initial-values",
        "trpc/parse-error",
        "trpc/subscription-stays-open",
      ]) {
        expect(byId(checks, `stagewise-chat/${id}`).verdict, `${id}: ${byId(checks, `stagewise-chat/${id}`).message}`).toBe("pass");
      }
      for (const id of ["chat/snapshot-equals-reduced", "chat/create-chat", "tools/approval-recorded", "state/coherent-with-chat"]) {
        expect(byId(checks, `stagewise-chat/${id}`).message, id).toMatch(/not applicable: the agent has no chat capability/);
      }
      // Reported, not failed: the published package has no chat (chatHistory:false).
      expect(byId(checks, "stagewise-chat/wire/info-capabilities").verdict).toBe("info");
      const bad = (c: CheckResult) => c.verdict === "fail";
      expect(checks.filter(bad), explain(checks, bad)).toEqual([]);
    } finally {
      await agent.close();
    }
  });
});
