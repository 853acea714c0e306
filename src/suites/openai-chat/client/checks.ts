/** Every client-side check of openai-chat (contract §4): traffic checks first, then parse checks. */
import type { CheckDef } from "../../../core/checks/check.js";
import { finishesAfterDoneCheck } from "./after-done.js";
import { PARSE_CHECKS } from "./parse-checks.js";
import { TRAFFIC_CHECKS } from "./traffic-checks.js";

export const OPENAI_CHAT_CLIENT_CHECKS: CheckDef[] = [...TRAFFIC_CHECKS, finishesAfterDoneCheck, ...PARSE_CHECKS];
