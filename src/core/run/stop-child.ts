/**
 * Ends a client command the kit started (its time ran out, or the run was interrupted): SIGTERM, then SIGKILL if it
 * is still running after a grace. The kit waits for it to go, so it never leaves the command running behind it
 * (a SIGKILL timer left to fire after the kit's own exit would never fire).
 */
import type { ChildProcess } from "node:child_process";

/** How long a command has to exit after SIGTERM before it gets SIGKILL. */
export const STOP_GRACE_MS = 2000;
/** How long to wait for the exit after SIGKILL (a process that never started has no exit to wait for). */
const KILLED_WAIT_MS = 1000;

/** Resolves once `child` has exited, or at the latest KILLED_WAIT_MS after it was sent SIGKILL. */
export function stopChild(child: ChildProcess, graceMs = STOP_GRACE_MS): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    let last: NodeJS.Timeout | undefined;
    const kill = setTimeout(() => {
      child.kill("SIGKILL");
      last = setTimeout(done, KILLED_WAIT_MS);
    }, graceMs);
    function done() {
      clearTimeout(kill);
      clearTimeout(last);
      child.off("exit", done);
      resolve();
    }
    child.once("exit", done);
    child.kill("SIGTERM");
  });
}
