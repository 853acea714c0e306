/**
 * Typed rejections (§1): a reason the toolbar can act on, mapped to the tRPC code and status it travels with. The
 * router throws them; the error formatter copies `reason` into `error.data.reason`.
 */
import { TRPCError } from "@trpc/server";
import type { TrpcErrorData } from "../../generated/stagewise-chat.js";

/** The §1 reasons, as the error schema lists them (`error.data.reason`). */
export type RejectionReason = NonNullable<TrpcErrorData["reason"]>;

type Code = "NOT_FOUND" | "CONFLICT" | "FORBIDDEN" | "BAD_REQUEST";

const CODE_OF: Record<RejectionReason, Code> = {
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

/** The tRPC error a rejection travels as; the formatter finds the reason in its cause. */
export function toTrpcError(rejection: Rejection): TRPCError {
  return new TRPCError({ code: CODE_OF[rejection.reason], message: rejection.message, cause: rejection });
}

/** The reason carried by a tRPC error, when it came from a rejection. */
export function reasonOf(error: TRPCError): RejectionReason | undefined {
  return error.cause instanceof Rejection ? error.cause.reason : undefined;
}
