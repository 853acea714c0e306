/**
 * JSON.parse for the payloads of one stream. A streamed answer sends one envelope over and over with only some
 * strings in it changed (the text delta, an event id); once two payloads in a row show which strings those are, a
 * payload that is the same envelope around other strings is built from the last parse with those strings put in,
 * instead of being parsed again (a string with escapes is parsed alone).
 *
 * The value equals JSON.parse's: the same keys in the same order, the same strings. The objects on the way to a
 * changed string are new for each payload; the rest are shared with earlier payloads' values, which is safe because
 * rules only read parsed payloads. Anything else (another shape, a key named `__proto__`, a key twice in one object)
 * is parsed by JSON.parse, and invalid JSON throws as JSON.parse throws.
 *
 * A template that keeps fitting gets a builder of its own: one object or array literal per copied container, written
 * from the template's keys (see `compile`). Objects made by one literal all share one shape, so the rules reading
 * them hit the same fast property paths on every payload; a generic copy gives each payload's objects whatever shape
 * the copy ends with, and measured well over a tenth of a checker's time per chunk.
 */

/** Texts longer than this are parsed and never learned from (a rescan would cost more than it saves). */
const MAX_LEARN = 16 * 1024;
/**
 * After this many attempts to learn without a payload built in between, the stream is not compared any more: its
 * payloads differ in more than strings (or differently each time), and each attempt rescans two texts.
 */
const MAX_FAILED_LEARNS = 16;
/** Changed strings deeper than this are not learned (the copy and the builder recurse once per level). */
const MAX_DEPTH = 64;
/** Builders one stream gets: its envelopes rarely change, and each builder is code that stays compiled. */
const MAX_BUILDERS = 4;

const QUOTE = 34;
const BACKSLASH = 92;

/** Where the changed strings are: per key or index, either another level or the hole's number. */
type Spec = { keys: (string | number)[]; subs: (Spec | number)[] };

interface Template {
  /** The fixed text before each hole (each ends with the hole's opening quote), and the text after the last. */
  segments: string[];
  base: unknown;
  spec: Spec;
  holes: number;
  /** The strings of the payload being built (one list per template, refilled: build reads it at once). */
  values: string[];
  /** Payloads built from this template so far. */
  uses: number;
  /** Its compiled builder, once it has been used `compileAfter` times (null: it cannot have one). */
  make?: Builder | null;
}

type Builder = (values: string[]) => unknown;

export interface StreamJsonOptions {
  /**
   * Payloads a template builds with the generic copy before it gets a builder of its own (compiling costs some tens
   * of microseconds: a template that fits a few times only is not worth it). Default 8.
   */
  compileAfter?: number;
}

export class StreamJson {
  private template: Template | undefined;
  private prev: string | undefined;
  private failedLearns = 0;
  private readonly compileAfter: number;
  /** Values built from the template (for tests and the bench: how often parsing was saved). */
  built = 0;
  /** Templates given a builder of their own (for tests). */
  compiled = 0;

  constructor(opts: StreamJsonOptions = {}) {
    this.compileAfter = opts.compileAfter ?? 8;
  }

  parse(text: string): unknown {
    const t = this.template;
    if (t !== undefined) {
      const values = fill(t, text);
      if (values !== undefined) {
        this.built++;
        this.failedLearns = 0;
        if (t.make) return t.make(values);
        if (t.make === undefined && ++t.uses > this.compileAfter) {
          // Tried once per template; a stream that keeps changing its envelope gets a few builders, then copies.
          t.make = this.compiled < MAX_BUILDERS ? compile(t.base, t.spec) : null;
          if (t.make) {
            this.compiled++;
            return t.make(values);
          }
        }
        return build(t.base, t.spec, values);
      }
    }
    const value: unknown = JSON.parse(text);
    if (this.failedLearns < MAX_FAILED_LEARNS && text.length <= MAX_LEARN) {
      const prev = this.prev;
      this.prev = text;
      const learned = prev !== undefined && prev.length <= MAX_LEARN ? learn(prev, text, value) : undefined;
      if (learned) this.template = learned;
      // Only a payload built from a template pays for the learning; a template that never fits counts as a failure.
      if (prev !== undefined) this.failedLearns++;
    }
    return value;
  }
}

/**
 * The strings of `text` in the template's holes, or undefined when the text is not the template around plain strings.
 * (Fixed parts compared as slices: string equality is quicker here than startsWith at an offset.)
 */
function fill(t: Template, text: string): string[] | undefined {
  const segs = t.segments;
  const n = t.holes;
  const values = t.values;
  let pos = 0;
  for (let i = 0; i < n; i++) {
    const seg = segs[i]!;
    const from = pos + seg.length;
    if (text.slice(pos, from) !== seg) return undefined;
    const to = closingQuote(text, from);
    if (to < 0) return undefined;
    const raw = text.slice(from, to);
    if (raw.length < 64 ? plainShort(raw) : !NOT_PLAIN.test(raw)) values[i] = raw;
    else {
      // Escapes: the string alone is parsed (an invalid one sends the whole text to JSON.parse, which says why).
      try {
        values[i] = JSON.parse(text.slice(from - 1, to + 1)) as string;
      } catch {
        return undefined;
      }
    }
    pos = to;
  }
  const last = segs[n]!;
  return pos + last.length === text.length && text.slice(pos) === last ? values : undefined;
}

/** The quote that ends the string whose characters start at `from` (one not escaped), or -1. */
function closingQuote(text: string, from: number): number {
  for (let q = text.indexOf('"', from); q >= 0; q = text.indexOf('"', q + 1)) {
    let k = q - 1;
    while (k >= from && text.charCodeAt(k) === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q;
  }
  return -1;
}

/** No escape and no control character, for a short string (a loop costs less than a regex call there). */
function plainShort(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === BACKSLASH || c < 0x20) return false;
  }
  return true;
}

/** An escape or a control character: a string whose characters are not the text's own (native, for long strings). */
const NOT_PLAIN = /[\\\u0000-\u001f]/;

/** A copy of `node` with the spec's holes filled, copying only the containers on the way to them. */
function build(node: unknown, spec: Spec, values: string[]): unknown {
  const copy = (Array.isArray(node) ? node.slice() : { ...(node as Record<string, unknown>) }) as Record<string | number, unknown>;
  const { keys, subs } = spec;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const sub = subs[i]!;
    copy[k] = typeof sub === "number" ? values[sub] : build((node as Record<string | number, unknown>)[k], sub, values);
  }
  return copy;
}

interface Token {
  /** The token's text ("{", a number, a string with its quotes...). */
  raw: string;
  start: number;
  end: number;
  /** A string in key position. */
  key: boolean;
  /** For a string value: the keys and indexes that lead to it. */
  path?: (string | number)[];
}

type Frame = { array: boolean; key: string | number; expectKey: boolean; keys?: Set<string> };

/**
 * The tokens of a valid JSON text (JSON.parse accepted it), with the path of each string value; undefined when an
 * object holds a key twice or a key named `__proto__` (a copy could not tell which one JSON.parse kept).
 */
function tokens(text: string): Token[] | undefined {
  const out: Token[] = [];
  const stack: Frame[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (c === 0x7b || c === 0x5b) {
      // { or [
      out.push({ raw: text[i]!, start: i, end: i + 1, key: false });
      stack.push(c === 0x7b ? { array: false, key: "", expectKey: true, keys: new Set() } : { array: true, key: 0, expectKey: false });
      i++;
    } else if (c === 0x7d || c === 0x5d || c === 0x3a) {
      // } ] :
      out.push({ raw: text[i]!, start: i, end: i + 1, key: false });
      if (c === 0x3a) top!.expectKey = false;
      else stack.pop();
      i++;
    } else if (c === 0x2c) {
      // ,
      out.push({ raw: ",", start: i, end: i + 1, key: false });
      if (top!.array) (top!.key as number)++;
      else top!.expectKey = true;
      i++;
    } else if (c === QUOTE) {
      let j = i + 1;
      let escaped = false;
      while (text.charCodeAt(j) !== QUOTE) {
        if (text.charCodeAt(j) === BACKSLASH) {
          escaped = true;
          j++;
        }
        j++;
      }
      const raw = text.slice(i, j + 1);
      if (top !== undefined && !top.array && top.expectKey) {
        const key = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (key === "__proto__" || top.keys!.has(key)) return undefined;
        top.keys!.add(key);
        top.key = key;
        out.push({ raw, start: i, end: j + 1, key: true });
      } else out.push({ raw, start: i, end: j + 1, key: false, path: stack.map((f) => f.key) });
      i = j + 1;
    } else {
      // A number, true, false or null: up to the next delimiter.
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) break;
        j++;
      }
      out.push({ raw: text.slice(i, j), start: i, end: j, key: false });
      i = j;
    }
  }
  return out;
}

/**
 * A template from two texts in a row: the same tokens but for some string values, which become the holes. Undefined
 * when they differ in anything else, or do not differ.
 */
function learn(prev: string, text: string, value: unknown): Template | undefined {
  if (prev === text) return undefined;
  const a = tokens(prev);
  const b = tokens(text);
  if (!a || !b || a.length !== b.length) return undefined;
  const holes: Token[] = [];
  for (let i = 0; i < b.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.raw === y.raw) continue;
    if (y.key || x.key || y.path === undefined || x.raw.charCodeAt(0) !== QUOTE || y.raw.charCodeAt(0) !== QUOTE) return undefined;
    holes.push(y);
  }
  if (holes.length === 0) return undefined;
  const segments: string[] = [];
  let pos = 0;
  for (const h of holes) {
    segments.push(text.slice(pos, h.start + 1));
    pos = h.end - 1;
  }
  segments.push(text.slice(pos));
  if (holes.some((h) => h.path!.length > MAX_DEPTH)) return undefined;
  const spec: Spec = { keys: [], subs: [] };
  holes.forEach((h, n) => {
    let s = spec;
    const path = h.path!;
    for (let d = 0; d < path.length; d++) {
      const k = path[d]!;
      const last = d === path.length - 1;
      let at = s.keys.indexOf(k);
      if (at < 0) {
        s.keys.push(k);
        s.subs.push(last ? n : { keys: [], subs: [] });
        at = s.keys.length - 1;
      }
      if (!last) s = s.subs[at] as Spec;
    }
  });
  // A whole text that is one string has no container to copy: JSON.parse it is.
  if (spec.keys.length === 0 || typeof value !== "object" || value === null) return undefined;
  return { segments, base: value, spec, holes: holes.length, values: holes.map(() => ""), uses: 0 };
}

/** Copied containers with more members than this in all keep the generic copy (the literal would be large code). */
const MAX_LITERAL_MEMBERS = 256;
/** Nor does a builder whose code would be longer than this (long keys): each compiled text stays cached by the runtime. */
const MAX_SOURCE = 4096;
/** Compiled builders by their code, for the streams of a run that send the same envelope (a few per protocol). */
const factories = new Map<string, (shared: unknown[]) => Builder>();
const MAX_FACTORIES = 64;

/** The runtime refuses to compile code from strings (a policy): every template keeps the generic copy. */
let cannotCompile = false;

/**
 * A builder giving what `build` gives for this template: the containers on the way to the holes written as one
 * literal each, in the base's key order, their other members taken from the base as they are (shared, as `build`
 * shares them) and the holes from the values. Only keys are written into the code, each as a JSON string literal
 * (valid JavaScript, with every quote and backslash escaped); values never are. Null when a literal could differ from
 * the copy (a `__proto__` key would set the prototype instead of a member; the tokeniser already refuses such a
 * text), when the code would be large, or when the runtime does not allow compiling.
 */
function compile(base: unknown, spec: Spec): Builder | null {
  if (cannotCompile) return null;
  const shared: unknown[] = [];
  let members = 0;
  let size = 0;
  const literal = (node: unknown, sp: Spec): string | undefined => {
    const part = (k: string | number, v: unknown): string | undefined => {
      if (++members > MAX_LITERAL_MEMBERS || size > MAX_SOURCE) return undefined;
      const at = sp.keys.indexOf(k);
      if (at < 0) {
        shared.push(v);
        return `s[${shared.length - 1}]`;
      }
      const sub = sp.subs[at]!;
      return typeof sub === "number" ? `v[${sub}]` : literal(v, sub);
    };
    const parts: string[] = [];
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const p = part(i, node[i]);
        if (p === undefined) return undefined;
        parts.push(p);
        size += p.length + 1;
      }
      return `[${parts.join(",")}]`;
    }
    const o = node as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      if (k === "__proto__") return undefined;
      const p = part(k, o[k]);
      if (p === undefined) return undefined;
      const member = `${JSON.stringify(k)}:${p}`;
      parts.push(member);
      size += member.length + 1;
    }
    return `{${parts.join(",")}}`;
  };
  const code = literal(base, spec);
  if (code === undefined || code.length > MAX_SOURCE) return null;
  let factory = factories.get(code);
  if (!factory) {
    try {
      // Keys only are written into the code, each a JSON string literal (see above).
      factory = new Function("s", `"use strict"; return (v) => (${code});`) as (shared: unknown[]) => Builder;
    } catch (e) {
      // A policy forbids it for the whole process; anything else costs this template its builder only.
      if (e instanceof EvalError) cannotCompile = true;
      return null;
    }
    if (factories.size >= MAX_FACTORIES) factories.delete(factories.keys().next().value!);
    factories.set(code, factory);
  }
  return factory(shared);
}
