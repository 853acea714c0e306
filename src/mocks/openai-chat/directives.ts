/**
 * The mock's directive lines in the last user message (protocol doc §6): `call <name> [<JSON
 * object>]` asks for a call, `!scenario <name>` selects a scenario and `!fault <name>` adds a fault.
 * A real model reads the same lines as instructions, so the suite's prompts carry them too.
 */

export interface CallDirective {
  name: string;
  /** The JSON text after the name ("" when absent). */
  json: string;
  line: string;
}

export interface Directives {
  calls: CallDirective[];
  scenario?: string;
  faults: string[];
}

// The rest must be empty or start a JSON object, so prose like "call me later" is not a directive.
const CALL = /^call\s+([A-Za-z0-9_-]{1,64})(?:\s+(\{.*))?$/;
const SCENARIO = /^!scenario\s+(\S+)$/;
const FAULT = /^!fault\s+(\S+)$/;

export function parseDirectives(text: string): Directives {
  const out: Directives = { calls: [], faults: [] };
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    let m = CALL.exec(line);
    if (m) {
      out.calls.push({ name: m[1] as string, json: (m[2] ?? "").trim(), line });
      continue;
    }
    m = SCENARIO.exec(line);
    if (m) {
      out.scenario = m[1] as string;
      continue;
    }
    m = FAULT.exec(line);
    if (m) out.faults.push(m[1] as string);
  }
  return out;
}

/** The directive's arguments as an object, or why they are unusable. */
export function directiveArgs(d: CallDirective): { ok: true; args: Record<string, unknown> | null } | { ok: false; why: string } {
  if (d.json === "") return { ok: true, args: null };
  try {
    const v = JSON.parse(d.json) as unknown;
    if (typeof v !== "object" || v === null || Array.isArray(v)) return { ok: false, why: "they are not a JSON object" };
    return { ok: true, args: v as Record<string, unknown> };
  } catch (e) {
    return { ok: false, why: `they are not valid JSON (${(e as Error).message})` };
  }
}
