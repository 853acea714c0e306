import { defineConfig } from "vitest/config";
import LongFirstSequencer from "./test/long-first-sequencer.js";

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
    // Files share their workers' modules: each file loading the kit afresh (its modules, the schemas
    // compiled for ajv) cost a third of the run's CPU. No test changes process-wide state it does
    // not restore; a test that replaces a module loads its subject afresh (vi.resetModules).
    isolate: false,
    sequence: { sequencer: LongFirstSequencer },
  },
});
