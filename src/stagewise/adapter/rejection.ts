/**
 * Typed rejections (§1): a reason the toolbar can act on, and the tRPC code it travels with. The router turns them
 * into tRPC errors; the error formatter copies `reason` into `error.data.reason`. Free of tRPC, so the agent's
 * procedures load without it.
 */
import type { TrpcErrorData } from "../../generated/stagewise-chat.js";

/** The §1 reasons, as the error schema lists them (`error.data.reason`). */
export type RejectionReason = NonNullable<TrpcErrorData["reason"]>;

export type RejectionCode = "NOT_FOUND" | "CONFLICT" | "FORBIDDEN" | "BAD_REQUEST";

export const CODE_OF: Record<RejectionReason, RejectionCode> = {
  "chat-not-found": "NOT_FOUND",
  "message-not-found": "NOT_FOUND",
  "tool-call-not-found": "NOT_FOUND",
  "agent-working": "CONFLICT",
  "chat-not-active": "CONFLICT",
  "tool-call-not-pending": "CONFLICT",
  "rejected-by-agent": "FORBIDDEN",
  "invalid-input": "BAD_REQUEST",
};

/** A refusal with its §1 reason. Agents throw one from a hook through `reject()`. */
export class Rejection extends Error {
  override readonly name = "Rejection";
  constructor(
    readonly reason: RejectionReason,
    message: string,
  ) {
    super(message);
  }
}

/** For hooks: refuse the toolbar's request (FORBIDDEN, reason `rejected-by-agent`). */
export function reject(message = "rejected by the agent"): never {
  throw new Rejection("rejected-by-agent", message);
}
