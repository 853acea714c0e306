/**
 * The two profiles (§5). `default` is the contract made precise; `pi-fork-0.54` reproduces the
 * fork's quirks, with the same hooks the fork-quirk faults use, plus the late failure of an
 * invalid prompt and the upstream queue commands (`steer`, `follow_up`).
 */
import type { NamedItem } from "../../core/run/protocol.js";
import { QUIRKS } from "./faults.js";
import type { PiWebHooks } from "./hooks.js";

export type PiWebProfile = "default" | "pi-fork-0.54";

export const PROFILES: readonly (NamedItem & { name: PiWebProfile; hooks: PiWebHooks[] })[] = [
  { name: "default", description: "The contract as specified (seed made precise by the fork)", hooks: [] },
  {
    name: "pi-fork-0.54",
    description:
      "The fork's quirks: busy and invalid prompts get a success plus a broadcast failure, switch to a missing file creates it, list_sessions defaults to cwd, new/switch mid-run drops agent_end, steer/follow_up accepted",
    hooks: [
      QUIRKS.busyDoubleResponse,
      QUIRKS.defaultScopeCwd,
      QUIRKS.switchMissingCreates,
      QUIRKS.suppressRunOnChange,
      { prompt: { invalidLateFailure: true }, rpc: { extraCommands: true } },
    ],
  },
];

export function findProfile(name: string) {
  return PROFILES.find((p) => p.name === name);
}
