/** agentwire list [protocol] [--json] */
import type { ProtocolDef } from "../core/run/protocol.js";
import { loadAllProtocols } from "../protocol-loader.js";
import { requireProtocol } from "./options.js";

export function listJson(protocols: ProtocolDef[]) {
  return {
    protocols: protocols.map((p) => ({
      id: p.id,
      title: p.title,
      seed: p.seed,
      checks: p.checks.map((c) => ({
        id: c.id,
        level: c.level,
        side: c.side,
        title: c.title,
        rule: c.rule,
        ref: c.ref,
      })),
      faults: p.faults.map((f) => ({ name: f.name, description: f.description, violates: f.violates })),
      scenarios: p.scenarios.map((s) => ({ name: s.name, description: s.description })),
      framings: p.framings.map((s) => ({ name: s.name, description: s.description })),
      profiles: [
        { name: "default", description: "The contract as written." },
        ...p.profiles.map((x) => ({ name: x.name, description: x.description, levels: x.levels ?? {} })),
      ],
    })),
  };
}

export function listText(protocols: ProtocolDef[]): string {
  const out: string[] = [];
  for (const p of protocols) {
    out.push(`${p.id} — ${p.title}`);
    out.push(`  ${p.checks.length} checks, ${p.faults.length} faults, ${p.scenarios.length} scenarios, profiles: default${p.profiles.map((x) => `, ${x.name}`).join("")}`);
    if (protocols.length === 1) {
      out.push("", "  checks:");
      for (const c of p.checks) out.push(`    ${c.id.padEnd(48)} ${c.level.padEnd(6)} ${c.side.padEnd(6)} ${c.title}`);
      out.push("", "  scenarios:");
      for (const s of p.scenarios) out.push(`    ${s.name.padEnd(24)} ${s.description}`);
      out.push("", "  faults:");
      for (const f of p.faults) out.push(`    ${f.name.padEnd(30)} → ${f.violates.join(", ")}`);
      out.push("", "  framings:");
      for (const s of p.framings) out.push(`    ${s.name.padEnd(24)} ${s.description}`);
    }
  }
  if (protocols.length > 1) out.push("", 'Details of one protocol: agentwire list <protocol>; machine-readable: --json');
  return `${out.join("\n")}\n`;
}

export async function runList(protocolId: string | undefined, opts: { json?: boolean }): Promise<number> {
  const protocols = protocolId ? [await requireProtocol(protocolId)] : await loadAllProtocols();
  process.stdout.write(opts.json ? `${JSON.stringify(listJson(protocols), null, 2)}\n` : listText(protocols));
  return 0;
}
