/** Lists and counts in failure messages stay short however long the list, and words are built only for the failures kept. */
import { describe, expect, it } from "vitest";
import { Tally } from "../../src/core/checks/check.js";
import { LISTED, listFirst } from "../../src/core/list-text.js";
import { KeyCounts } from "../../src/core/checks/key-counts.js";
import { formatSchemaErrors, registry } from "../../src/core/schemas/schema-registry.js";

describe("listFirst", () => {
  it("lists a short list whole, as join would", () => {
    expect(listFirst([])).toBe("");
    expect(listFirst(["a"])).toBe("a");
    expect(listFirst(["a", "b", "c", "d", "e"])).toBe("a, b, c, d, e");
    expect(listFirst(new Set([1, 2]), (n) => `#${n}`, 5, "; ")).toBe("#1; #2");
  });

  it("shows the first few of a long list and counts the rest", () => {
    expect(listFirst(["a", "b", "c", "d", "e", "f"])).toBe("a, b, c, d, e, … and 1 more");
    expect(listFirst(new Map([["x", 1], ["y", 2], ["z", 3]]), ([k, v]) => `${k}=${v}`, 2, "; ")).toBe("x=1; y=2; … and 1 more");
  });

  it("reads only the items it shows", () => {
    const big = new Set(Array.from({ length: 100_000 }, (_, i) => i));
    let shown = 0;
    const text = listFirst(big, (n) => (shown++, String(n)));
    expect(shown).toBe(LISTED);
    expect(text).toBe("0, 1, 2, 3, 4, … and 99995 more");
  });
});

describe("Tally.failWith", () => {
  it("builds the words of the failures it keeps only, and counts every failure", () => {
    const t = new Tally();
    let built = 0;
    for (let i = 0; i < 1_000; i++) t.failWith(() => (built++, ["nothing open", `end #${i}`]), { index: i });
    expect(built).toBe(5);
    expect(t.failures).toBe(1_000);
    const o = t.outcome("unused");
    expect(o).toMatchObject({ verdict: "fail", message: "end #0 (1000 violations, first shown)", expected: "nothing open", actual: "end #0" });
    expect(o.evidence?.map((e) => e.index)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe("KeyCounts", () => {
  it("counts the first keys by name and the rest together, however many keys come", () => {
    const c = new KeyCounts("types", 3);
    for (const k of ["a", "b", "a", "c"]) c.add(k);
    expect(c.text()).toBe("a ×2, b ×1, c ×1");
    for (let i = 0; i < 100_000; i++) c.add(`new_${i}`);
    c.add("b");
    expect(c.size).toBe(3);
    expect(c.text()).toBe("a ×2, b ×2, c ×1, … and 100000 more of other types");
  });
});

describe("formatSchemaErrors", () => {
  const errors = (n: number) => Array.from({ length: n }, (_, i) => ({ pointer: `/items/${i}`, keyword: "type", message: "must be string" }));

  it("words a few errors whole, as before", () => {
    expect(formatSchemaErrors([{ pointer: "", keyword: "type", message: "must be object" }, ...errors(1)])).toBe("/: must be object; /items/0: must be string");
  });

  it("names the first ten errors of a large invalid value and counts the rest", () => {
    const text = formatSchemaErrors(errors(100_000));
    expect(text).toBe(`${Array.from({ length: 10 }, (_, i) => `/items/${i}: must be string`).join("; ")}; … and 99990 more`);
  });

  it("words what the registry finds in a value with an error per item", () => {
    const r = registry.validate("mcp-chat", "server-list", Array.from({ length: 5_000 }, () => 42));
    expect(r.ok).toBe(false);
    const text = formatSchemaErrors(r.ok ? [] : r.errors);
    expect(text).toMatch(/^\/0: must be object; \/1: must be object; .*; … and \d+ more$/);
    expect(text.length).toBeLessThan(1_000);
  });
});
