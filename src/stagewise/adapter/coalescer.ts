/**
 * Coalescing of small text deltas: appends to the same part within `ms` go out as one `append`. Whatever is held is
 * flushed before any other change, so the order of updates is the order of the agent's calls.
 */
export interface HeldAppend {
  chatId: string;
  messageId: string;
  partIndex: number;
  type: "text" | "reasoning";
  text: string;
}

export class Coalescer {
  private held: HeldAppend | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly ms: number,
    private readonly send: (append: HeldAppend) => void,
  ) {}

  add(append: HeldAppend): void {
    const h = this.held;
    // Nothing to hold: the delta goes out as it is.
    if (this.ms <= 0 && h === null) {
      if (append.text !== "") this.send(append);
      return;
    }
    if (h && h.messageId === append.messageId && h.partIndex === append.partIndex && h.chatId === append.chatId) {
      h.text += append.text;
    } else {
      this.flush();
      this.held = { ...append };
    }
    if (this.ms <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.ms);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const h = this.held;
    this.held = null;
    if (h && h.text !== "") this.send(h);
  }
}
