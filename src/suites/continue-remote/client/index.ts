/**
 * The client side of continue-remote: checks that judge a remote client from what it sent the
 * mock and what the mock served it (the mock records both when it is given a transcript bus).
 */
export {
  CONTINUE_REMOTE_CLIENT_CHECKS,
  pollsStateCheck,
  pollIntervalCheck,
  messageJsonCheck,
  messageNonemptyCheck,
  permissionRequestIdCheck,
  permissionOnlyWhenPendingCheck,
  exitMethodCheck,
  knownRoutesCheck,
  stopsAfterExitCheck,
  POLL_DUE_MS,
  AFTER_EXIT_MS,
  MIN_MEDIAN_INTERVAL_MS,
} from "./checks.js";
export { CLIENT_PROBE, clientExchanges, servedState, type ServedState } from "./traffic.js";
