/**
 * Timers for waits on a peer. Node runs due timers before it polls the sockets, so once the process
 * was held up (a loaded machine, a long task) a plain timer runs out although the answer already
 * sits unread in a socket, and the kit would blame the peer for its own delay. A deadline's
 * callback therefore waits until the event loop has polled twice more: the first poll reads what
 * had arrived by then; the second, what a peer in this same process (the embedded mock, which was
 * held up too) answered in the first. Whatever is read settles the wait before the deadline does.
 */
export interface Deadline {
  /** Cancels the deadline, also after it fell due but before its callback ran. */
  clear(): void;
}

export function deadline(ms: number, onExpired: () => void): Deadline {
  let later: ReturnType<typeof setImmediate> | undefined;
  // An immediate set from the timers phase runs after this turn's poll; one set from an immediate
  // runs in the next turn, after its poll.
  const timer = setTimeout(() => {
    later = setImmediate(() => {
      later = setImmediate(onExpired);
    });
  }, Math.max(0, ms));
  return {
    clear() {
      clearTimeout(timer);
      if (later) clearImmediate(later);
    },
  };
}
