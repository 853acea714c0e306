/**
 * A failure that lists the updates of a mutation's window names the first few and counts the rest: a window of a long
 * stream (up to 10,000 updates are kept) gives a message of a line, not one that grows with the stream.
 */
import { describe, expect, it } from "vitest";
import type { TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { STAGEWISE_SERVER_CHECKS } from "../../../src/suites/stagewise-chat/checks/index.js";
import { assistant, chat, SwScript } from "../../helpers/stagewise-synthetic.js";
import { byShortId, judge } from "../../helpers/synthetic-transcript.js";

const A = 1;
const evaluate = (events: TranscriptEvent[]) => byShortId(judge(STAGEWISE_SERVER_CHECKS, events));

/** A at S=3 with an active chat holding one assistant message, then `mutate` and a stream of `n` text deltas. */
function streamAfter(n: number, mutate: (s: SwScript) => void): SwScript {
  const s = new SwScript()
    .open("w1", "main")
    .subscribe("w1", "sub:chat:A", A)
    .snapshot("w1", A, 3, [chat("c1", true, [assistant("a1", [{ type: "text", text: "" }])]), chat("c2", false)]);
  mutate(s);
  for (let i = 0; i < n; i++) {
    s.tracked("w1", A, 4 + i, { type: "message-updated", chatId: "c1", update: { messageId: "a1", partIndex: 0, updateType: "append", content: { type: "text", text: "x" } } });
  }
  return s.wait(3_000);
}

describe("lists of a window's updates in failure messages", () => {
  it("chat/reject-no-side-effects names five updates and counts the rest", () => {
    const r = evaluate(
      streamAfter(2_000, (s) => s.mutation("w1", "reject:chat-not-found:switch", 10, "chat.switchChat", { chatId: "nope" }).reject("w1", 10, "chat-not-found"))
        .events,
    );
    const c = r.get("chat/reject-no-side-effects")!;
    expect(c.verdict).toBe("fail");
    // The window ends 300 ms after the rejection: the 300 deltas sent by then (one a millisecond) are its side effects.
    expect(c.message).toMatch(/^(message-updated, ){5}… and 295 more at w1 ← /);
    expect(c.message.length).toBeLessThan(400);
  });

  it("a short list is named whole, as before", () => {
    const r = evaluate(
      streamAfter(3, (s) => s.mutation("w1", "reject:chat-not-found:switch", 10, "chat.switchChat", { chatId: "nope" }).reject("w1", 10, "chat-not-found")).events,
    );
    expect(r.get("chat/reject-no-side-effects")!.message).toMatch(/^message-updated, message-updated, message-updated at w1 ← /);
  });

  it("chat/delete-messages names six updates and counts the rest when none deleted", () => {
    const r = evaluate(
      streamAfter(2_000, (s) => s.mutation("w1", "ok:delete-messages", 10, "chat.deleteMessageAndSubsequent", { chatId: "c1", messageId: "a1" }).answer("w1", 10, null))
        .events,
    );
    const c = r.get("chat/delete-messages")!;
    expect(c.verdict).toBe("fail");
    expect(c.message).toMatch(/^(message-updated, ){6}… and 1994 more/);
    expect(c.message.length).toBeLessThan(400);
  });
});
