/**
 * StreamJson: a stream's payloads that repeat one envelope around other strings are built from the last parse, and
 * every value equals JSON.parse's (same keys in the same order, same strings, own `__proto__` keys kept); anything it
 * cannot build is parsed, and invalid JSON throws as JSON.parse does.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../src/core/mock/timing.js";
import { StreamJson } from "../../src/core/transport/stream-json.js";

/** The value as JSON.parse gives it, compared with keys in order (toStrictEqual ignores order). */
function same(actual: unknown, text: string): void {
  const expected = JSON.parse(text) as unknown;
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  expect(ownKeysDeep(actual)).toEqual(ownKeysDeep(expected));
}

function ownKeysDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(ownKeysDeep);
  if (typeof v !== "object" || v === null) return v;
  return Object.getOwnPropertyNames(v).map((k) => [k, ownKeysDeep((v as Record<string, unknown>)[k])]);
}

const chunk = (content: string, id = "chatcmpl-1") =>
  JSON.stringify({ id, object: "chat.completion.chunk", created: 1767225600, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: null }] });

/** The kit's seeded generator, so a failure is reproducible from its seed. */
const rng = seededRandom;

const ALPHABET = ["a", "b", " ", "é", "漢", "🙂", "\ud800", "\u2028", '"', "\\", "\n", "\t", "\u0001", "/", "0"];

function randomString(r: () => number, plainOnly: boolean): string {
  let s = "";
  const n = Math.floor(r() * 8);
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(r() * (plainOnly ? 8 : ALPHABET.length))];
  return s;
}

function randomValue(r: () => number, depth: number): unknown {
  const k = r();
  if (depth > 3 || (depth > 0 && k < 0.3)) return randomString(r, false);
  if (k < 0.4) return Math.floor(r() * 100);
  if (k < 0.45) return r() < 0.5 ? null : true;
  if (k < 0.7 && depth > 0) return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(r() * 4); i > 0; i--) o[["type", "id", "0", "x y", "é"][Math.floor(r() * 5)]!] = randomValue(r, depth + 1);
  return o;
}

/**
 * The value with the strings at some places replaced, as a stream changes the same strings from payload to payload
 * (`varies` picks the places, once per stream); mostly plain strings, the ones the template builds.
 */
function mutate(v: unknown, r: () => number, varies: (path: string) => boolean, path = ""): unknown {
  if (typeof v === "string") return varies(path) ? randomString(r, r() < 0.85) : v;
  if (Array.isArray(v)) return v.map((x, i) => mutate(x, r, varies, `${path}/${i}`));
  if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mutate(x, r, varies, `${path}/${k}`)]));
  return v;
}

/** A stable pick of about a third of the places, different for each seed. */
const placesOf = (seed: number) => (path: string) => {
  let h = seed * 2654435761;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 16777619);
  return (h >>> 0) % 3 === 0;
};

describe("StreamJson", () => {
  it("builds a long answer's chunks from the last parse, each equal to JSON.parse's", () => {
    const json = new StreamJson();
    const texts = ["", "Hel", "lo é 漢 🙂", "\u2028", "\ud800 lone", " ", "x".repeat(300)].map((c) => chunk(c));
    for (const text of texts) same(json.parse(text), text);
    // The first two teach the envelope.
    expect(json.built).toBe(texts.length - 2);
  });

  it("gives each payload objects of its own on the way to the changed string", () => {
    const json = new StreamJson();
    const a = json.parse(chunk("a")) as { choices: { delta: { content: string } }[] };
    json.parse(chunk("b"));
    const c = json.parse(chunk("c")) as typeof a;
    const d = json.parse(chunk("d")) as typeof a;
    expect(json.built).toBe(2);
    expect([a.choices[0]!.delta.content, c.choices[0]!.delta.content, d.choices[0]!.delta.content]).toEqual(["a", "c", "d"]);
    expect(c).not.toBe(d);
    expect(c.choices).not.toBe(d.choices);
    expect(c.choices[0]!.delta).not.toBe(d.choices[0]!.delta);
  });

  it("fills several changed strings at once (an event id twice and the text)", () => {
    const frame = (seq: number, text: string) =>
      JSON.stringify({ id: 1, result: { type: "data", data: { json: { id: String(seq), data: { type: "message-updated", content: { type: "text", text } } } }, id: String(seq) } });
    const json = new StreamJson();
    for (let i = 0; i < 20; i++) {
      const text = frame(30 + i, `part ${i} 🙂`);
      same(json.parse(text), text);
    }
    expect(json.built).toBe(18);
  });

  it("reads a changed string with escapes alone: quotes, backslashes before a quote, \\u escapes", () => {
    const json = new StreamJson();
    const contents = ["a", "b", 'say "hi"', "back\\", "\\\"", "tab\there\n", "\ud800", "é\u0001", "end"];
    const texts = contents.map((c) => chunk(c));
    for (const text of texts) same(json.parse(text), text);
    expect(json.built).toBe(texts.length - 2);
  });

  it("parses what does not fit the envelope: another shape, another fixed string, a longer number", () => {
    const json = new StreamJson();
    const texts = [chunk("a"), chunk("b"), chunk("c", "chatcmpl-2"), JSON.stringify({ choices: [] }), chunk("d"), chunk("e").replace("1767225600", "17672256000"), chunk("f")];
    for (const text of texts) same(json.parse(text), text);
    // "c" with another id teaches a template with two changing strings (id and content); "d" and "f" fit it.
    expect(json.built).toBe(2);
  });

  it("throws as JSON.parse does on invalid JSON, template or not", () => {
    const json = new StreamJson();
    json.parse(chunk("a"));
    json.parse(chunk("b"));
    const bad = [chunk("c").replace('"c"', '"c"x"'), chunk("c").replace('"c"', '"c\u0001"'), chunk("c").replace('"c"', '"c\\x"'), chunk("c").replace('"c"', '"c\\u12"'), chunk("c").slice(0, -1), "{"];
    for (const text of bad) {
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
      expect(() => json.parse(text)).toThrow(SyntaxError);
    }
    same(json.parse(chunk("d")), chunk("d"));
  });

  it("never builds across a key given twice or a __proto__ key (JSON.parse keeps the last, as an own key)", () => {
    const json = new StreamJson();
    for (const s of ["a", "b", "c", "d"]) {
      for (const text of [`{"t":"x","t":"${s}"}`, `{"t":"${s}","t":"x"}`, `{"__proto__":"${s}","k":"v"}`, `{"o":{"__proto__":{"p":"${s}"}}}`]) {
        const v = json.parse(text);
        same(v, text);
      }
    }
    expect(json.built).toBe(0);
    const proto = json.parse(`{"__proto__":"z","k":"v"}`) as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(proto)).toEqual(["__proto__", "k"]);
  });

  it.each([
    ["the generic copy", 8],
    ["compiled builders", 0],
  ])("equals JSON.parse on random values and random changes of their strings (seeded, %s)", (_, compileAfter) => {
    let built = 0;
    let compiled = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const json = new StreamJson({ compileAfter });
      const varies = placesOf(seed);
      // A stream's payload: an object with a few members.
      const root = () => Object.fromEntries(["type", "id", "data", "n"].map((k) => [k, randomValue(r, 1)]));
      let v: unknown = root();
      for (let step = 0; step < 12; step++) {
        // Mostly the same shape with other strings; now and then another value altogether.
        v = r() < 0.1 ? root() : mutate(v, r, varies);
        const text = r() < 0.05 ? JSON.stringify(v, null, 1) : JSON.stringify(v);
        let got: unknown;
        try {
          got = json.parse(text);
        } catch (e) {
          throw new Error(`seed ${seed} step ${step}: ${(e as Error).message} for ${text}`);
        }
        try {
          same(got, text);
        } catch (e) {
          throw new Error(`seed ${seed} step ${step}: ${text}\n${(e as Error).message}`);
        }
      }
      built += json.built;
      compiled += json.compiled;
    }
    // The comparison means something only if many values were built rather than parsed (and, for the second run,
    // by builders of their own).
    expect(built).toBeGreaterThan(500);
    if (compileAfter === 0) expect(compiled).toBeGreaterThan(100);
  });

  it("compiles a builder for a template that keeps fitting, equal to JSON.parse whatever its keys", () => {
    // Keys a literal must write exactly: quotes, backslashes, line separators, integer-like (enumerated first), empty,
    // and names Object.prototype has.
    const keys = ['say "x"', "back\\slash", "line\u2028sep", "10", "2", "", "constructor", "toString", "é 漢 🙂", "</script>", "a\u0001b"];
    const payload = (s: string) => `{${keys.map((k, i) => `${JSON.stringify(k)}:${i % 2 ? `{"in":["${s}",1,null]}` : `"${s}${i}"`}`).join(",")}}`;
    const json = new StreamJson();
    const values: unknown[] = [];
    for (let i = 0; i < 30; i++) {
      const text = payload(`v${i} 🙂`);
      const v = json.parse(text);
      same(v, text);
      values.push(v);
    }
    expect(json.compiled).toBe(1);
    expect(json.built).toBe(28);
    // Each payload keeps its own strings: a later build never writes into an earlier value.
    values.forEach((v, i) => same(v, payload(`v${i} 🙂`)));
    expect(Object.getPrototypeOf(values[29])).toBe(Object.prototype);
  });

  it("keeps the generic copy where the runtime forbids compiling code", () => {
    // The built module, as the CLI runs it (the tests' setup builds it), in a node that refuses code from strings.
    const module = fileURLToPath(new URL("../../dist/core/transport/stream-json.js", import.meta.url));
    const script = `
      const { StreamJson } = await import(${JSON.stringify(module)});
      const json = new StreamJson({ compileAfter: 0 });
      const text = (i) => JSON.stringify({ id: "c", choices: [{ delta: { content: "t" + i } }] });
      let same = true;
      for (let i = 0; i < 20; i++) same &&= JSON.stringify(json.parse(text(i))) === text(i);
      console.log(JSON.stringify({ same, built: json.built, compiled: json.compiled }));`;
    const out = execFileSync(process.execPath, ["--disallow-code-generation-from-strings", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(JSON.parse(out)).toEqual({ same: true, built: 18, compiled: 0 });
  });

  it("learns no changed string nested deeper than the copy may recurse (a deep array is parsed, as JSON.parse does)", () => {
    const deep = (i: number) => `${"[".repeat(3000)}"v${i}"${"]".repeat(3000)}`;
    const json = new StreamJson();
    for (let i = 0; i < 20; i++) expect(JSON.stringify(json.parse(deep(i)))).toBe(deep(i));
    expect(json.built).toBe(0);
  });

  it("gives a stream that keeps changing its envelope a few builders, then the generic copy", () => {
    const json = new StreamJson();
    for (let env = 0; env < 10; env++) {
      for (let i = 0; i < 12; i++) {
        const text = JSON.stringify({ [`kind${env}`]: "x", text: `t${i}` });
        same(json.parse(text), text);
      }
    }
    expect(json.built).toBe(100);
    expect(json.compiled).toBe(4);
  });

  it("keeps the generic copy where the builder's code would be long (long keys)", () => {
    const text = (i: number) => JSON.stringify({ ["k".repeat(5000)]: 1, text: `t${i}` });
    const json = new StreamJson({ compileAfter: 0 });
    for (let i = 0; i < 12; i++) same(json.parse(text(i)), text(i));
    expect(json.built).toBe(10);
    expect(json.compiled).toBe(0);
  });

  it("keeps the generic copy for a container too large to write as one literal", () => {
    const wide = (s: string) => JSON.stringify(Object.fromEntries([["text", s], ...Array.from({ length: 300 }, (_, i) => [`k${i}`, i])]));
    const json = new StreamJson({ compileAfter: 0 });
    for (let i = 0; i < 12; i++) same(json.parse(wide(`t${i}`)), wide(`t${i}`));
    expect(json.built).toBe(10);
    expect(json.compiled).toBe(0);
  });

  it("stops comparing a stream whose payloads never share an envelope", () => {
    const json = new StreamJson();
    for (let i = 0; i < 40; i++) {
      const text = JSON.stringify({ [`k${i}`]: "v" });
      same(json.parse(text), text);
    }
    expect(json.built).toBe(0);
  });
});
