/**
 * The outside of an HTTP mock engine: a fetch-style handler that the node server and the msw
 * handlers both run, extension routes (e.g. /__agentwire/*) consulted before the mock's own, and a
 * reset back to the initial state. Browser-safe.
 */

export interface FetchMockEngine<O, S> {
  handle(request: Request): Promise<Response>;
  reset(): void;
  readonly options: O;
  readonly state: S;
}

export interface FetchMockParts<O, S> {
  /** The mock's own answer to a request. */
  handle(request: Request): Promise<Response>;
  /** Consulted first; a Response it gives is the answer, unrecorded. */
  routes?: ((request: Request) => Promise<Response | undefined>) | undefined;
  options: O;
  state: S & { reset(): void };
  /** The client-traffic recorder, whose exchange counter a reset zeroes. */
  recorder: { reset(): void };
}

export function fetchMockEngine<O, S>(parts: FetchMockParts<O, S>): FetchMockEngine<O, S> {
  const { routes, handle, state, recorder } = parts;
  return {
    handle: routes
      ? async (request) => (await routes(request)) ?? handle(request)
      : handle,
    reset() {
      state.reset();
      recorder.reset();
    },
    options: parts.options,
    state,
  };
}
