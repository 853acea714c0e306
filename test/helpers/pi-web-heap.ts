/**
 * Run in a process of its own (see test/suites/pi-web/memory.test.ts): the heap after `n` message_update events through
 * every pi-web server check, with nothing else in the process to allocate beside them. Prints one JSON line.
 */
import { DEFAULT_PROFILE } from "../../src/core/checks/check.js";
import { Evaluation } from "../../src/core/verdicts/evaluation.js";
import { registry } from "../../src/core/schemas/schema-registry.js";
import { PI_WEB_SERVER_CHECKS } from "../../src/suites/pi-web/checks/index.js";
import { longStream } from "./pi-web-synthetic.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");

function heapAfter(n: number, delta: string): { heap: number; verdicts: Record<string, string> } {
  const ev = new Evaluation(PI_WEB_SERVER_CHECKS, {
    protocol: "pi-web",
    profile: DEFAULT_PROFILE,
    params: {},
    validate: (m, v) => registry.validate("pi-web", m, v),
  });
  let heap = 0;
  let i = 0;
  for (const e of longStream(n, delta)) {
    ev.observe(e);
    // Measured in the middle of the text block, where every check holds its most state.
    if (++i === n) {
      gc!();
      heap = process.memoryUsage().heapUsed;
    }
  }
  return { heap, verdicts: Object.fromEntries(ev.finish().map((c) => [c.id, c.verdict])) };
}

const [small, large] = process.argv.slice(2).map(Number);
const a = heapAfter(small!, "a");
const b = heapAfter(large!, "a");
process.stdout.write(`${JSON.stringify({ growthMb: (b.heap - a.heap) / 1e6, verdicts: b.verdicts })}\n`);
