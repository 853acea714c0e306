/**
 * Starts the files that take longest first: the whole-suite fault proofs and the example clients at
 * the CLI's default timing. Vitest orders by the durations of an earlier run when it has them; a
 * fresh checkout (CI) has none, and by file size some of these would start last, leaving the run
 * to wait for them alone. Among the rest, vitest's own order stands.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const LONG_FIRST = [
  "test/suites/continue-remote/faults.test.ts",
  "test/suites/openai-chat/client-example.test.ts",
  "test/suites/pi-web/faults.test.ts",
  "test/suites/stagewise-chat/faults.test.ts",
  "test/suites/openai-chat/client-adapters.test.ts",
  "test/cli/replay.test.ts",
  "test/suites/mcp-chat/client-example.test.ts",
  "test/suites/pi-web/client-example.test.ts",
  "test/suites/continue-remote/client-example.test.ts",
  "test/suites/pi-web/mock.test.ts",
  "test/suites/stagewise-chat/hostile.test.ts",
  "test/suites/openai-chat/faults.test.ts",
];

/** A file's place in LONG_FIRST; every other file comes after them all. */
export function longFirstRank(moduleId: string): number {
  const i = LONG_FIRST.findIndex((path) => moduleId.endsWith(`/${path}`));
  return i < 0 ? LONG_FIRST.length : i;
}

export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array sort is stable: files outside the list keep vitest's order.
    return (await super.sort(files)).sort((a, b) => longFirstRank(a.moduleId) - longFirstRank(b.moduleId));
  }
}
