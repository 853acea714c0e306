/** Exit codes of the CLI, as the README documents them. */
export const EXIT = { ok: 0, failed: 1, usage: 2, incomplete: 3 } as const;

export { UsageError } from "../core/run/usage-error.js";
