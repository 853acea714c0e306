/**
 * Timers for waits on a peer. Node runs due timers before it polls the sockets, so once the process
 * was held up (a loaded machine, a long task) a plain timer runs out although the answer already
 * sits unread in a socket, and the kit would blame the peer for its own delay. A deadline's
 * callback therefore waits one more turn of the event loop (to the check phase, after a poll):
 * whatever had arrived by then is read first, and settles the wait before the deadline does.
 */
export interface Deadline {
  /** Cancels the deadline, also after it ran out but before its callback ran. */
  clear(): void;
}

export function deadline(ms: number, onExpired: () => void): Deadline {
  let later: ReturnType<typeof setImmediate> | undefined;
  const timer = setTimeout(() => {
    later = setImmediate(onExpired);
  }, Math.max(0, ms));
  return {
    clear() {
      clearTimeout(timer);
      if (later) clearImmediate(later);
    },
  };
}

/** Clears a deadline that may not have been set. */
export function clearDeadline(d: Deadline | undefined): void {
  d?.clear();
}
