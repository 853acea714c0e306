import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { PI_WEB_FRAMINGS } from "../../../src/mocks/pi-web/index.js";
import { CANONICAL_FORMAT, encodeEvent, encodeJson, Utf8Text } from "../../../src/mocks/pi-web/framing.js";
import { createPiWebEngine } from "../../../src/mocks/pi-web/engine.js";
import { EscapedText, rememberJson, utf8 } from "../../../src/mocks/pi-web/partial-json.js";
import { Client, mock, sleep, type Json } from "./helpers.js";

const open: { close(): Promise<void> }[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const m of open.splice(0)) await m.close();
});

async function framed(options: Parameters<typeof mock>[0], query = "") {
  const m = await mock(options);
  open.push(m);
  const c = await Client.open(`${m.ws}/ws${query}`);
  clients.push(c);
  return { m, c };
}

interface WireFrame {
  fin: boolean;
  opcode: number;
  payload: Buffer;
}

/** Upgrades by hand, sends one masked text frame, and returns the server's frames as they came. */
async function rawFrames(base: string, message: Json, until: (frames: WireFrame[]) => boolean): Promise<WireFrame[]> {
  const { hostname, port } = new URL(base);
  const s = net.connect(Number(port), hostname);
  const frames: WireFrame[] = [];
  let buf = Buffer.alloc(0);
  let upgraded = false;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no complete answer; ${frames.length} frames`)), 10_000);
    s.on("error", reject);
    s.on("data", (d) => {
      buf = Buffer.concat([buf, d]);
      if (!upgraded) {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) return;
        expect(buf.subarray(0, 12).toString()).toBe("HTTP/1.1 101");
        buf = buf.subarray(end + 4);
        upgraded = true;
        const payload = Buffer.from(JSON.stringify(message));
        const mask = Buffer.from([1, 2, 3, 4]);
        const head = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0xfe, payload.length >> 8, payload.length & 0xff]);
        s.write(Buffer.concat([head, mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!))]));
      }
      for (;;) {
        if (buf.length < 2) break;
        let len = buf[1]! & 0x7f;
        let at = 2;
        if (len === 126) {
          if (buf.length < 4) break;
          len = buf.readUInt16BE(2);
          at = 4;
        } else if (len === 127) {
          if (buf.length < 10) break;
          len = Number(buf.readBigUInt64BE(2));
          at = 10;
        }
        if (buf.length < at + len) break;
        frames.push({ fin: (buf[0]! & 0x80) !== 0, opcode: buf[0]! & 0x0f, payload: Buffer.from(buf.subarray(at, at + len)) });
        buf = buf.subarray(at + len);
      }
      if (until(frames)) {
        clearTimeout(timer);
        resolve();
      }
    });
    s.write(
      [`GET /ws HTTP/1.1`, `Host: ${hostname}:${port}`, "Connection: Upgrade", "Upgrade: websocket", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", `Origin: ${base}`, "", ""].join("\r\n"),
    );
  });
  s.destroy();
  return frames;
}

/** Reassembles fragmented messages. */
function messagesOf(frames: WireFrame[]): { opcode: number; fragments: number; data: Buffer }[] {
  const out: { opcode: number; fragments: number; data: Buffer }[] = [];
  let cur: { opcode: number; fragments: number; parts: Buffer[] } | undefined;
  for (const f of frames) {
    if (f.opcode >= 8) continue;
    if (f.opcode !== 0) cur = { opcode: f.opcode, fragments: 0, parts: [] };
    cur!.parts.push(f.payload);
    cur!.fragments++;
    if (f.fin) {
      out.push({ opcode: cur!.opcode, fragments: cur!.fragments, data: Buffer.concat(cur!.parts) });
      cur = undefined;
    }
  }
  return out;
}

describe("pi-web framing variants (§6)", () => {
  it("lists canonical, fragment, pretty, escape-unicode, ping, large-frames", () => {
    expect(PI_WEB_FRAMINGS.map((f) => f.name)).toEqual(["canonical", "fragment", "pretty", "escape-unicode", "ping", "large-frames"]);
  });

  it("canonical: one compact JSON object per unfragmented text frame", async () => {
    const { m } = await framed({});
    const frames = await rawFrames(m.url, { type: "prompt", id: "p", message: "hi" }, (fs) => fs.some((f) => f.payload.includes('"agent_end"')));
    expect(frames.every((f) => f.fin && f.opcode === 1)).toBe(true);
    for (const f of frames) expect(f.payload.toString()).toBe(JSON.stringify(JSON.parse(f.payload.toString())));
  });

  it("fragment: continuation frames of n bytes, splitting UTF-8 sequences, reassembling to valid JSON", async () => {
    const { m } = await framed({ fragment: 7 });
    const frames = await rawFrames(m.url, { type: "prompt", id: "p", message: "é漢字🙂 split me" }, (fs) =>
      messagesOf(fs).some((x) => x.data.includes('"agent_end"')),
    );
    expect(frames.filter((f) => f.opcode < 8).every((f) => f.payload.length <= 7)).toBe(true);
    expect(frames.some((f) => f.opcode === 0)).toBe(true);
    const messages = messagesOf(frames);
    expect(messages.every((x) => x.opcode === 1 && x.fragments > 1)).toBe(true);
    for (const x of messages) JSON.parse(x.data.toString("utf8"));
    const splitsUtf8 = frames.some((f) => f.opcode < 8 && f.payload.length > 0 && (f.payload[0]! & 0xc0) === 0x80);
    expect(splitsUtf8).toBe(true);
    // A ws client reads the same messages.
    const c = await Client.open(`${m.ws}/ws`);
    clients.push(c);
    c.send({ type: "prompt", id: "q", message: "é漢字🙂" });
    const echo = await c.waitFor((x) => x.type === "message_end" && x.message.role === "user");
    expect(echo.message.content[0].text).toBe("é漢字🙂");
  });

  it("pretty and escape-unicode (also per connection with ?framing=)", async () => {
    const { c } = await framed({ framing: "pretty" });
    c.send({ type: "prompt", id: "p", message: "é 漢 🙂 \u2028" });
    await c.waitFor((x) => x.type === "agent_end");
    expect(c.frames.every((f) => f.data.includes("\n  "))).toBe(true);

    const { m, c: e } = await framed({ escapeUnicode: true });
    e.send({ type: "prompt", id: "p", message: "é 漢 🙂 \u2028" });
    const echo = await e.waitFor((x) => x.type === "message_end" && x.message.role === "user");
    expect(echo.message.content[0].text).toBe("é 漢 🙂 \u2028");
    await e.waitFor((x) => x.type === "agent_end");
    expect(e.frames.every((f) => /^[\x00-\x7f]*$/.test(f.data))).toBe(true);
    expect(e.frames.some((f) => f.data.includes("\\u00e9") && f.data.includes("\\ud83d\\ude42") && f.data.includes("\\u2028"))).toBe(true);

    const q = await Client.open(`${m.ws}/ws?framing=pretty`);
    clients.push(q);
    expect((await q.request({ type: "get_state" })).success).toBe(true);
    expect(q.frames[0]!.data).toContain("\n");
  });

  it("ping-interval: the server pings; large-frames: updates past 1 MiB", async () => {
    const { c } = await framed({ pingInterval: 20 });
    let pings = 0;
    c.socket.on("ping", () => pings++);
    await sleep(120);
    expect(pings).toBeGreaterThanOrEqual(3);

    const { c: l } = await framed({ largeFrames: true });
    l.send({ type: "prompt", id: "p", message: "hi" });
    await l.waitFor((x) => x.type === "agent_end");
    const big = l.frames.filter((f) => Buffer.byteLength(f.data) > 1024 * 1024);
    expect(big).toHaveLength(1);
    const u = JSON.parse(big[0]!.data);
    expect(u).toMatchObject({ type: "message_update", assistantMessageEvent: { type: "text_start" } });
    expect(u.details.padding.length).toBeGreaterThan(1024 * 1024);
  });

  it("a message_update, whose partial is written once and copied, reads as JSON.stringify writes it", () => {
    const partial = { role: "assistant", content: [{ type: "text", text: "é 漢 🙂 \u0000 \"q\"" }], usage: {}, stopReason: "stop" };
    const update = (p: Json, text = "x") => ({ type: "message_update", message: p, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: text, partial: p } });
    for (const v of [
      update(partial),
      // The slot's own text in the reply: written the plain way.
      update({ ...partial, content: [{ type: "text", text: "\u0000agentwire:partial\u0000" }] }),
      update(partial, "\u0000agentwire:partial\u0000"),
      // Two different objects (a fault's rewrite): nothing is shared.
      { ...update(partial), message: { ...partial, stopReason: "aborted" } },
      // Keys other than the stream writes, or in another order.
      { ...update(partial), details: { padding: "xx" } },
      { type: "message_update", assistantMessageEvent: { type: "text_delta", partial }, message: partial },
      { type: "message_update", message: partial, assistantMessageEvent: { partial, type: "text_delta" } },
      { type: "message_update", message: partial, assistantMessageEvent: { partial } },
    ]) {
      expect(encodeJson(v, CANONICAL_FORMAT)).toBe(JSON.stringify(v));
      const frame = encodeEvent(v, CANONICAL_FORMAT);
      expect(typeof frame === "string" ? frame : frame.text).toBe(JSON.stringify(v));
      expect(encodeJson(v, { ...CANONICAL_FORMAT, escapeUnicode: true })).toBe(JSON.stringify(v).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
    }
  });

  it("escapes appended text as JSON.stringify escapes the whole, over many random pieces", () => {
    // Quotes, backslashes, control characters, U+2028/2029, BMP and astral characters, and both halves of a pair alone.
    const alphabet = ["a", " ", '"', "\\", "\n", "\u0000", "\u001f", "\u007f", "é", "漢", "\u2028", "\u2029", "🙂", "\ud83d", "\ude42", "\udbff", "\udc00"];
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
    for (let round = 0; round < 300; round++) {
      const escaped = new EscapedText();
      let whole = "";
      for (let i = 0, pieces = 1 + random(12); i < pieces; i++) {
        let piece = "";
        for (let j = 0, len = random(6); j < len; j++) piece += alphabet[random(alphabet.length)];
        // Sometimes cut a surrogate pair between two pieces.
        if (random(4) === 0) piece += "🙂".slice(0, 1);
        if (random(4) === 0) piece = "🙂".slice(1) + piece;
        escaped.append(piece);
        whole += piece;
        expect(escaped.text).toBe(JSON.stringify(whole).slice(1, -1));
        // A snapshot whose JSON the stream built from these pieces: the update's bytes are JSON.stringify's.
        const partial = { role: "assistant", content: [{ type: "text", text: whole }], stopReason: "stop" };
        rememberJson(partial, [utf8('{"role":"assistant","content":[{"type":"text","text":"'), ...escaped.pieces, utf8('"}],"stopReason":"stop"}')]);
        const update = { type: "message_update", message: partial, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: piece, partial } };
        const frame = encodeEvent(update, CANONICAL_FORMAT);
        expect(frame).toBeInstanceOf(Utf8Text);
        expect(Buffer.from((frame as Utf8Text).bytes).equals(Buffer.from(JSON.stringify(update)))).toBe(true);
        expect(encodeJson(update, CANONICAL_FORMAT)).toBe(JSON.stringify(update));
      }
    }
  });

  it("streams a reply with characters that need escaping byte for byte as JSON.stringify writes it", async () => {
    const { c } = await framed({ chunkSize: 3 });
    const tricky = 'q"uo\\te \u0000\u001f\n é 漢 🙂🙂 \u2028\u2029 \ud800 lone \udfff end';
    c.send({ type: "prompt", id: "p", message: tricky });
    await c.waitFor((x) => x.type === "agent_end");
    const updates = c.frames.filter((f) => f.data.includes('"message_update"'));
    expect(updates.length).toBeGreaterThan(10);
    let said = "";
    for (const f of updates) {
      const v = JSON.parse(f.data);
      expect(f.data).toBe(JSON.stringify(v));
      expect(v.message).toEqual(v.assistantMessageEvent.partial);
      if (v.assistantMessageEvent.type === "text_delta") said += v.assistantMessageEvent.delta;
      expect(v.message.content[0]?.text ?? "").toBe(said);
    }
    expect(said).toContain(tricky);
  });

  it("paced updates leave one by one, not held for the end of the stream", async () => {
    const { c } = await framed({ chunkDelay: 15 });
    const seen: number[] = [];
    c.socket.on("message", (d) => String(d).includes('"message_update"') && seen.push(performance.now()));
    c.send({ type: "prompt", id: "p", message: "paced" });
    await c.waitFor((x) => x.type === "agent_end");
    expect(seen.length).toBeGreaterThan(5);
    // Every update is its own arrival, about one chunk delay after the one before.
    const gaps = seen.slice(1).map((t, i) => t - seen[i]!);
    expect(gaps.filter((g) => g >= 5).length).toBeGreaterThan(gaps.length / 2);
  });

  it("a transport that only sends strings (msw's) gets the same text, decoded", async () => {
    const engine = createPiWebEngine({ originCheck: false, port: 4781, firstDelay: 0, chunkDelay: 0, toolDelay: 0 });
    const sent: (string | Uint8Array)[] = [];
    const conn = engine.connect({ send: (data) => sent.push(data), close: () => {} }, { url: "ws://127.0.0.1:4781/ws", headers: {} });
    conn.onMessage(JSON.stringify({ type: "prompt", id: "p", message: 'é 🙂 "q" \\ \ud800' }), false);
    for (let i = 0; i < 100 && !sent.some((d) => typeof d === "string" && d.includes('"agent_end"')); i++) await sleep(5);
    const updates = sent.filter((d): d is string => typeof d === "string" && d.includes('"message_update"'));
    expect(updates.length).toBeGreaterThan(3);
    for (const d of updates) expect(d).toBe(JSON.stringify(JSON.parse(d)));
    expect(JSON.parse(updates.at(-1)!).message.content[0].text).toContain('é 🙂 "q" \\ \ud800');
    engine.dispose();
  });
});
