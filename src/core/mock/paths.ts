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
export function urlBase(baseUrl: string): { origin: string; prefix: string } {
  const base = new URL(baseUrl);
  return { origin: base.origin, prefix: normalBasePath(base.pathname) };
}

/** A percent-decoded path parameter, or the raw text when it does not decode. */
export function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
