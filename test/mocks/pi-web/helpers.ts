/**
 * A small `ws` test client for the pi-web mock, raw upgrade requests, and an event-grammar
 * checker (§3 rules 12–17) that the scenario tests run over every recorded sequence.
 */
import net from "node:net";
import WebSocket from "ws";
import type { RunningMock } from "../../../src/core/run/protocol.js";
import { startPiWebMock, type PiWebStartOptions } from "../../../src/mocks/pi-web/index.js";

export type Json = Record<string, any>;

/** Timing small enough for tests that are not about timing. */
export const FAST = { firstDelay: 0, chunkDelay: 0, toolDelay: 0 } as const;

export async function mock(options: PiWebStartOptions = {}): Promise<RunningMock & { ws: string; origin: string }> {
  const m = await startPiWebMock({ port: 0, ...FAST, ...options });
  return { ...m, ws: m.url.replace(/^http/, "ws"), origin: m.url };
}

export interface Frame {
  data: string;
  binary: boolean;
}

export class Client {
  readonly frames: Frame[] = [];
  readonly messages: Json[] = [];
  closed: { code: number; reason: string } | undefined;
  private waiters: (() => void)[] = [];
  private n = 0;

  private constructor(readonly socket: WebSocket) {
    socket.on("message", (data, binary) => {
      const text = Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.from(data as ArrayBuffer).toString("utf8");
      this.frames.push({ data: text, binary });
      if (!binary) {
        try {
          const v = JSON.parse(text);
          if (v && typeof v === "object" && !Array.isArray(v)) this.messages.push(v);
        } catch {
          // Garbage frames stay in `frames` only.
        }
      }
      this.wake();
    });
    socket.on("close", (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  static open(url: string, options: { origin?: string | null; protocols?: string[] } = {}): Promise<Client> {
    const socket = new WebSocket(url, options.protocols ?? [], {
      ...(options.origin !== null ? { origin: options.origin ?? new URL(url.replace(/^ws/, "http")).origin } : {}),
    });
    const client = new Client(socket);
    return new Promise((resolve, reject) => {
      socket.once("open", () => resolve(client));
      socket.once("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      socket.once("error", reject);
    });
  }

  private wake() {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  send(message: Json | string): void {
    this.socket.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** Sends a command with a fresh id and resolves with its first response. */
  async request(command: Json, timeout = 10_000): Promise<Json> {
    const id = command.id ?? `t${++this.n}`;
    this.send({ ...command, id });
    return this.waitFor((m) => m.type === "response" && m.id === id, timeout);
  }

  /** The first message (from `from` on) matching `pred`, waiting for it if needed. */
  waitFor(pred: (m: Json) => boolean, timeout = 10_000, from = 0): Promise<Json> {
    return this.waitCount(pred, 1, timeout, from);
  }

  /** The n-th (1-based) message from `from` on matching `pred` (a pure predicate), waiting for it. */
  async waitCount(pred: (m: Json) => boolean, n: number, timeout = 10_000, from = 0): Promise<Json> {
    const deadline = Date.now() + timeout;
    for (;;) {
      const hit = this.messages.slice(from).filter(pred)[n - 1];
      if (hit) return hit;
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) while waiting`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; got ${this.messages.map(label).join(", ")}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Waits for the n-th (1-based) message of a type. */
  nth(type: string, n: number, timeout = 10_000): Promise<Json> {
    return this.waitCount((m) => m.type === type, n, timeout);
  }

  count(type: string): number {
    return this.messages.filter((m) => m.type === type).length;
  }

  events(): Json[] {
    return this.messages.filter((m) => m.type !== "response");
  }

  async waitClosed(timeout = 5000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + timeout;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error("not closed");
      await new Promise((r) => setTimeout(r, 10));
    }
    return this.closed;
  }

  close(): void {
    this.socket.close();
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A compact label: type, the update's type, the message role. */
export function label(m: Json): string {
  if (m.type === "message_update") return `update:${m.assistantMessageEvent?.type}`;
  if (m.type === "message_start" || m.type === "message_end") return `${m.type}:${m.message?.role}`;
  if (m.type === "response") return `response:${m.command}:${m.success}`;
  return String(m.type);
}

/** Labels with runs of identical update labels folded to "label×n". */
export function shape(ms: Json[]): string[] {
  const out: string[] = [];
  let last = "";
  let n = 0;
  const flush = () => {
    if (n) out.push(n > 1 ? `${last}×${n}` : last);
  };
  for (const m of ms) {
    const l = label(m);
    if (l === last && l.startsWith("update:")) n++;
    else {
      flush();
      last = l;
      n = 1;
    }
  }
  flush();
  return out;
}

/** The events of one run: from the first agent_start to the matching agent_end. */
export function runEvents(ms: Json[]): Json[] {
  const start = ms.findIndex((m) => m.type === "agent_start");
  const end = ms.findIndex((m, i) => i > start && m.type === "agent_end");
  return ms.slice(start, end + 1);
}

/** Raw upgrade request: the exact bytes the server answers before closing (or upgrading). */
export function rawUpgrade(base: string, path: string, headers: Record<string, string> = {}): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(port), hostname);
    let got = "";
    s.on("data", (d) => {
      got += d.toString("latin1");
      if (got.startsWith("HTTP/1.1 101")) s.destroy();
    });
    s.on("close", () => resolve(got));
    s.on("error", reject);
    const lines = [
      `GET ${path} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      "Connection: Upgrade",
      "Upgrade: websocket",
      "Sec-WebSocket-Version: 13",
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      "",
      "",
    ];
    s.write(lines.join("\r\n"));
    setTimeout(() => s.destroy(), 3000);
  });
}

/**
 * Checks a sequence of server events against the §3 grammar; returns the problems (empty = ok):
 * agent bracketing, message nesting, updates only in assistant messages, block grammar and end
 * values, message_end content = block ends, toolUse iff tool calls, tool pairing and round trips,
 * turn_end.toolResults, agent_end.messages = the message_ends of the run.
 */
export function grammarProblems(events: Json[]): string[] {
  const problems: string[] = [];
  let inRun = false;
  let open: Json | undefined;
  let runMessages: Json[] = [];
  let blocks = new Map<number, { type: string; acc: string; ended: boolean; end?: unknown }>();
  let order: number[] = [];
  const toolStarts = new Map<string, Json>();
  const toolEnds = new Map<string, Json>();
  const toolResults = new Map<string, Json>();
  const calls: Json[] = [];
  let turnResults: Json[] = [];
  events.forEach((e, i) => {
    const at = `#${i} ${label(e)}`;
    switch (e.type) {
      case "agent_start":
        if (inRun) problems.push(`${at}: agent_start inside a run`);
        inRun = true;
        runMessages = [];
        break;
      case "agent_end":
        if (!inRun) problems.push(`${at}: agent_end outside a run`);
        inRun = false;
        if (JSON.stringify(e.messages) !== JSON.stringify(runMessages)) problems.push(`${at}: messages differ from the message_ends`);
        break;
      case "message_start":
        if (open) problems.push(`${at}: message_start inside another message`);
        open = e.message;
        blocks = new Map();
        order = [];
        if (e.message.role === "assistant" && (e.message.content.length !== 0 || e.message.stopReason !== "stop")) {
          problems.push(`${at}: the start snapshot is not empty/stop`);
        }
        break;
      case "message_update": {
        if (!open || open.role !== "assistant") problems.push(`${at}: update outside an assistant message`);
        const u = e.assistantMessageEvent;
        const m = /^(text|thinking|toolcall)_(start|delta|end)$/.exec(u.type);
        if (!m) break;
        const [, kind, phase] = m;
        const idx = u.contentIndex;
        if (phase === "start") {
          if (blocks.has(idx)) problems.push(`${at}: second start of block ${idx}`);
          if (idx !== blocks.size) problems.push(`${at}: block index ${idx} out of order`);
          blocks.set(idx, { type: kind!, acc: "", ended: false });
          order.push(idx);
        } else {
          const b = blocks.get(idx);
          if (!b) problems.push(`${at}: ${u.type} before its start`);
          else if (b.ended) problems.push(`${at}: ${u.type} after the block ended`);
          else if (phase === "delta") b.acc += u.delta;
          else {
            b.ended = true;
            if (kind === "toolcall") {
              b.end = u.toolCall;
              if (b.acc && JSON.stringify(JSON.parse(b.acc)) !== JSON.stringify(u.toolCall.arguments)) {
                problems.push(`${at}: toolCall.arguments differ from the deltas`);
              }
            } else {
              b.end = u.content;
              if (u.content !== b.acc) problems.push(`${at}: end content differs from the deltas`);
            }
          }
        }
        break;
      }
      case "message_end": {
        if (!open) problems.push(`${at}: message_end without start`);
        else if (open.role !== e.message.role || open.timestamp !== e.message.timestamp) problems.push(`${at}: end does not match start`);
        open = undefined;
        runMessages.push(e.message);
        const msg = e.message;
        if (msg.role === "assistant") {
          for (const [idx, b] of blocks) {
            if (!b.ended) continue;
            const part = msg.content[idx];
            const value = b.type === "toolcall" ? part : b.type === "text" ? part?.text : part?.thinking;
            if (JSON.stringify(value) !== JSON.stringify(b.end)) problems.push(`${at}: content[${idx}] differs from its block end`);
          }
          const hasCalls = msg.content.some((c: Json) => c.type === "toolCall");
          if (!["aborted", "error"].includes(msg.stopReason) && hasCalls !== (msg.stopReason === "toolUse")) {
            problems.push(`${at}: stopReason ${msg.stopReason} with${hasCalls ? "" : "out"} tool calls`);
          }
          if (["aborted", "error"].includes(msg.stopReason) && !msg.errorMessage) problems.push(`${at}: no errorMessage`);
          for (const c of msg.content) if (c.type === "toolCall") calls.push(c);
        }
        if (msg.role === "toolResult") {
          toolResults.set(msg.toolCallId, msg);
          turnResults.push(msg);
        }
        break;
      }
      case "tool_execution_start":
        if (toolStarts.has(e.toolCallId)) problems.push(`${at}: second start for ${e.toolCallId}`);
        toolStarts.set(e.toolCallId, e);
        break;
      case "tool_execution_end":
        if (!toolStarts.has(e.toolCallId)) problems.push(`${at}: end without start`);
        if (toolEnds.has(e.toolCallId)) problems.push(`${at}: second end for ${e.toolCallId}`);
        toolEnds.set(e.toolCallId, e);
        break;
      case "turn_end":
        if (JSON.stringify(e.toolResults) !== JSON.stringify(turnResults)) problems.push(`${at}: toolResults differ`);
        turnResults = [];
        break;
    }
  });
  if (inRun) problems.push("the run did not end");
  if (open) problems.push("a message did not end");
  for (const c of calls) {
    const s = toolStarts.get(c.id);
    const end = toolEnds.get(c.id);
    const r = toolResults.get(c.id);
    if (!s || s.toolName !== c.name || JSON.stringify(s.args) !== JSON.stringify(c.arguments)) problems.push(`call ${c.id}: no matching start`);
    if (!end) problems.push(`call ${c.id}: no end`);
    if (!r || r.toolName !== c.name || r.isError !== end?.isError || JSON.stringify(r.content) !== JSON.stringify(end?.result?.content)) {
      problems.push(`call ${c.id}: no matching toolResult`);
    }
  }
  return problems;
}
