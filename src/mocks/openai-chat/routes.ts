/**
 * The paths the mock serves, as data: a route name (the transcript label), its pattern and method.
 * Paths are matched with and without the conventional `/v1` prefix.
 */

export type RouteName = "chat-completions" | "models" | "model" | "responses";

interface RouteDef {
  name: RouteName;
  pattern: RegExp;
  /** Allowed method; undefined = any (the route answers every method the same way). */
  method?: "GET" | "POST";
}

const ROUTES: readonly RouteDef[] = [
  { name: "chat-completions", pattern: /^\/chat\/completions\/?$/, method: "POST" },
  { name: "models", pattern: /^\/models\/?$/, method: "GET" },
  // The id stays percent-encoded here so an encoded "/" cannot change the route.
  { name: "model", pattern: /^\/models\/([^/]+)$/, method: "GET" },
  { name: "responses", pattern: /^\/responses(?:\/.*)?$/ },
];

export interface RouteMatch {
  name: RouteName;
  method?: "GET" | "POST";
  param?: string;
}

export function matchRoute(path: string): RouteMatch | undefined {
  const p = path.startsWith("/v1/") ? path.slice(3) : path === "/v1" ? "/" : path;
  for (const r of ROUTES) {
    const m = r.pattern.exec(p);
    if (m) {
      return {
        name: r.name,
        ...(r.method ? { method: r.method } : {}),
        ...(m[1] !== undefined ? { param: m[1] } : {}),
      };
    }
  }
  return undefined;
}

export { stripBase } from "../../core/mock/paths.js";
