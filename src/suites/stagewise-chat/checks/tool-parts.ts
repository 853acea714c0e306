/**
 * Where a subscription's tool parts are, by tool call id: the rules that look up a new result's call, its approval and
 * its other results read the few messages that hold parts of that id instead of the whole chat, which grows with every
 * turn. The index is brought up to a state from the messages that changed since the state it read last.
 */
import type { ChatMessage } from "../../../generated/stagewise-chat.js";
import { forEachChangedMessage, initialChatState, messageById, messageIndex, type ChatState } from "../../../stagewise/chat-state.js";

/** A part and its place: message index, then part index. */
export interface Located<P> {
  part: P;
  message: ChatMessage;
  at: [number, number];
}

type ToolPartType = "tool-call" | "tool-result" | "tool-approval";
const INDEXED: ReadonlySet<string> = new Set<ToolPartType>(["tool-call", "tool-result", "tool-approval"]);

export class ToolParts {
  /**
   * By part type, then tool call id (as sent): the ids of the messages seen holding such a part. A message may have
   * lost it since (deleted, replaced); `find` reads each again in the state it is asked about, and forgets those gone.
   */
  private readonly seen = new Map<string, Map<unknown, Set<string>>>();
  private last: ChatState = initialChatState();

  /** The parts of `type` for `toolCallId` that `state` holds, in the chat's order. */
  find<P>(state: ChatState, type: ToolPartType, toolCallId: unknown): Located<P>[] {
    this.follow(state);
    const holders = this.seen.get(type)?.get(toolCallId);
    const out: Located<P>[] = [];
    if (!holders) return out;
    for (const id of holders) {
      const message = messageById(state, id);
      const parts = message?.content as { type: string; toolCallId?: unknown }[] | undefined;
      let held = false;
      for (let j = 0; parts && j < parts.length; j++) {
        const part = parts[j]!;
        if (part.type !== type || part.toolCallId !== toolCallId) continue;
        held = true;
        out.push({ part: part as P, message: message!, at: [messageIndex(state, id), j] });
      }
      if (!held) holders.delete(id);
    }
    return out.sort((a, b) => a.at[0] - b.at[0] || a.at[1] - b.at[1]);
  }

  /** Notes the tool parts of every message that differs from the state read last. */
  private follow(state: ChatState): void {
    if (state === this.last) return;
    forEachChangedMessage(this.last, state, (message) => {
      const parts = message.content as { type: string; toolCallId?: unknown }[];
      for (let j = 0; j < parts.length; j++) {
        const part = parts[j]!;
        if (!INDEXED.has(part.type)) continue;
        let byId = this.seen.get(part.type);
        if (!byId) this.seen.set(part.type, (byId = new Map()));
        let holders = byId.get(part.toolCallId);
        if (!holders) byId.set(part.toolCallId, (holders = new Set()));
        holders.add(message.id);
      }
    });
    this.last = state;
  }
}
