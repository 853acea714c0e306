import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { withChecks } from "../scripts/readme-checks-lib.js";

describe("README", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

  it("has a check table generated from the current catalogue (run npm run gen when this fails)", () => {
    expect(readme === withChecks(readme), "README check table is stale: run npm run gen").toBe(true);
  });

  it("shows the two commands and the test command CI runs", () => {
    expect(readme).toContain("npm install && npx agentwire test");
    expect(readme).toContain("npm test");
  });
});
