import { defineConfig } from "vitest/config";
import LongFirstSequencer from "./test/long-first-sequencer.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    reporters: ["default", "./test/reporters/summary-reporter.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores, but most files wait on timers and paced mocks rather than compute: five files at a
    // time fill the waits (measured on this 2-core machine: 3 workers 2m49s, 4 workers 2m14s, 5 workers
    // about 2m). What made five fail now and then were races in the kit and its proofs, fixed at
    // their cause: waits that ran out before the kit read an answer already there, replays that
    // held the event loop, a probe that raced two sockets.
    maxWorkers: 5,
    // Files share their workers' modules: each file loading the kit afresh (its modules, the schemas
    // compiled for ajv) cost a third of the run's CPU. No test changes process-wide state it does
    // not restore; a test that replaces a module loads its subject afresh (vi.resetModules).
    isolate: false,
    sequence: { sequencer: LongFirstSequencer },
  },
});
