/** A mistake in what the user asked for (CLI: exit 2 with the message, no stack trace). */
export class UsageError extends Error {}
