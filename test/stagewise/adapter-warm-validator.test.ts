/**
 * The first subscriptions validate their input; the validator (loaded and compiled on first use) gets ready while
 * the first upgrade is under way, so the toolbar's first values do not wait for it; so do the modules the server
 * loads late (tRPC, the router, and what its extras name).
 */
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { formatSchemaErrors, registry } from "../../src/core/schemas/schema-registry.js";
import { startAgentServer } from "../../src/stagewise/adapter/server.js";

describe("stagewise agent adapter: the validator warms with the first upgrade", () => {
  it("has validated the subscriptions' input schema before the first socket opens, and not before a client came", async () => {
    const calls: string[] = [];
    const validate = (schema: string, value: unknown) => {
      calls.push(schema);
      const r = registry.validate("stagewise-chat", schema, value);
      return r.ok ? null : formatSchemaErrors(r.errors);
    };
    const server = await startAgentServer({ port: 0 }, validate);
    try {
      await fetch(server.infoUrl).then((r) => r.arrayBuffer());
      await new Promise((r) => setTimeout(r, 20));
      expect(calls).not.toContain("void-input");
      const ws = new WebSocket(server.wsUrl, { headers: { origin: "http://localhost:3000" } });
      await new Promise((resolve, reject) => (ws.once("open", resolve), ws.once("error", reject)));
      expect(calls).toContain("void-input");
      ws.close();
    } finally {
      await server.close();
    }
  });

  it("loads what the extras name with the first upgrade, before the socket opens, and not for discovery", async () => {
    const events: string[] = [];
    const validate = (schema: string, value: unknown) => {
      const r = registry.validate("stagewise-chat", schema, value);
      return r.ok ? null : formatSchemaErrors(r.errors);
    };
    const load = async () => {
      events.push("load started");
      await new Promise((r) => setTimeout(r, 30));
      events.push("load done");
    };
    const server = await startAgentServer({ port: 0 }, validate, { load });
    try {
      await fetch(server.infoUrl).then((r) => r.arrayBuffer());
      expect(events).toEqual([]);
      const ws = new WebSocket(server.wsUrl, { headers: { origin: "http://localhost:3000" } });
      await new Promise((resolve, reject) => (ws.once("open", resolve), ws.once("error", reject)));
      events.push("open");
      expect(events).toEqual(["load started", "load done", "open"]);
      ws.close();
    } finally {
      await server.close();
    }
  });
});
