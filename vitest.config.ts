import { defineConfig } from "vitest/config";
import LongFirstSequencer from "./test/long-first-sequencer.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    reporters: ["default", "./test/reporters/summary-reporter.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores, but most files wait on timers and paced mocks rather than compute: three files at
    // a time fill the waits. Measured on a quiet 2-core machine: 3 workers 2m49s, 4 workers 2m14s,
    // 5 workers 1m53s–2m03s; at four and five, timing-sensitive proofs (pi-web's dialog replies
    // under the ping framing among them) failed now and then.
    maxWorkers: 3,
    // Files share their workers' modules: each file loading the kit afresh (its modules, the schemas
    // compiled for ajv) cost a third of the run's CPU. No test changes process-wide state it does
    // not restore; a test that replaces a module loads its subject afresh (vi.resetModules).
    isolate: false,
    sequence: { sequencer: LongFirstSequencer },
  },
});
