/** A loopback server answering every request with an event stream, and the recording client reading it as a probe. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import { exchange, type ExchangeResult } from "../../src/core/transport/http-exchange.js";
import { TranscriptBus, type TranscriptEvent } from "../../src/core/transcript/transcript.js";

/** Servers started by `serveStream` in the calling test file, closed after each test. */
export function streamServers(): { serve(write: (res: http.ServerResponse) => void, headers?: Record<string, string>): Promise<string> } {
  const servers: http.Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    }
  });
  return {
    async serve(write, headers = {}) {
      const server = http.createServer((req, res) => {
        req.resume();
        res.writeHead(200, { "content-type": "text/event-stream", ...headers });
        write(res);
      });
      servers.push(server);
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    },
  };
}

/** A POST read as a stream by the recording client, with the events it put on its bus. */
export async function readStream(url: string, maxBytes?: number): Promise<{ result: ExchangeResult; events: TranscriptEvent[]; end: TranscriptEvent | undefined }> {
  const bus = new TranscriptBus();
  const events: TranscriptEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const result = await exchange(bus, {
    probe: "p",
    label: "l",
    method: "POST",
    url,
    body: "{}",
    stream: true,
    timeouts: { headers: 5000, total: 30_000, close: 2000 },
    ...(maxBytes !== undefined ? { maxBytes } : {}),
    isTerminal: (d) => d === "[DONE]",
  });
  return { result, events, end: events.find((e) => e.kind === "body-end") };
}
