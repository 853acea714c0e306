/**
 * What a pi-web client may send (contract §2.1, §3 rules 28–31): the nine commands with their
 * documented fields, the `extension_ui_response` reply, and the dialog methods that expect one.
 * Plain data, browser-safe.
 */

export const SEED = "004_88f3c17269c3c25a.txt";

/** The reply type; every other `type` is a command (§3 rule 3). */
export const UI_RESPONSE = "extension_ui_response";

/** Documented fields of each command besides `type` and `id` (fork extras included: §2.1). */
export const COMMAND_FIELDS: Readonly<Record<string, readonly string[]>> = {
  prompt: ["message", "images", "streamingBehavior"],
  abort: [],
  clear_queue: [],
  get_state: [],
  get_messages: [],
  get_context_usage: [],
  list_sessions: ["scope", "sessionDir"],
  switch_session: ["sessionPath"],
  new_session: ["parentSession"],
};

export const COMMANDS: readonly string[] = Object.keys(COMMAND_FIELDS);

/** Fields of one `prompt.images[]` item. */
export const IMAGE_FIELDS: readonly string[] = ["type", "mimeType", "data"];

/** Fields of `extension_ui_response`. */
export const UI_RESPONSE_FIELDS: readonly string[] = ["type", "id", "value", "confirmed", "cancelled"];

/** Dialog methods of `extension_ui_request` and the key that answers each (besides `cancelled`). */
export const DIALOG_ANSWER_KEY: Readonly<Record<string, "value" | "confirmed">> = {
  select: "value",
  confirm: "confirmed",
  input: "value",
  editor: "value",
};

export function isDialogMethod(method: unknown): method is string {
  return typeof method === "string" && Object.hasOwn(DIALOG_ANSWER_KEY, method);
}

export function isCommandType(type: unknown): type is string {
  return typeof type === "string" && Object.hasOwn(COMMAND_FIELDS, type);
}

/** Schema message name of a command (`schemas/pi-web/<name>.schema.json`). */
export function commandSchema(type: string): string {
  return `${type.replace(/_/g, "-")}-command`;
}

export const UI_RESPONSE_SCHEMA = "extension-ui-response";

/** The fork client's request ids: `req_1`, `req_2`, … */
export const REQ_N = /^req_[1-9][0-9]*$/;

/** How long a command stays pending without a response (§1: the client gives up after 30 s). */
export const REQUEST_TIMEOUT_MS = 30_000;
