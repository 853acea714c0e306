/** Check records are data (checks/<protocol>.json): each record belongs to a defined check, and each check has one. */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkRecord, checkRecords } from "../../src/core/checks/check-records.js";
import { PROTOCOLS } from "../../src/protocols.js";

describe("check records", () => {
  for (const p of PROTOCOLS) {
    it(`${p.id}: the data file holds exactly the checks the suite defines, in order`, () => {
      const records = checkRecords(p.id).map((r) => `${r.side} ${r.id}`);
      const defined = p.checks.map((c) => `${c.side} ${c.id}`);
      expect(new Set(records).size).toBe(records.length);
      expect(records.toSorted()).toEqual(defined.toSorted());
    });

    it(`${p.id}: every record is whole: level, title, rule, a quoted sentence and what feeds it`, () => {
      for (const r of checkRecords(p.id)) {
        expect(r.id.startsWith(`${p.id}/`), r.id).toBe(true);
        expect(["MUST", "SHOULD", "INFO"], r.id).toContain(r.level);
        expect(["server", "client"], r.id).toContain(r.side);
        for (const text of [r.title, r.rule, r.ref.section, r.ref.quote]) expect(typeof text === "string" && text.trim().length > 0, r.id).toBe(true);
        expect(Array.isArray(r.probes) && r.probes.length > 0, r.id).toBe(true);
      }
    });
  }

  for (const p of PROTOCOLS) {
    it(`${p.id}: every fault names the checks it violates by their full ids, written out (grep finds the proof)`, () => {
      const dir = new URL(`../../src/mocks/${p.id}/`, import.meta.url);
      const source = readdirSync(dir)
        .filter((f) => /^faults.*\.ts$/.test(f))
        .map((f) => readFileSync(new URL(f, dir), "utf8"))
        .join("\n");
      const missing = p.faults.flatMap((f) => f.violates.filter((id) => !source.includes(`"${id}"`)).map((id) => `${f.name} → ${id}`));
      expect(missing).toEqual([]);
    });
  }

  it("a check with no record is named with the file that lacks it", () => {
    expect(() => checkRecord("server", "mcp-chat/no/such-check")).toThrow("checks/mcp-chat.json has no record for the server check mcp-chat/no/such-check");
  });
});
