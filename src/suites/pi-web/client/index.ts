/**
 * The client side of pi-web: checks that judge a client (browser UI, CLI) from the WebSocket
 * traffic the mock recorded, plus the vocabulary they share. The server suite's ProtocolDef
 * lists PI_WEB_CLIENT_CHECKS after its own.
 */
export {
  PI_WEB_CLIENT_CHECKS,
  PI_WEB_CLIENT_FORK_LEVELS,
  RESYNC_COMMANDS,
  commandSchemaCheck,
  connectCheck,
  idPresentCheck,
  idUniqueCheck,
  jsonObjectFramesCheck,
  knownCommandsCheck,
  reconnectResyncCheck,
  streamingBehaviorCheck,
  uiResponseIdCheck,
  uiResponseOnceCheck,
  uiResponseShapeCheck,
  uiSelectOptionCheck,
  unknownFieldsCheck,
} from "./checks.js";
export { CLIENT_PROBE, MockView, isClientFrame, isMockFrame, messageOf, parseFrame, type Parsed, type UiRequest } from "./traffic.js";
export {
  COMMANDS,
  COMMAND_FIELDS,
  DIALOG_ANSWER_KEY,
  IMAGE_FIELDS,
  REQUEST_TIMEOUT_MS,
  UI_RESPONSE,
  UI_RESPONSE_FIELDS,
  commandSchema,
  isCommandType,
  isDialogMethod,
} from "./vocabulary.js";
