/**
 * A turn as a generator: the code between two yields is one step, one visible change of the
 * snapshot. `wait` says how long (before speed) the next step comes after this one; `ask` blocks
 * until `POST /permission` answers, and resumes with the decision. The clocks decide when steps run.
 */
import type { ContinueRemotePacing } from "./options.js";
import type { ContinueRemoteScenario } from "./scenarios.js";

export type TurnYield = { wait: number } | { ask: { toolName: string; toolArgs: unknown; cn: boolean } };
export type TurnSteps = Generator<TurnYield, void, boolean | undefined>;

export const wait = (ms: number): TurnYield => ({ wait: ms });

export interface TurnContext {
  scenario: ContinueRemoteScenario;
  pacing: ContinueRemotePacing;
}

/** Splits by code points, so no chunk ends inside a surrogate pair. */
export function chunksOf(text: string, pacing: ContinueRemotePacing, count?: number): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  if (count && points.length >= count) {
    // Exactly `count` chunks, as even as the text allows.
    for (let i = 0; i < count; i++) {
      out.push(points.slice(Math.floor((i * points.length) / count), Math.floor(((i + 1) * points.length) / count)).join(""));
    }
    return out;
  }
  const size = Math.max(1, pacing.chunkChars);
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(""));
  return out.length ? out : [""];
}
