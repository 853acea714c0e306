/**
 * The first subscriptions validate their input; the validator (loaded and compiled on first use) gets ready while
 * the first upgrade is under way, so the toolbar's first values do not wait for it.
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
});
