/**
 * The result a correct client gives for a case, computed rather than written down: the case's
 * request is answered by a fresh in-process mock engine with no delays and the contract's own
 * framing, and read with the spec adapter. Only what the case changes on purpose (a truncated
 * ending) is layered on top. So the expectation follows the scenarios wherever they go.
 */
import { createMcpChatEngine } from "../../../mocks/mcp-chat/engine.js";
import type { McpChatMockOptions } from "../../../mocks/mcp-chat/options.js";
import { specAdapter } from "./adapters/spec.js";
import type { AdapterResult } from "./adapters/types.js";
import { caseBody, canonicalPath, type ClientCase } from "./cases.js";

/** Mock options that change content (servers, seed); timing and framing are fixed here. */
export type ContentOptions = Pick<McpChatMockOptions, "servers" | "seed" | "compactJson" | "chatSync">;

const NO_DELAYS = {
  headersDelay: 0,
  firstEventDelay: 0,
  eventDelay: 0,
  toolDuration: 0,
  closeDelay: 0,
  jitter: 0,
  chunkGap: 0,
} as const;

const ORIGIN = "http://agentwire.invalid";

export async function expectedResult(c: ClientCase, content: ContentOptions = {}): Promise<AdapterResult> {
  const engine = createMcpChatEngine({ ...content, ...NO_DELAYS, framing: "canonical" });
  // Cases run connected to the first listed server, as the case runner does.
  const first = engine.options.servers[0]?.id;
  if (first !== undefined) {
    const connect = await engine.handle(new Request(`${ORIGIN}/connect/${encodeURIComponent(first)}`, { method: "POST" }));
    await connect.body?.cancel();
  }
  const response = await engine.handle(
    new Request(`${ORIGIN}${canonicalPath(c)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(caseBody(c)),
    }),
  );
  return { ...(await specAdapter(response)), ...(c.expect ?? {}) };
}

/** Expectations for the default mock content, computed once per case per process. */
const memo = new Map<string, Promise<AdapterResult>>();

export function defaultExpectedResult(c: ClientCase): Promise<AdapterResult> {
  let p = memo.get(c.id);
  if (!p) {
    p = expectedResult(c);
    memo.set(c.id, p);
    p.catch(() => memo.delete(c.id));
  }
  return p;
}
