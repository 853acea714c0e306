/** The README's check table, generated from the catalogue so the two cannot drift. */
import { PROTOCOLS } from "../src/protocols.js";

export const BEGIN = "<!-- checks:begin -->";
export const END = "<!-- checks:end -->";

export function checksMarkdown(): string {
  const out: string[] = [];
  for (const p of PROTOCOLS) {
    out.push(`### ${p.id}`, "", "| check id | level | side | rule |", "| --- | --- | --- | --- |");
    for (const c of p.checks) out.push(`| \`${c.id}\` | ${c.level} | ${c.side} | ${c.rule.replace(/\|/g, "\\|")} |`);
    out.push("");
  }
  return out.join("\n");
}

export function withChecks(readme: string): string {
  const a = readme.indexOf(BEGIN);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`README.md lacks the ${BEGIN} … ${END} markers`);
  return `${readme.slice(0, a + BEGIN.length)}\n${checksMarkdown()}${readme.slice(b)}`;
}
