/**
 * The result a correct client gives for a case, computed rather than written down: the request the
 * client actually sent for the case (or, failing that, the case's own body) is answered again by a
 * fresh in-process mock engine with no delays, no faults and the contract's own framing, and read
 * with the spec adapter. The mock's live call ids (recorded in the request's `meta.expectedCalls`)
 * replace the fresh engine's, and what the case changes on purpose (a truncated ending) is layered
 * on top. So the expectation follows the scenarios wherever they go.
 */
import { createOpenaiChatEngine } from "../../../mocks/openai-chat/engine.js";
import type { OpenaiChatMockOptions } from "../../../mocks/openai-chat/options.js";
import { specAdapter } from "./adapters/spec.js";
import type { AdapterResult } from "./adapters/types.js";
import { canonicalPath, caseBody, type ClientCase } from "./cases.js";
import type { EmittedCall } from "./emitted.js";

/** Mock options that change what is said (catalogue, models...); timing and framing are fixed here. */
export type ContentOptions = Pick<OpenaiChatMockOptions, "catalogue" | "models" | "anyModel" | "reasoningField" | "httpError" | "seed" | "created">;

/** What the kit knows of the request the client sent for a case. */
export interface RecordedRequest {
  /** The body as sent. */
  body: string;
  /** The calls the live mock planned for it (their ids are the ones the client saw). */
  calls?: EmittedCall[];
  /** The live mock's catalogue, from the request's meta. */
  catalogue?: string;
}

export interface Expectation {
  expected: AdapterResult;
  /** The live call ids were unknown: ids are compared only for being present and distinct. */
  looseIds: boolean;
}

// Query knobs win over a scenario's imposed pacing (the `slow` scenario's 5 s), so the fresh
// engine answers at once.
const NO_DELAYS = "&headersDelayMs=0&ttftMs=0&chunkDelayMs=0&keepAliveMs=0&closeDelayMs=0&jitterMs=0&chunkGapMs=0";
const ORIGIN = "http://agentwire.invalid/v1";

export async function expectedResult(c: ClientCase, recorded?: RecordedRequest, content: ContentOptions = {}): Promise<Expectation> {
  const catalogue = recorded?.catalogue as ContentOptions["catalogue"] | undefined;
  const engine = createOpenaiChatEngine({ ...content, ...(catalogue ? { catalogue } : {}), framing: "canonical" });
  const response = await engine.handle(
    new Request(`${ORIGIN}${canonicalPath(c)}${NO_DELAYS}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${engine.options.apiKey ?? "agentwire"}` },
      body: recorded?.body ?? JSON.stringify(caseBody(c)),
    }),
  );
  const result: AdapterResult = { ...(await specAdapter(response)), ...(c.expect ?? {}) };
  const live = recorded?.calls;
  if (live && live.length === result.toolCalls.length && live.every((l, i) => l.name === result.toolCalls[i]!.name)) {
    result.toolCalls = result.toolCalls.map((t, i) => ({ ...t, id: live[i]!.id }));
    return { expected: result, looseIds: false };
  }
  return { expected: result, looseIds: result.toolCalls.length > 0 };
}
