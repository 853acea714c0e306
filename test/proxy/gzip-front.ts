/**
 * A compressing front for a target, as Express's compression() puts one before an app: every answer to a request
 * that accepts gzip is sent gzip-coded, flushed write by write (so a stream still streams), event streams included.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { constants, createGzip } from "node:zlib";

export async function gzipFront(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const to = new URL(target);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, host: to.host };
    // The app behind answers plainly; the front does the coding.
    delete headers["accept-encoding"];
    const up = http.request({ host: to.hostname, port: to.port, path: new URL(req.url ?? "/", to).pathname + new URL(req.url ?? "/", to).search, method: req.method, headers }, (answer) => {
      const gzip = /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
      const out = { ...answer.headers };
      if (!gzip) {
        res.writeHead(answer.statusCode ?? 502, out);
        answer.pipe(res);
        return;
      }
      delete out["content-length"];
      out["content-encoding"] = "gzip";
      res.writeHead(answer.statusCode ?? 502, out);
      const z = createGzip({ flush: constants.Z_SYNC_FLUSH });
      z.pipe(res);
      answer.pipe(z);
    });
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${to.pathname === "/" ? "" : to.pathname}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
