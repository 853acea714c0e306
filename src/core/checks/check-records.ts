/**
 * Every check's record is data: `checks/<protocol>.json`, shipped with the package, holds its id,
 * side, level, title, rule, contract reference and probes. The code of a check gives only its id
 * and its observer; the record is joined to it by (side, id) when the check is defined. Keeping
 * the records apart lets a reader (or a tool) see a protocol's whole catalogue in one file, and
 * keeps the prose of the contract out of the rules' code.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packagePath } from "../package-root.js";
import type { Level, Side } from "./check.js";

/** The folder shipped with the package (same depth from src/core and dist/core). */
export const CHECK_RECORDS_DIR = packagePath("checks");

export interface CheckRecord {
  id: string;
  side: Side;
  level: Level;
  title: string;
  rule: string;
  /** Section of the contract and the sentence the rule comes from. */
  ref: { section: string; quote: string };
  /** Probes (server side) or scenarios (client side) that feed the check. */
  probes: string[];
}

interface RecordFile {
  protocol: string;
  checks: CheckRecord[];
}

const byProtocol = new Map<string, Map<string, CheckRecord>>();

/** The records of one protocol, keyed by `side id`; read once. */
function recordsOf(protocol: string): Map<string, CheckRecord> {
  let records = byProtocol.get(protocol);
  if (!records) {
    const file = join(CHECK_RECORDS_DIR, `${protocol}.json`);
    const data = JSON.parse(readFileSync(file, "utf8")) as RecordFile;
    records = new Map();
    for (const r of data.checks) {
      const key = `${r.side} ${r.id}`;
      if (records.has(key)) throw new Error(`${file}: two records for the ${r.side} check ${r.id}`);
      records.set(key, r);
    }
    byProtocol.set(protocol, records);
  }
  return records;
}

/** The record of a check; a check with no record is a defect of the package, named with its file. */
export function checkRecord(side: Side, id: string): CheckRecord {
  const protocol = id.slice(0, id.indexOf("/"));
  const r = recordsOf(protocol).get(`${side} ${id}`);
  if (!r) throw new Error(`checks/${protocol}.json has no record for the ${side} check ${id}`);
  return r;
}

/** Every record of a protocol, in file order. */
export function checkRecords(protocol: string): CheckRecord[] {
  return [...recordsOf(protocol).values()];
}
