/**
 * Exchange labels: the names probes give their exchanges and checks key on. One list, so a
 * renamed probe cannot silently starve a check.
 */

/** Bodies for POST /message that must get 400 (§2 Send: a non-empty string). */
export const MISSING_OR_EMPTY = [
  { name: "{}", body: "{}" },
  { name: '{"msg":"x"}', body: '{"msg":"x"}' },
  { name: '{"message":""}', body: '{"message":""}' },
] as const;

export const NON_STRING = [
  { name: '{"message":42}', body: '{"message":42}' },
  { name: '{"message":true}', body: '{"message":true}' },
  { name: '{"message":{}}', body: '{"message":{}}' },
  { name: '{"message":[]}', body: '{"message":[]}' },
  { name: '{"message":null}', body: '{"message":null}' },
] as const;

/** Bodies the server cannot read as a message: none of them is JSON with a JSON content type. */
export const UNPARSEABLE = [
  { name: "truncated-json", body: '{"message": "hi"', contentType: "application/json" },
  { name: "text-plain", body: "message=hello", contentType: "text/plain" },
  { name: "no-content-type", body: "message=hello", contentType: undefined },
] as const;

/** Routes that do not exist, and a method a route does not take. */
export const UNKNOWN_ROUTES = [
  { name: "GET /nope", method: "GET", path: "/nope" },
  { name: "POST /state", method: "POST", path: "/state" },
] as const;

/** What a page on another origin can send without a preflight (§1 Auth and CORS). */
export const SIMPLE_REQUESTS = [
  { name: "text-plain-json", body: '{"message":"agentwire simple request"}', contentType: "text/plain" },
  { name: "form", body: "message=agentwire+simple+request", contentType: "application/x-www-form-urlencoded" },
] as const;

export const L = {
  /** Every GET /state of the poll series starts with this. */
  poll: (phase: string) => `state:${phase}`,
  /** Valid messages, by phase (each is judged as sent idle or busy, see SENT_BUSY). */
  message: (name: string) => `message:${name}`,
  missingOrEmpty: (name: string) => `bad-input:missing:${name}`,
  nonString: (name: string) => `bad-input:non-string:${name}`,
  unparseable: (name: string) => `bad-input:unparseable:${name}`,
  unknownRoute: (name: string) => `bad-input:route:${name}`,
  permissionIdle: "permission:idle",
  permissionWrongId: "permission:wrong-id",
  permissionNonBoolean: (name: string) => `permission:non-boolean:${name}`,
  permissionAnswer: "permission:answer",
  pauseIdle: "pause:idle",
  pauseBusy: "pause:busy",
  diff: "diff",
  getExit: "exit:get",
  headExit: "exit:head",
  postExit: "exit:post",
  /** Requests after POST /exit that should find nothing listening. */
  afterExit: "exit:after",
  simple: (name: string) => `security:simple:${name}`,
  foreignHost: "security:foreign-host",
  foreignPreflight: "security:foreign-preflight",
  foreignOrigin: "security:foreign-origin",
} as const;

export const isPollLabel = (label: string): boolean => label.startsWith("state:");
export const isMessageLabel = (label: string): boolean => label.startsWith("message:");
export const isBadInputLabel = (label: string): boolean => label.startsWith("bad-input:");
export const isSimpleLabel = (label: string): boolean => label.startsWith("security:simple:");
export const isForeignLabel = (label: string): boolean => label === L.foreignHost || label === L.foreignPreflight || label === L.foreignOrigin;

/** Poll phases the probes use; checks that compare "before" and "after" key on them. */
export const PHASE = {
  idle: "idle",
  beforeBadInput: "before-bad-input",
  afterBadInput: "after-bad-input",
  beforeSimple: "before-simple",
  afterSimple: "after-simple",
  beforePause: "before-pause-idle",
  afterPause: "after-pause-idle",
  afterGetExit: "after-get-exit",
  beforeLateInput: "before-late-input",
  afterLateInput: "after-late-input",
} as const;

/** Facts the probes publish as note events. */
export const NOTE = {
  /** {label, busy: boolean}: a valid message is about to be sent, while the last snapshot was busy or idle. */
  sending: "sending",
  /** {phase, waitedMs}: a turn did not end within the turn timeout. */
  turnTimeout: "turn-timeout",
  /** {address, port, reachable: boolean, error?}: a connect to a non-loopback address of this host. */
  bindProbe: "bind-probe",
  /** string: why the probes stopped early. */
  stopped: "probes-stopped",
  /** {topic, reason}: the target legally lacks what a rule needs (no permission asked, no willInterrupt). */
  notApplicable: "not-applicable",
  /** {check, where}: a rule failed, so the probes could not create what the other rules need. */
  knockOn: "knock-on",
} as const;

/** Topics of not-applicable notes (what checks name in notApplicableWhen). */
export const TOPIC = {
  permission: "permission",
  deny: "permission-deny",
  willInterrupt: "will-interrupt",
  exit: "exit",
  pause: "pause",
  bind: "bind",
} as const;
