/**
 * Labels: the names probes give connections (ws-open `label`) and outgoing frames (ws-frame
 * `label`), and the names of the facts they publish as notes. Checks key on them, so they live in
 * one list: a renamed probe cannot silently starve a check.
 */

/** Connection labels. */
export const C = {
  /** Subscription A (chat since the start), the side subscriptions, and every mutation. */
  main: "main",
  /** Fresh subscriptions (B) whose snapshots are compared with A. */
  fresh: "fresh",
  /** Malformed frames, unknown procedures, keep-alive. */
  raw: "raw",
  /** Sends nothing after its upgrade: the server's PING is awaited on it. */
  silent: "silent",
  /** Resubscriptions with a lastEventId, after a client drop. */
  resume: "resume",
  foreignOrigin: "upgrade:foreign-origin",
  lan: "upgrade:lan",
} as const;

/** Connections whose traffic the protocol rules judge (not the upgrade probes). */
export const isProtocolConnection = (label: string | undefined): boolean => !!label && !label.startsWith("upgrade:");

/** HTTP exchange labels. */
export const X = { info: "info", infoLan: "info:lan" } as const;

/** The time a discovery answer is given (ms): wire/info-shape's limit, and the probes' cue to ask again. */
export const DISCOVERY_MS = 2_000;

/** Outgoing frame labels. */
export const M = {
  subAvailability: "sub:availability",
  subState: "sub:state",
  subMessaging: "sub:messaging",
  /** Subscription A. */
  subA: "sub:chat:A",
  /** A fresh subscription B, taken at a named point (rest, mid-stream…). */
  subB: (why: string) => `sub:chat:B:${why}`,
  subMessagingB: (why: string) => `sub:messaging:B:${why}`,
  /** A resubscription (lastEventId known, unknown, "x", none; concurrent; after a drop). */
  resume: (what: string) => `sub:chat:resume:${what}`,
  stop: (of: string) => `stop:${of}`,

  ping: "keepalive:ping",
  pong: "keepalive:pong",
  badJson: "bad:json",
  noInput: "bad:no-input",
  afterBad: "bad:after",
  unknownPath: "unknown:path",
  wrongKind: "unknown:kind",
  toolCalling: (name: string) => `unknown:toolcalling:${name}`,

  messagingSend: "messaging:send",
  /** The prompt, through messaging, for an agent without chat. */
  messagingPrompt: "messaging:prompt",
  messagingInvalid: "messaging:send-invalid",

  /** A mutation expected to succeed. */
  ok: (what: string) => `ok:${what}`,
  /** A mutation expected to be rejected with `reason` (reject-* checks read the reason back). */
  reject: (reason: string, what: string) => `reject:${reason}:${what}`,
} as const;

export const isSubB = (l: string | undefined): boolean => !!l && l.startsWith("sub:chat:B:");
export const isResume = (l: string | undefined): boolean => !!l && l.startsWith("sub:chat:resume:");
export const isOk = (l: string | undefined, what?: string): boolean => !!l && (what === undefined ? l.startsWith("ok:") : l === `ok:${what}`);
export const isReject = (l: string | undefined): boolean => !!l && l.startsWith("reject:");
export const isToolCallingLabel = (l: string | undefined): boolean => !!l && l.startsWith("unknown:toolcalling:");

/** The rejection a label asks for: `reject:<reason>:<what>`. */
export function rejectionOf(label: string | undefined): { reason: string; what: string } | undefined {
  if (!isReject(label)) return undefined;
  const [, reason, ...what] = label!.split(":");
  return { reason: reason!, what: what.join(":") };
}

/** Facts the probes publish as note events. */
export const NOTE = {
  /** string: why the probes stopped early. */
  stopped: "probes-stopped",
  /** {topic, reason}: the target legally took the other branch the contract allows. */
  notApplicable: "not-applicable",
  /** {host, port}: where the target listens (wire/port-range). */
  target: "target",
  /** {address} | {reason}: the non-loopback address tried (security/bind-address). */
  lan: "lan-address",
  /** {waitedMs, slow, pingAfterMs}: how long the silent connection waited, and for how long it had to (trpc/keepalive-ping). */
  silent: "silent-connection",
  /** {message, chatId}: the message a turn was prompted with, and whether it ended (chat/*). */
  turn: "turn",
  /** {check, where}: a rule failed in a way that left the probes nothing to build on (checks then not judged knock on). */
  knockOn: "knock-on",
} as const;

/** Behaviours a target may legally never show (contract §4: "behaviour unseen in 60 s is not exercised"). */
export const TOPIC = {
  /** The agent has no chat capability (the published package): every chat rule is moot. */
  chat: "chat",
  /** The tool prompt brought no tool call that needs approval. */
  approval: "approval",
  /** No tool call ran in the toolbar. */
  toolbarTool: "toolbar-tool",
  /** The agent refused createChat (rejected-by-agent), so nothing about a second chat applies. */
  createRefused: "create-refused",
  /**
   * The agent refused switchChat (rejected-by-agent): the kit's own chat stayed active, and the kit deletes, or sends
   * to as a non-active chat, only a chat it created.
   */
  switchRefused: "switch-refused",
} as const;
export type Topic = (typeof TOPIC)[keyof typeof TOPIC];
