/**
 * superjson for the hooks that rewrite frames. It loads with the first WebSocket upgrade (the node server) or is
 * handed over by the msw handlers, which bundle it anyway; hooks only run on frames, which come after either, so
 * answering discovery never loads it. Browser-safe.
 */
import type SuperJSON from "superjson";

let loaded: typeof SuperJSON | undefined;

/** Loads superjson for the hooks (the node server does with its first upgrade). */
export async function loadSuperjson(): Promise<void> {
  loaded ??= (await import("superjson")).default;
}

/** Hands the hooks a superjson already loaded (the msw handlers). */
export function useSuperjson(instance: typeof SuperJSON): void {
  loaded ??= instance;
}

export function superjson(): typeof SuperJSON {
  if (!loaded) throw new Error("superjson is loaded with the first connection; a hook ran before it");
  return loaded;
}
