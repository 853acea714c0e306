/**
 * How the bin ends the process. Long-lived handles (a mock's sockets, the proxy's) are closed by the commands, but
 * process.exit drops what is still queued for stdout and stderr, and a pipe's reader (a CI log, `| tee`) may be
 * slower than the writes: a report or its last lines would be cut. So the exit waits for both streams, within a
 * bound (a reader that stopped reading must not hold the process forever).
 */

/** Longest wait for the output to go out. */
export const FLUSH_WAIT_MS = 10_000;

export function exitWhenFlushed(code: number, waitMs = FLUSH_WAIT_MS): void {
  const streams = [process.stdout, process.stderr];
  let pending = streams.length;
  // Written after everything queued before it: its callback says the stream has sent what came first.
  const flushed = () => {
    if (--pending === 0) process.exit(code);
  };
  setTimeout(() => process.exit(code), waitMs);
  for (const s of streams) s.write("", flushed);
}
