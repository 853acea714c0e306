/**
 * A relay in front of a well-behaved WebSocket target (a reference mock) that changes one thing on the way back:
 * `rewrite` may replace any message the target sends. Plain HTTP is passed through as it is, so the target stays
 * what it was in every other respect, and a run against the relay shows what that one change costs.
 */
import http from "node:http";
import { WebSocket, WebSocketServer, type RawData } from "ws";
import { serve, type Hostile } from "./hostile-servers.js";

/**
 * The target's message as the relay passes it on (the n-th on its connection, from 0; `conn`: the connection's number
 * in the order of the upgrades, from 0); undefined leaves it as it is; `{ raw }` goes to the socket as it is, in place
 * of the message (a frame header that promises more than follows, say).
 */
export type Rewrite = (data: Buffer, isBinary: boolean, n: number, conn: number) => Buffer | { raw: Buffer } | undefined;

export async function relayWs(target: string, rewrite: Rewrite): Promise<Hostile> {
  const upstream = new URL(target);
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 0 });
  const pairs = new Set<WebSocket>();
  let upgrades = 0;
  const h = await serve(
    (req, res) => {
      const out = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      out.on("error", () => res.destroy());
      req.pipe(out);
    },
    (req, socket, head) => {
      const headers: Record<string, string> = {};
      for (const k of ["origin", "authorization", "cookie"]) if (typeof req.headers[k] === "string") headers[k] = req.headers[k] as string;
      const up = new WebSocket(`ws://${upstream.host}${req.url ?? "/"}`, { headers, perMessageDeflate: false, maxPayload: 0 });
      up.on("unexpected-response", (_r, res) => {
        socket.end(`HTTP/1.1 ${res.statusCode ?? 502} ${res.statusMessage ?? ""}\r\n\r\n`);
        up.terminate();
      });
      up.on("error", () => socket.destroy());
      up.on("open", () =>
        wss.handleUpgrade(req, socket, head, (down) => {
          pairs.add(down);
          pairs.add(up);
          let n = 0;
          const conn = upgrades++;
          up.on("message", (d: RawData, binary: boolean) => {
            const data = d as Buffer;
            if (down.readyState !== down.OPEN) return;
            const out = rewrite(data, binary, n++, conn) ?? data;
            if (Buffer.isBuffer(out)) down.send(out, { binary });
            else (down as unknown as { _socket: import("node:net").Socket })._socket.write(out.raw);
          });
          down.on("message", (d: RawData, binary: boolean) => {
            if (up.readyState === up.OPEN) up.send(d as Buffer, { binary });
          });
          const end = (ws: WebSocket) => (code: number, reason: Buffer) => {
            if (ws.readyState !== ws.OPEN) return;
            if (code === 1005 || code === 1006) ws.terminate();
            else ws.close(code, reason);
          };
          up.on("close", end(down));
          down.on("close", end(up));
          down.on("error", () => up.terminate());
        }),
      );
    },
  );
  return {
    url: h.url,
    close: () => {
      for (const ws of pairs) ws.terminate();
      wss.close();
      return h.close();
    },
  };
}

/** `data`, a JSON object, with a string member added that brings it to `bytes` bytes (still one JSON object). */
export function padded(data: Buffer, bytes: number): Buffer {
  const head = data.subarray(0, data.lastIndexOf("}"));
  const open = Buffer.from(`${head.length > 1 ? "," : ""}"pad":"`);
  const out = Buffer.alloc(Math.max(bytes, head.length + open.length + 2), 0x61);
  head.copy(out, 0);
  open.copy(out, head.length);
  out.write('"}', out.length - 2);
  return out;
}

/** The head of an unmasked text frame (a server's) that says `bytes` bytes follow: a peer with a smaller cap refuses it from this head alone. */
export function frameHead(bytes: number): Buffer {
  const head = Buffer.alloc(10);
  head[0] = 0x81;
  head[1] = 127;
  head.writeBigUInt64BE(BigInt(bytes), 2);
  return head;
}

/** The head of a masked text frame (a client's) that says `bytes` bytes follow: a server with a smaller cap refuses it from this head alone. */
export function clientFrameHead(bytes: number): Buffer {
  const head = Buffer.alloc(14);
  head[0] = 0x81;
  head[1] = 0x80 | 127;
  head.writeBigUInt64BE(BigInt(bytes), 2);
  // The mask key (bytes 10..13) stays zero: masking is required, its key may be any.
  return head;
}
