/**
 * The built-in tool catalogues as the client checks read them: the mock's own records
 * (src/mocks/openai-chat/catalogues.ts), so the kit and the mock never disagree on a tool.
 */
import { findCatalogue, type CatalogueTool } from "../../../mocks/openai-chat/catalogues.js";

export type { CatalogueTool };
export const DEFAULT_CATALOGUE = "seed";

/** The tools of a catalogue, or undefined when there is no such catalogue (or it is "none"). */
export function loadCatalogue(name: string): readonly CatalogueTool[] | undefined {
  if (name === "none") return undefined;
  return findCatalogue(name)?.tools;
}
