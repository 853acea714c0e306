/**
 * Whether a terminal report is coloured: NO_COLOR (any value) turns colour off, FORCE_COLOR (other
 * than 0/false) turns it on, otherwise the stream being a terminal decides. Colours themselves come
 * from picocolors.
 */
import pc from "picocolors";

export type Colours = ReturnType<typeof pc.createColors>;

export function colourWanted(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force.toLowerCase() !== "false";
  return stream.isTTY === true && env.TERM !== "dumb";
}

export const colours = (enabled: boolean): Colours => pc.createColors(enabled);
