/**
 * The outside of an HTTP mock engine: its answer to a request (`reply`, what the node server
 * writes), the same as a fetch-style handler (`handle`, what msw runs), extension routes (e.g.
 * /__agentwire/*) consulted before the mock's own, and a reset back to the initial state.
 * Browser-safe.
 */
import { fromResponse, toRequest, toResponse, type MockReply, type MockRequest } from "./exchange.js";

/** An HTTP mock engine with resolved options `O` and state `S`. */
export interface FetchMockEngine<O, S> {
  /** The answer as a fetch-style handler gives it (what msw runs). */
  handle(request: Request): Promise<Response>;
  /** The same answer, as the node server writes it. */
  reply(request: MockRequest): Promise<MockReply>;
  /** Back to the initial state, the exchange counter at zero. */
  reset(): void;
  readonly options: O;
  readonly state: S;
}

export interface FetchMockParts<O, S> {
  /** The mock's own answer to a request. */
  reply(request: MockRequest): Promise<MockReply>;
  /** Consulted first; a Response it gives is the answer, unrecorded. */
  routes?: ((request: Request) => Promise<Response | undefined>) | undefined;
  options: O;
  state: S & { reset(): void };
  /** The client-traffic recorder, whose exchange counter a reset zeroes. */
  recorder: { reset(): void };
}

export function fetchMockEngine<O, S>(parts: FetchMockParts<O, S>): FetchMockEngine<O, S> {
  const { routes, state, recorder } = parts;
  const reply = routes
    ? async (request: MockRequest) => {
        // Extension routes are written on the Fetch API: only a mock given some builds a Request.
        const routed = await routes(await toRequest(request));
        return routed ? fromResponse(routed) : parts.reply(request);
      }
    : parts.reply;
  const own = async (request: Request) => toResponse(await parts.reply(request), request.signal);
  return {
    reply,
    handle: routes ? async (request) => (await routes(request)) ?? own(request) : own,
    reset() {
      state.reset();
      recorder.reset();
    },
    options: parts.options,
    state,
  };
}
