/**
 * Profiles of continue-remote (§5). `seed` is the contract as written (the same as the default);
 * `cn-session` is the current `cn serve` 1.5.x, whose `/state` is a Session (schema overlays in
 * schemas/continue-remote/profiles/cn-session/, applied by the registry by the profile's name) and
 * whose known 1.5.47 deviations are reported as INFO. `permission/approved-boolean` is never
 * relaxed: a string "false" that approves is a safety issue.
 */
import type { ProfileDef } from "../../core/checks/check.js";

export const SEED_PROFILE: ProfileDef = {
  name: "seed",
  description: "The seed's DisplayMessage /state plus the legacy endpoints (the same as the default).",
};

export const CN_SESSION: ProfileDef = {
  name: "cn-session",
  description:
    "The current cn serve 1.5.x: /state is {session, isProcessing, messageQueueLength, pendingPermission}, /pause exists, no willInterrupt; 1.5.47's HTML error pages, queued non-string messages, 500 without a JSON content type and binding all interfaces are reported as INFO.",
  levels: {
    "continue-remote/wire/json-errors": "INFO",
    "continue-remote/bad-input/non-string-message": "INFO",
    "continue-remote/bad-input/unparseable-body": "INFO",
    "continue-remote/security/loopback-bind": "INFO",
  },
};

export const CONTINUE_REMOTE_PROFILES: ProfileDef[] = [SEED_PROFILE, CN_SESSION];

/** True when the checks judge the cn-session generation. */
export const isCn = (profile: ProfileDef): boolean => profile.name === CN_SESSION.name;
