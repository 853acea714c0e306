/**
 * The paths of a mock's requests: a mock served under a prefix ("/api" of http://host/api) strips
 * it before routing, and an msw handler derives it from the base URL the frontend uses. Browser-safe.
 */

/** A configured base path without its trailing slashes ("" for none). */
export function normalBasePath(basePath: string | undefined): string {
  return (basePath ?? "").replace(/\/+$/, "");
}

/** Strips a configured base path ("/api" of http://host/api) before routing. */
export function stripBase(path: string, base: string): string {
  if (!base) return path;
  if (path === base) return "/";
  return path.startsWith(base + "/") ? path.slice(base.length) : path;
}

/** The origin and the path prefix (no trailing slash) of a base URL. */
export function urlBase(baseUrl: string | URL): { origin: string; prefix: string } {
  const base = new URL(baseUrl);
  return { origin: base.origin, prefix: normalBasePath(base.pathname) };
}

/**
 * An msw handler's address option as an absolute URL. A relative one ("/api", natural for a same-origin frontend)
 * is resolved against the page's origin when there is a page (`globalThis.location`); elsewhere (msw's setupServer in
 * Node) there is nothing to resolve it against, and the error names the option, the value and an absolute example
 * made from the handler's default address. `handler` and `option` name them: ("mcpChatHandlers", "baseUrl"). A
 * `webSocket` address resolved against the page gets the page's scheme as ws: or wss:.
 */
export function absoluteUrl(value: string, handler: string, option: string, defaultUrl: string, { webSocket = false } = {}): URL {
  try {
    return new URL(value);
  } catch {
    // not absolute (or not a URL at all)
  }
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  if (typeof origin === "string" && origin !== "null") {
    try {
      const url = new URL(value, origin);
      // As a browser's `new WebSocket("/ws")` does.
      if (webSocket) url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
      return url;
    } catch {
      // reported below
    }
  }
  let example = defaultUrl;
  try {
    example = new URL(value, defaultUrl).href;
  } catch {
    // the default address is the example
  }
  const where =
    typeof origin !== "string"
      ? "and there is no page (globalThis.location) to resolve it against"
      : origin === "null"
        ? "and the page's origin is opaque"
        : `even against the page's origin ${origin}`;
  throw new Error(`${handler}: ${option} ${JSON.stringify(value)} is not an absolute URL, ${where}; give an absolute URL such as ${JSON.stringify(example)}`);
}

/** A percent-decoded path parameter, or the raw text when it does not decode. */
export function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
