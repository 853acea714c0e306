/**
 * What the listing and connect answers say, read the same way by the probes (which servers to
 * connect) and the checks (what a later answer must agree with), whoever sent the request: the
 * probes, or a client through the proxy.
 */

export interface Listed {
  id: string;
  name?: string;
}

/** The listing's ids and names, when it is an array; entries without a string id are skipped. */
export function listedServers(json: unknown): Listed[] | undefined {
  if (!Array.isArray(json)) return undefined;
  const out: Listed[] = [];
  for (const s of json) {
    if (s && typeof s === "object" && typeof (s as { id?: unknown }).id === "string") {
      const { id, name } = s as { id: string; name?: unknown };
      out.push(typeof name === "string" ? { id, name } : { id });
    }
  }
  return out;
}

/** Names of the tools in a tools array (entries without a string name are skipped). */
export function toolNames(tools: unknown): string[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  return tools.flatMap((t) => (t && typeof t === "object" && typeof (t as { name?: unknown }).name === "string" ? [(t as { name: string }).name] : []));
}
