/**
 * Discovery over HTTP (§1): `GET <infoPath>` answers StagewiseInfo with CORS open to any page origin; everything else
 * gets a JSON 404/405, never a crash.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { StagewiseInfo } from "../../generated/stagewise-chat.js";

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "*",
};

export function discoveryHandler(infoPath: string, info: StagewiseInfo): (req: IncomingMessage, res: ServerResponse) => void {
  const body = JSON.stringify(info);
  return (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const send = (status: number, json?: unknown, extra: Record<string, string> = {}) => {
      res.writeHead(status, { ...CORS, ...(json === undefined ? {} : { "content-type": "application/json" }), ...extra });
      res.end(json === undefined ? undefined : typeof json === "string" ? json : JSON.stringify(json));
    };
    if (req.method === "OPTIONS") return send(204);
    if (path !== infoPath) return send(404, { error: `no route ${req.method ?? ""} ${path ?? ""}; discovery is GET ${infoPath}` });
    if (req.method !== "GET" && req.method !== "HEAD") return send(405, { error: `${infoPath} answers GET` }, { allow: "GET, OPTIONS" });
    send(200, body);
  };
}
