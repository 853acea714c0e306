import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/cli.js";
import { LONG_FIRST, longFirstRank } from "./long-first-sequencer.js";

describe("the long-first sequencer", () => {
  it("names test files that exist", () => {
    expect(LONG_FIRST.filter((path) => !existsSync(join(ROOT, path)) || !path.endsWith(".test.ts"))).toEqual([]);
  });

  it("ranks the listed files in their order, before every other", () => {
    const ids = ["test/readme.test.ts", LONG_FIRST[1]!, "test/core/views.test.ts", LONG_FIRST[0]!].map((p) => join(ROOT, p));
    expect([...ids].sort((a, b) => longFirstRank(a) - longFirstRank(b))).toEqual([ids[3], ids[1], ids[0], ids[2]]);
  });
});
