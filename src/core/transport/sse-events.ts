/**
 * The event-stream interpretation of WHATWG HTML §9.2.6, fed line by line: the events a browser's
 * EventSource dispatches. `data` lines are joined with LF, one leading space of a value is
 * dropped, an empty line dispatches, comments and unknown fields are ignored, an `id` holding NUL
 * is ignored, and the last event ID persists from event to event as `lastEventId` does.
 */
import { TextBuilder } from "./text-builder.js";

/**
 * One dispatched event: its data; its type when an `event:` line set a non-empty one ("message"
 * otherwise); the last event ID when non-empty.
 */
export type Dispatch = (data: string, event: string | undefined, id: string | undefined) => void;

export class EventInterpreter {
  /** The data lines so far, joined once at dispatch (see TextBuilder: a string grown line by line costs many times its length). */
  private readonly data = new TextBuilder();
  private dataLines = 0;
  private type = "";
  private lastId = "";

  /**
   * `maxData` bounds the data buffer (characters): past it `overflow` is called and the event
   * is dropped, so an endless event cannot grow memory.
   */
  constructor(
    private readonly dispatch: Dispatch,
    private readonly maxData: number,
    private readonly overflow: (message: string) => void,
  ) {}

  line(line: string): void {
    if (line.length === 0) return this.flush();
    const c0 = line.charCodeAt(0);
    if (c0 === COLON) return;
    // Fast path for the line nearly every event has.
    if (c0 === D && line.startsWith("data:")) return this.addData(line, line.charCodeAt(5) === SPACE ? 6 : 5);
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    switch (field) {
      case "data":
        return this.addData(value, 0);
      case "event":
        this.type = value;
        return;
      case "id":
        if (!value.includes("\0")) this.lastId = value;
        return;
      default:
        // retry only sets the reconnection delay, which a recording has no use for; others are ignored.
        return;
    }
  }

  /**
   * Drops the event in progress and its data: the body ended (an event without its blank line is
   * never dispatched) or reading stopped. The reader may be kept after the body, its data need not.
   */
  discard(): void {
    this.data.clear();
    this.dataLines = 0;
    this.type = "";
  }

  private addData(s: string, from: number): void {
    const value = from === 0 ? s : s.slice(from);
    if (this.data.length + value.length + 1 > this.maxData) {
      this.data.clear();
      this.dataLines = 0;
      this.overflow(`an SSE event's data is longer than ${this.maxData} characters; reading stopped there`);
      return;
    }
    if (this.dataLines > 0) this.data.append("\n");
    this.data.append(value);
    this.dataLines++;
  }

  private flush(): void {
    const { dataLines, type } = this;
    const data = this.data.take();
    this.dataLines = 0;
    this.type = "";
    if (dataLines > 0) this.dispatch(data, type !== "" ? type : undefined, this.lastId !== "" ? this.lastId : undefined);
  }
}

const COLON = 58;
const SPACE = 32;
const D = 100;
