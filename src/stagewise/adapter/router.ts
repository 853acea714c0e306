/**
 * The tRPC router of a chat agent (§1, §2): availability, state, messaging and chat; no toolCalling. Inputs are
 * checked against the schemas (BAD_REQUEST, reason `invalid-input`) before a procedure runs; rejections carry their
 * reason in `error.data.reason`; stacks never leave the process.
 */
import { initTRPC, TRPCError, tracked } from "@trpc/server";
import type {
  ApproveToolCallInput,
  ChatIdInput,
  CreateChatInput,
  DeleteMessageInput,
  MessagingUserMessage,
  ReportToolResultInput,
  SendMessageInput,
  UpdateChatTitleInput,
} from "../../generated/stagewise-chat.js";
import type { ChatAgent, Validate } from "./chat-agent.js";
import * as chat from "./chat-procedures.js";
import type { SeqEvent } from "./chat-store.js";
import { CODE_OF, Rejection, type RejectionReason } from "./rejection.js";
import type { AvailabilityChannel, MessagingMirror, StateChannel } from "./side-channels.js";
import { pushStream } from "./subscription-stream.js";
import { MAX_INPUT_DEPTH, toolbarTransformer, TooDeepInput } from "./toolbar-input.js";
import { fromWire, messagingUpdateToWire, updateToWire } from "./wire-dates.js";

/** The input of a procedure that takes none: the toolbar sends undefined, null is accepted too. */
type VoidInput = null | undefined;

export interface RouterParts {
  agent: ChatAgent;
  availability: AvailabilityChannel;
  state: StateChannel;
  messaging: MessagingMirror;
  validate: Validate;
  /**
   * For a server that writes the live chat updates of a subscription itself (the kit's reference mock): asked as each
   * chat subscription starts, before its snapshot goes out. A sink it returns gets every later update in place of the
   * subscription; `viaTrpc` sends one the usual way, for a sink that cannot (the sink then sends all later ones so).
   */
  liveChat?: (viaTrpc: (event: SeqEvent) => void) => LiveChat | undefined;
}

/** A chat subscription's live updates written by the server itself (see `RouterParts.liveChat`). */
export interface LiveChat {
  /**
   * Writes the subscription's snapshot too, before any update, serializing it at once (its messages are the store's
   * own); false when it cannot (tRPC then sends it).
   */
  snapshot?(events: readonly SeqEvent[]): boolean;
  write(event: SeqEvent): void;
  /** The subscription ended. */
  close(): void;
}

export function createAgentRouter({ agent, availability, state, messaging, validate, liveChat }: RouterParts) {
  const t = initTRPC.create({
    // superjson, with a toolbar's malformed input refused in words (toolbar-input.ts).
    transformer: toolbarTransformer,
    isDev: false,
    // The same router also runs in a page (the msw handlers drive it through a socket shim).
    allowOutsideOfServer: true,
    errorFormatter({ shape, error }) {
      const reason = reasonOf(error);
      const { stack: _stack, ...data } = shape.data as typeof shape.data & { stack?: string };
      return { ...shape, data: reason ? { ...data, reason } : data };
    },
  });

  /**
   * A parser for tRPC: the deserialized value, Dates as ISO strings, checked against a schema. A toolbar sends a void
   * input as undefined (superjson's "undefined"), so the input types admit it; the parser hands null on.
   */
  const input =
    <T>(schema: string) =>
    (raw: unknown): T => {
      if (raw instanceof TooDeepInput) throw new Rejection("invalid-input", `invalid input: nested deeper than ${MAX_INPUT_DEPTH} levels`);
      const value = fromWire(raw) ?? null;
      const bad = validate(schema, value);
      if (bad) throw new Rejection("invalid-input", `invalid input: ${bad}`);
      return value as T;
    };

  /** Runs a procedure; its rejections become typed tRPC errors. */
  const run = async <T>(fn: () => T | Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof Rejection) throw toTrpcError(error);
      if (error instanceof TRPCError) throw error;
      agent.reportError(error);
      throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "the agent failed to handle the request" });
    }
  };

  // One wire copy per update, whatever the number of subscribers.
  const wireCopies = new WeakMap<SeqEvent, unknown>();
  const wire = (event: SeqEvent) => {
    let copy = wireCopies.get(event);
    if (copy === undefined) wireCopies.set(event, (copy = updateToWire(event.update)));
    return tracked(String(event.seq), copy);
  };

  const chatUpdates = pushStream<ReturnType<typeof wire>>((push) => {
    // Anything coalesced goes out first, so the snapshot holds it and the next frame is S+1.
    agent.flush();
    const viaTrpc = (event: SeqEvent) => push(wire(event));
    const live = liveChat?.(viaTrpc);
    // A writer serializes the snapshot at once, so it may read the store's own messages; tRPC gets copies.
    const written = live?.snapshot?.(agent.store.snapshot(false)) === true;
    const initial = written ? [] : agent.store.snapshot().map((event) => tracked(String(event.seq), updateToWire(event.update)));
    if (!live) return { initial, stop: agent.store.subscribe(viaTrpc) };
    const unsubscribe = agent.store.subscribe((event) => live.write(event));
    return {
      initial,
      stop: () => {
        unsubscribe();
        live.close();
      },
    };
  });

  const mutation = t.procedure;
  return t.router({
    availability: t.router({
      getAvailability: t.procedure.input(input<VoidInput>("void-input")).subscription(
        pushStream((push) => ({ initial: [availability.get()], stop: availability.subscribe(push) })),
      ),
    }),
    state: t.router({
      getState: t.procedure.input(input<VoidInput>("void-input")).subscription(pushStream((push) => ({ initial: [state.get()], stop: state.subscribe(push) }))),
    }),
    messaging: t.router({
      getMessage: t.procedure.input(input<VoidInput>("void-input")).subscription(
        pushStream((push) => {
          agent.flush();
          return { initial: [messagingUpdateToWire(messaging.snapshot())], stop: messaging.subscribe((u) => push(messagingUpdateToWire(u))) };
        }),
      ),
      sendUserMessage: mutation.input(input<MessagingUserMessage>("messaging-user-message")).mutation(({ input: message }) =>
        run(() => {
          if (agent.hooks.onMessagingMessage) agent.guard(() => agent.hooks.onMessagingMessage!(message));
        }),
      ),
    }),
    chat: t.router({
      // Every subscribe gets a snapshot, whatever lastEventId says (r6), so its input is never refused.
      getChatUpdates: t.procedure.input((raw: unknown) => raw).subscription(chatUpdates),
      sendMessage: mutation.input(input<SendMessageInput>("send-message-input")).mutation(({ input: i }) => run(() => chat.sendMessage(agent, i))),
      createChat: mutation.input(input<CreateChatInput | undefined>("create-chat-input")).mutation(({ input: i }) => run(() => chat.createChat(agent, i ?? null))),
      deleteChat: mutation.input(input<ChatIdInput>("chat-id-input")).mutation(({ input: i }) => run(() => chat.deleteChat(agent, i))),
      switchChat: mutation.input(input<ChatIdInput>("chat-id-input")).mutation(({ input: i }) => run(() => chat.switchChat(agent, i))),
      updateChatTitle: mutation.input(input<UpdateChatTitleInput>("update-chat-title-input")).mutation(({ input: i }) => run(() => chat.updateChatTitle(agent, i))),
      deleteMessageAndSubsequent: mutation
        .input(input<DeleteMessageInput>("delete-message-input"))
        .mutation(({ input: i }) => run(() => chat.deleteMessageAndSubsequent(agent, i))),
      approveToolCall: mutation.input(input<ApproveToolCallInput>("approve-tool-call-input")).mutation(({ input: i }) => run(() => chat.approveToolCall(agent, i))),
      reportToolResult: mutation.input(input<ReportToolResultInput>("report-tool-result-input")).mutation(({ input: i }) => run(() => chat.reportToolResult(agent, i))),
      stop: mutation.input(input<VoidInput>("void-input")).mutation(() => run(() => chat.stop(agent))),
    }),
  });
}

/** The tRPC error a rejection travels as; the formatter finds the reason in its cause. */
export function toTrpcError(rejection: Rejection): TRPCError {
  return new TRPCError({ code: CODE_OF[rejection.reason], message: rejection.message, cause: rejection });
}

/** The reason carried by a tRPC error, when it came from a rejection. */
export function reasonOf(error: TRPCError): RejectionReason | undefined {
  return error.cause instanceof Rejection ? error.cause.reason : undefined;
}

export type AgentRouter = ReturnType<typeof createAgentRouter>;
