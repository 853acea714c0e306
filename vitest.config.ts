import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    reporters: ["default", "./test/reporters/summary-reporter.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores, but many files wait on timers and paced mocks rather than compute: three files at
    // a time fill the waits. Not four: on a loaded machine the byte-per-ms split cases then overran
    // their deadlines.
    maxWorkers: 3,
  },
});
