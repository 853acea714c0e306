/**
 * Profiles of openai-chat (§5). `seed` is the contract as written (the default); the Continue
 * profiles keep the seed's levels and swap the tool catalogue the probes offer and the argument
 * rules use; `openai-compatible` relaxes what generic backends commonly do differently. Its
 * ErrorResponse overlay (only error.message required) lives in
 * schemas/openai-chat/profiles/openai-compatible/ and the registry applies it by the profile name.
 */
import type { ProfileDef } from "../../core/checks/check.js";

export const SEED_PROFILE: ProfileDef = {
  name: "seed",
  description: "The seed as written: catalogue seed (the seed's 15 built-in tools), levels as in the catalogue.",
  params: { catalogue: "seed" },
};

export const OPENAI_COMPATIBLE: ProfileDef = {
  name: "openai-compatible",
  description:
    'Generic OpenAI-compatible backends: finish/matches-tool-calls is SHOULD, errors/bad-input-400 accepts 422 as well as 400, errors/shape needs only error.message, done/present and envelope/fields only report.',
  levels: {
    "openai-chat/finish/matches-tool-calls": "SHOULD",
    "openai-chat/done/present": "INFO",
    "openai-chat/envelope/fields": "INFO",
  },
  params: { catalogue: "seed", badInputAllow422: true },
};

export const CONTINUE_2026: ProfileDef = {
  name: "continue-2026",
  description: "The seed's levels with catalogue continue-2026: the tools the Continue IDE offers in 2026 (single_find_and_replace, multi_edit, read_skill...).",
  params: { catalogue: "continue-2026" },
};

export const CONTINUE_CLI_2026: ProfileDef = {
  name: "continue-cli-2026",
  description: "The seed's levels with catalogue continue-cli-2026: the tools of the Continue CLI cn (Read, List, Bash... in PascalCase).",
  params: { catalogue: "continue-cli-2026" },
};

export const OPENAI_CHAT_PROFILES: ProfileDef[] = [SEED_PROFILE, OPENAI_COMPATIBLE, CONTINUE_2026, CONTINUE_CLI_2026];
