/** The contract's paths, as data: a route name (the transcript label), its pattern and methods. */

export type RouteName = "servers" | "connect" | "status" | "disconnect" | "chat-stream" | "chat";

interface RouteDef {
  name: RouteName;
  pattern: RegExp;
  method: "GET" | "POST";
}

const ROUTES: readonly RouteDef[] = [
  { name: "servers", pattern: /^\/servers$/, method: "GET" },
  // The id stays percent-encoded here so an encoded "/" cannot change the route.
  { name: "connect", pattern: /^\/connect\/([^/]+)$/, method: "POST" },
  { name: "status", pattern: /^\/status$/, method: "GET" },
  { name: "disconnect", pattern: /^\/disconnect$/, method: "POST" },
  { name: "chat-stream", pattern: /^\/chat\/stream$/, method: "POST" },
  { name: "chat", pattern: /^\/chat$/, method: "POST" },
];

export interface RouteMatch {
  name: RouteName;
  method: "GET" | "POST";
  /** The raw (still percent-encoded) path parameter, for connect. */
  param?: string;
}

export function matchRoute(path: string): RouteMatch | undefined {
  for (const r of ROUTES) {
    const m = r.pattern.exec(path);
    if (m) return { name: r.name, method: r.method, ...(m[1] !== undefined ? { param: m[1] } : {}) };
  }
  return undefined;
}

export const isChatRoute = (name: RouteName | undefined): boolean => name === "chat" || name === "chat-stream";
