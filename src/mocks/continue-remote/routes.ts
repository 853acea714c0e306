/** Route matching as Express does it (§1 Routing): query ignored, trailing slash accepted, case-insensitive. */

export type RouteName = "state" | "message" | "permission" | "diff" | "exit" | "pause" | "reset" | "step" | "transcript";

const ROUTES: Record<string, { name: RouteName; method: "GET" | "POST" }> = {
  "/state": { name: "state", method: "GET" },
  "/message": { name: "message", method: "POST" },
  "/permission": { name: "permission", method: "POST" },
  "/diff": { name: "diff", method: "GET" },
  "/exit": { name: "exit", method: "POST" },
  "/pause": { name: "pause", method: "POST" },
  "/__agentwire/reset": { name: "reset", method: "POST" },
  "/__agentwire/step": { name: "step", method: "POST" },
  "/__agentwire/transcript": { name: "transcript", method: "GET" },
};

/** The route of a path, whatever the method; undefined for an unknown path. */
export function matchRoute(pathname: string, cn: boolean): { name: RouteName; method: "GET" | "POST" } | undefined {
  let path = pathname.toLowerCase();
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  const route = ROUTES[path];
  // `/pause` exists only in the current server (§6: 404 under seed).
  if (route?.name === "pause" && !cn) return undefined;
  return route;
}
