/**
 * Profiles of pi-web (§5). `pi-fork-0.54` accepts what the only implementation — the fork
 * patricktree/pi-mono `web-mode` at ebcfbf9b, pi 0.54.2 — does differently from the seed, and
 * nothing else:
 *
 * - a busy or invalid prompt gets a success plus a broadcast failure with the same id
 *   (rpc/single-response, rpc/response-unicast, cmd/prompt-busy, cmd/prompt-invalid);
 * - switch_session to a missing file succeeds and creates it (cmd/switch-session-missing);
 * - list_sessions without scope lists the cwd (cmd/list-sessions-default-scope);
 * - new/switch session mid-run cuts the run: session_changed ends it (event/agent-bracketing);
 * - commands and fields beyond the seed are reported, not failed (client/known-commands,
 *   client/unknown-fields: INFO).
 *
 * The behavioural relaxations are parameters the checks read (so a relaxed check still fails on
 * anything else); schema overlays live in schemas/pi-web/profiles/pi-fork-0.54/ and the registry
 * applies them by the profile's name.
 */
import type { ProfileDef } from "../../core/checks/check.js";
import { PI_WEB_CLIENT_FORK_LEVELS } from "./client/index.js";

export const PI_FORK_054: ProfileDef = {
  name: "pi-fork-0.54",
  description:
    "patricktree/pi-mono web-mode (ebcfbf9b, pi 0.54.2): busy/invalid prompts get a success plus a broadcast failure, switch to a missing file creates it, list_sessions defaults to cwd, new/switch mid-run ends the run with session_changed only, extra upstream commands and fields.",
  levels: { ...PI_WEB_CLIENT_FORK_LEVELS },
  params: {
    latePromptFailure: true,
    defaultScopeCwd: true,
    switchMissingCreates: true,
    sessionChangeEndsRun: true,
  },
};

export const PI_WEB_PROFILES: ProfileDef[] = [PI_FORK_054];
