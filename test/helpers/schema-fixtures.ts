/** The fixtures of a protocol's schemas (fixtures/<protocol>/<kind>/<message...>/<name>.json) and the generated-types check. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import type { ValidationResult } from "../../src/core/schemas/schema-registry.js";
import { GENERATED_DIR, generate } from "../../scripts/gen-types-lib.js";

export function schemaFixtures(protocol: string) {
  const root = fileURLToPath(new URL(`../../fixtures/${protocol}/`, import.meta.url));
  return {
    root,
    /** [message, name, value] for every fixture of `kind`, sorted; <message> may be nested (tools/cli/read.args). */
    fixtures(kind: string): [string, string, unknown][] {
      const base = join(root, kind);
      const out: [string, string, unknown][] = [];
      const walk = (dir: string): void => {
        for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) walk(path);
          else if (entry.name.endsWith(".json")) {
            out.push([relative(base, dir).split(sep).join("/"), entry.name.slice(0, -".json".length), JSON.parse(readFileSync(path, "utf8"))]);
          }
        }
      };
      walk(base);
      return out;
    },
    /** One fixture; a missing file fails the test that asked for it. */
    load(kind: string, message: string, name: string): unknown {
      const file = join(root, kind, message, `${name}.json`);
      expect(existsSync(file), file).toBe(true);
      return JSON.parse(readFileSync(file, "utf8"));
    },
  };
}

/** src/generated/<protocol>.ts must be what `npm run gen` writes today. */
export async function expectGeneratedFresh(protocol: string): Promise<void> {
  const onDisk = readFileSync(join(GENERATED_DIR, `${protocol}.ts`), "utf8");
  expect(onDisk === (await generate(protocol)), `src/generated/${protocol}.ts is stale: run npm run gen`).toBe(true);
}

type Validate = (message: string, value: unknown) => ValidationResult;

/** Every invalid fixture is rejected, with errors that carry JSON pointers. */
export function itRejectsEveryInvalidFixture(fixtures: [string, string, unknown][], validate: Validate): void {
  it.each(fixtures)("%s/%s", (message, _name, value) => {
    const r = validate(message, value);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.length).toBeGreaterThan(0);
    for (const e of r.errors) expect(e.pointer).toMatch(/^(\/[^/]*)*$/);
  });
}

/** Each listed invalid fixture [message, name, pointer] is rejected with an error at that pointer. */
export function itPointsAt(expected: [string, string, string][], load: (kind: string, message: string, name: string) => unknown, validate: Validate): void {
  it.each(expected)("%s/%s points at %j", (message, name, pointer) => {
    const r = validate(message, load("invalid", message, name));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => e.pointer)).toContain(pointer);
  });
}
